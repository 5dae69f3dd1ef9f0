import Foundation

/// The memory the stages after camera alignment plan within. Before point cloud generation and
/// before texture mapping, the photos' working size is checked against it: when the detail
/// level's size would not fit, the photos are worked on smaller (and the atlas, as a last
/// resort), as Object Capture downsamples when memory is short, and the run says so.
///
/// The estimates count the buffers that grow with the photos (per-pixel bytes from the stages'
/// buffer layouts) on top of what the process already holds, so a plan is only as good as that
/// accounting; checked against one measured run (40 photos of 12 MP at `full`: 3.2 GB estimated,
/// 2.6 GB peak), it errs on the generous side.
public struct MemoryBudget: Sendable, Equatable {
    /// The most the whole process should hold, in bytes.
    public var bytes: Int

    public init(bytes: Int) { self.bytes = bytes }

    /// What this machine can give: the memory available now (the kernel's MemAvailable) plus
    /// what this process holds already, less a tenth for everything else. Nil off Linux.
    public static func system() -> MemoryBudget? {
        guard let available = meminfo("MemAvailable") else { return nil }
        return MemoryBudget(bytes: (available + residentBytes()) / 10 * 9)
    }

    /// The resident size of this process (0 when it cannot be read).
    public static func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .ascii) else { return 0 }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// A field of /proc/meminfo, in bytes.
    static func meminfo(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .ascii) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kilobytes = Int(parts[1]) { return kilobytes * 1024 }
        }
        return nil
    }

    /// Parses a size such as `4G`, `1.5GB`, `800M` or `1073741824` (bytes), in powers of 1024.
    public static func parse(_ text: String) -> MemoryBudget? {
        var digits = text.trimmingCharacters(in: .whitespaces).uppercased()
        if digits.hasSuffix("IB") { digits.removeLast(2) } else if digits.hasSuffix("B") { digits.removeLast() }
        var unit = 1.0
        if let last = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(last)] {
            unit = pow(1024, Double(power))
            digits.removeLast()
        }
        guard let value = Double(digits), value.isFinite, value > 0, value * unit < 1e18 else { return nil }
        return MemoryBudget(bytes: Int(value * unit))
    }

    /// `bytes` in gigabytes (or megabytes below one), for messages.
    public static func describe(_ bytes: Int) -> String {
        bytes >= 1 << 30 ? String(format: "%.1f GB", Double(bytes) / Double(1 << 30)) : "\(max(1, bytes >> 20)) MB"
    }
}

/// The sizes a stage works at once the budget is applied, and the notice when they are smaller
/// than asked for.
public struct MemoryPlan: Sendable, Equatable {
    /// Longest side of the photos in multi-view stereo, or of the photos the texture is taken from.
    public var photoSide: Int
    /// The texture atlas's side (texture mapping only).
    public var atlasSide: Int
    /// The estimated peak of the whole process, in bytes.
    public var estimatedBytes: Int
    /// Set when the sizes were brought down to fit: what was done and why, in a sentence.
    public var notice: String?

    /// Per-pixel bytes of one stereo view held through point cloud generation: its colour and
    /// grey copies and mask (8), its depth, normal and cost maps (24), fusion's bookkeeping (8).
    static let stereoBytesPerPixel = 40
    /// Per-pixel bytes of PatchMatch's working state for the view being matched, per thread.
    static let stereoWorkingBytesPerPixel = 64
    /// Per-texel bytes of the atlas while it is baked and encoded: colour, coverage mask, the
    /// dilation's copy and the PNG encoder's rows and output.
    static let atlasBytesPerTexel = 11

    /// Point cloud generation: `views` photos of `width`×`height` at `side` pixels on the longer
    /// side, `threads` matched at once, on top of `resident` bytes.
    public static func stereo(views: Int, width: Int, height: Int, side: Int, threads: Int,
                              resident: Int, budget: MemoryBudget) -> MemoryPlan {
        func need(_ side: Int) -> Int {
            let pixels = scaledPixels(width, height, side)
            return resident + views * pixels * stereoBytesPerPixel + threads * pixels * stereoWorkingBytesPerPixel
        }
        let wanted = min(side, max(width, height))
        var chosen = wanted
        while need(chosen) > budget.bytes && chosen > 320 { chosen = max(320, chosen * 7 / 8 / 16 * 16) }
        var plan = MemoryPlan(photoSide: chosen, atlasSide: 0, estimatedBytes: need(chosen))
        if chosen < wanted {
            plan.notice = "point cloud generation: \(views) photos at \(wanted) px would need about \(MemoryBudget.describe(need(wanted))), "
                + "more than the \(MemoryBudget.describe(budget.bytes)) allowed; matching them at \(chosen) px instead"
                + (plan.estimatedBytes > budget.bytes ? " (the smallest; it may still not fit)" : "")
        }
        return plan
    }

    /// Texture mapping: `views` photos of `width`×`height` kept in colour at up to `side` pixels,
    /// a depth buffer per thread at the same size, and an atlas of `atlas`² texels.
    public static func texture(views: Int, width: Int, height: Int, side: Int, atlas: Int, threads: Int,
                               resident: Int, budget: MemoryBudget) -> MemoryPlan {
        func need(_ side: Int, _ atlas: Int) -> Int {
            let pixels = scaledPixels(width, height, side)
            return resident + views * pixels * 3 + threads * pixels * 4 + atlas * atlas * atlasBytesPerTexel
        }
        let wanted = min(side, max(width, height))
        var chosen = wanted, chosenAtlas = atlas
        while need(chosen, chosenAtlas) > budget.bytes && chosen > 1024 { chosen = max(1024, chosen * 7 / 8 / 16 * 16) }
        while need(chosen, chosenAtlas) > budget.bytes && chosenAtlas > 1024 { chosenAtlas /= 2 }
        var plan = MemoryPlan(photoSide: chosen, atlasSide: chosenAtlas, estimatedBytes: need(chosen, chosenAtlas))
        if chosen < wanted || chosenAtlas < atlas {
            var done = ["reading photos at \(chosen) px"]
            if chosenAtlas < atlas { done.append("a \(chosenAtlas)×\(chosenAtlas) texture") }
            plan.notice = "texture mapping: \(views) photos at \(wanted) px and a \(atlas)×\(atlas) texture would need about "
                + "\(MemoryBudget.describe(need(wanted, atlas))), more than the \(MemoryBudget.describe(budget.bytes)) allowed; "
                + done.joined(separator: " and ") + " instead"
                + (plan.estimatedBytes > budget.bytes ? " (the smallest; it may still not fit)" : "")
        }
        return plan
    }

    /// Pixels of a `width`×`height` photo brought down to `side` on its longer side.
    static func scaledPixels(_ width: Int, _ height: Int, _ side: Int) -> Int {
        let scale = min(1, Double(side) / Double(max(1, max(width, height))))
        return Int((Double(width) * scale).rounded()) * Int((Double(height) * scale).rounded())
    }
}
