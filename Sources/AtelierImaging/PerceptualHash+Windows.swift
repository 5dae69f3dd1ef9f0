import CHamming
import Foundation

/// pHashes of sub-windows of a photo, so a crop of it can be found by its hash.
///
/// A copy cropped by 5–20 % of a side, re-framed or turned a few degrees lands 10–36 bits from
/// its original's pHash: as far as unrelated photos. But its pHash lies within a few bits of the
/// pHash of the *window* of the original it shows. So each photo also carries the pHashes of 48
/// windows (80 % and 90 % of each side, or the whole side, at the start, the centre and the end
/// of it), and `atl-query duplicates` looks for a photo's pHash among the others' windows.
///
/// The windows are cut from the grey photo brought to 64 pixels on its shorter side: the pHash
/// sees only the 8×8 lowest frequencies of a 32×32 picture, so nothing it reads is lost.
extension PerceptualHash {
    /// A window as fractions of the photo: its width and height, and where it sits along each
    /// axis (0 at the start, 0.5 centred, 1 at the end).
    public struct Window: Sendable, Equatable {
        public var width: Double, height: Double, alongX: Double, alongY: Double

        public init(width: Double, height: Double, alongX: Double, alongY: Double) {
            (self.width, self.height, self.alongX, self.alongY) = (width, height, alongX, alongY)
        }

        /// The whole photo.
        public static let whole = Window(width: 1, height: 1, alongX: 0.5, alongY: 0.5)
    }

    /// The 48 windows, in the order of `windowPHashes` (the whole photo, the photo's own pHash,
    /// is not among them).
    public static let windows: [Window] = {
        var out: [Window] = []
        for width in [1.0, 0.9, 0.8] {
            for height in [1.0, 0.9, 0.8] where width < 1 || height < 1 {
                for alongX in width < 1 ? [0.0, 0.5, 1.0] : [0.5] {
                    for alongY in height < 1 ? [0.0, 0.5, 1.0] : [0.5] {
                        out.append(Window(width: width, height: height, alongX: alongX, alongY: alongY))
                    }
                }
            }
        }
        return out
    }()

    /// The shorter side the windows are cut at.
    static let windowBaseSide = 64

    /// The pHash of each of `windows` (any image; empty when it is too small to cut windows
    /// of, under 16 pixels a side).
    ///
    /// Resizing to 32×32 and taking the 8×8 lowest DCT frequencies are both linear, so for a
    /// window `h` rows by `w` columns they are one 8×h matrix on the left and one w×8 on the
    /// right (`lowFrequencies`), which depend only on the lengths. Windows that share their rows
    /// share the left product, so 48 hashes cost about 0.4 M multiply-adds, not 48 resizes.
    /// (The resized picture is not rounded to bytes first, so a window's hash can differ by a
    /// bit from `pHash` of the cropped picture; nothing compares the two bit for bit.)
    public static func windowPHashes(_ image: Image) -> [UInt64] {
        let grey = image.grey()
        guard min(grey.width, grey.height) >= 16 else { return [] }
        let scale = min(1, Double(windowBaseSide) / Double(min(grey.width, grey.height)))
        let base = scale < 1
            ? grey.resized(width: max(1, Int((Double(grey.width) * scale).rounded())),
                           height: max(1, Int((Double(grey.height) * scale).rounded())), filter: .bilinear)
            : grey
        let width = base.width, height = base.height
        let pixels = base.pixels.map(Float.init)
        var across: [Int: [Float]] = [:], down: [Int: [Float]] = [:]
        // Rows `y0 ..< y0 + h` through the 8×h matrix: 8 rows of the full width, by (y0, h).
        var rowProducts: [Int: [Float]] = [:]
        var hashes: [UInt64] = []
        hashes.reserveCapacity(windows.count)
        var coefficients = [Float](repeating: 0, count: 64)
        for window in windows {
            let w = Int((Double(width) * window.width).rounded())
            let h = Int((Double(height) * window.height).rounded())
            let x0 = Int((Double(width - w) * window.alongX).rounded())
            let y0 = Int((Double(height - h) * window.alongY).rounded())
            let left = down[h] ?? FrequencyCache.shared.matrix(length: h)
            down[h] = left
            let right = across[w] ?? FrequencyCache.shared.matrix(length: w)
            across[w] = right
            let key = y0 << 32 | h
            let rows = rowProducts[key] ?? pixels.withUnsafeBufferPointer { source in
                [Float](unsafeUninitializedCapacity: 8 * width) { out, initialized in
                    out.initialize(repeating: 0)
                    for u in 0 ..< 8 {
                        let target = out.baseAddress! + u * width
                        for y in 0 ..< h {
                            let weight = left[u * h + y]
                            let row = source.baseAddress! + (y0 + y) * width
                            for x in 0 ..< width { target[x] += weight * row[x] }
                        }
                    }
                    initialized = 8 * width
                }
            }
            rowProducts[key] = rows
            rows.withUnsafeBufferPointer { rows in
                right.withUnsafeBufferPointer { right in
                    for u in 0 ..< 8 {
                        let row = rows.baseAddress! + u * width + x0
                        for v in 0 ..< 8 {
                            let column = right.baseAddress! + v * w
                            var sum: Float = 0
                            for x in 0 ..< w { sum += row[x] * column[x] }
                            coefficients[u * 8 + v] = sum
                        }
                    }
                }
            }
            let sorted = coefficients.sorted()
            let median = (sorted[31] + sorted[32]) / 2
            hashes.append(coefficients.reduce(0) { ($0 << 1) | ($1 > median ? 1 : 0) })
        }
        return hashes
    }

    /// The 8 lowest DCT-II frequencies of a signal of `length` samples resized to 32 (Lanczos,
    /// as `Image.resized`): an 8×length matrix, row by row.
    static func lowFrequencies(length: Int) -> [Float] {
        let kernel = ResampleKernel(inputSize: length, outputSize: 32, filter: .lanczos3)
        var matrix = [Double](repeating: 0, count: 8 * length)
        for u in 0 ..< 8 {
            for i in 0 ..< 32 {
                let c = cos(Double.pi * Double(2 * i + 1) * Double(u) / 64)
                for t in 0 ..< kernel.counts[i] { matrix[u * length + kernel.starts[i] + t] += c * kernel.weights[i * kernel.stride + t] }
            }
        }
        return matrix.map(Float.init)
    }

    /// `lowFrequencies` worked out once per length: photos from one camera share their sizes.
    private final class FrequencyCache: @unchecked Sendable {
        static let shared = FrequencyCache()
        private let lock = NSLock()
        private var matrices: [Int: [Float]] = [:]

        func matrix(length: Int) -> [Float] {
            if let found = lock.withLock({ matrices[length] }) { return found }
            let made = PerceptualHash.lowFrequencies(length: length)
            lock.withLock {
                if matrices.count >= 256 { matrices.removeAll(keepingCapacity: true) }
                matrices[length] = made
            }
            return made
        }
    }

    /// The hashes as one string of 16 hex digits each, as records carry them (`phashWindows`).
    public static func hexList(_ hashes: [UInt64]) -> String {
        hashes.map(hex).joined()
    }

    /// The hashes of a `phashWindows` string; nil unless it is whole groups of 16 hex digits.
    /// (CHamming reads them: a hundred thousand photos' 48 windows are 77 million digits.)
    public static func parseList(_ text: String) -> [UInt64]? {
        var text = text
        return text.withUTF8 { bytes -> [UInt64]? in
            guard bytes.count % 16 == 0 else { return nil }
            let count = bytes.count / 16
            guard count > 0 else { return [] }
            var out = [UInt64](repeating: 0, count: count)
            let isValid = out.withUnsafeMutableBufferPointer { atl_hex64_parse(bytes.baseAddress, count, $0.baseAddress) != 0 }
            return isValid ? out : nil
        }
    }
}
