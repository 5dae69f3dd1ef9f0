/// One file of a batch: where it goes and how big it is.
///
/// Since protocol version 2 an entry carries no sha256: the sender hashes each file while it
/// streams it and sends the digest in the file's `fileEnd`, so it reads every file once and
/// the first byte moves at once instead of after a pass over the whole batch (0.75 s per GiB
/// here). The receiver checks the digest on disk before it puts the file in place.
public struct ManifestEntry: Sendable, Hashable {
    /// The relative destination path under the batch directory.
    public let path: ManifestPath
    /// The file size in bytes.
    public let size: UInt64

    public init(path: ManifestPath, size: UInt64) {
        self.path = path
        self.size = size
    }

    /// Bytes this entry takes in a manifest message.
    var encodedSize: Int { 2 + path.string.utf8.count + 8 }
}

/// The limits a receiver holds a manifest to, so that a hostile sender cannot make it spend
/// unbounded memory or promise unbounded disk. The defaults suit a 50 GB scan folder.
public struct ManifestLimits: Sendable, Equatable {
    /// Most files in one batch.
    public var maxEntries: Int
    /// Most bytes in one batch, all files together.
    public var maxTotalBytes: UInt64

    public init(maxEntries: Int = 100_000, maxTotalBytes: UInt64 = 1 << 44) {
        self.maxEntries = maxEntries
        self.maxTotalBytes = maxTotalBytes
    }

    public static let standard = ManifestLimits()
}

/// What a sender promises to send: a batch id and its files, validated as a whole.
///
/// A valid manifest has a batch id of 1–64 characters from `A–Z a–z 0–9 _ -`, at most
/// `limits.maxEntries` entries whose sizes add up to at most `limits.maxTotalBytes`, no path
/// twice, and no path that is also a directory of another path (`a` and `a/b`): both sides
/// can rely on every entry landing in a distinct file.
public struct Manifest: Sendable, Equatable {
    public let batchID: String
    public let entries: [ManifestEntry]
    /// The sum of the entries' sizes.
    public let totalBytes: UInt64

    /// Validates and builds a manifest; throws `TransferError.invalidManifest` saying which rule it breaks.
    public init(batchID: String, entries: [ManifestEntry], limits: ManifestLimits = .standard) throws {
        try Self.checkBatchID(batchID)
        guard entries.count <= limits.maxEntries else {
            throw TransferError.invalidManifest("\(entries.count) files, more than the limit of \(limits.maxEntries)")
        }
        var total: UInt64 = 0
        for entry in entries {
            let (sum, overflow) = total.addingReportingOverflow(entry.size)
            guard !overflow, sum <= limits.maxTotalBytes else {
                throw TransferError.invalidManifest("the files add up to more than the limit of \(limits.maxTotalBytes) bytes")
            }
            total = sum
        }
        var files = Set<String>()
        for entry in entries where !files.insert(entry.path.string).inserted {
            throw TransferError.invalidManifest("\(entry.path) is listed twice")
        }
        for entry in entries {
            var parent = Substring(entry.path.string)
            while let slash = parent.lastIndex(of: "/") {
                parent = parent[..<slash]
                if files.contains(String(parent)) { throw TransferError.invalidManifest("\(parent) is both a file and the directory of \(entry.path)") }
            }
        }
        self.batchID = batchID
        self.entries = entries
        self.totalBytes = total
    }

    static func checkBatchID(_ id: String) throws {
        let bytes = Array(id.utf8)
        let allowed = bytes.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F || $0 == 0x2D }
        guard (1...64).contains(bytes.count), allowed else {
            throw TransferError.invalidManifest("batch id \(id.debugDescription) must be 1 to 64 of A-Z a-z 0-9 _ -")
        }
    }

    /// The manifest cut into parts that each encode in at most `maxPartBytes` bytes (one frame
    /// each). An empty manifest is one part with no entries.
    public func parts(maxPartBytes: Int = FrameLimits.maxPlaintextBytes - 64) -> [ManifestPart] {
        var parts: [ManifestPart] = []
        var start = 0
        repeat {
            var size = ManifestPart.headerBytes(batchID: batchID)
            var end = start
            while end < entries.count, size + entries[end].encodedSize <= maxPartBytes || end == start {
                size += entries[end].encodedSize
                end += 1
            }
            parts.append(ManifestPart(batchID: batchID, entryCount: UInt32(entries.count), totalBytes: totalBytes,
                                      firstIndex: UInt32(start), entries: Array(entries[start..<end])))
            start = end
        } while start < entries.count
        return parts
    }
}

/// A run of consecutive manifest entries, as one `manifest` message carries them, with the
/// whole manifest's batch id, entry count and byte total repeated in each part.
public struct ManifestPart: Sendable, Equatable {
    public let batchID: String
    public let entryCount: UInt32
    public let totalBytes: UInt64
    public let firstIndex: UInt32
    public let entries: [ManifestEntry]

    public init(batchID: String, entryCount: UInt32, totalBytes: UInt64, firstIndex: UInt32, entries: [ManifestEntry]) {
        self.batchID = batchID
        self.entryCount = entryCount
        self.totalBytes = totalBytes
        self.firstIndex = firstIndex
        self.entries = entries
    }

    static func headerBytes(batchID: String) -> Int { 1 + 2 + batchID.utf8.count + 4 + 8 + 4 + 4 }
}

/// Puts a manifest back together from its parts, in order, checking that they agree.
public struct ManifestAssembler: Sendable {
    public let limits: ManifestLimits
    private var first: ManifestPart?
    private var entries: [ManifestEntry] = []

    public init(limits: ManifestLimits = .standard) { self.limits = limits }

    /// Adds the next part; returns the validated manifest once the last part is in, nil while
    /// more are expected. Throws `TransferError.invalidManifest` when a part contradicts the
    /// previous ones, skips or repeats entries, or the result breaks the manifest rules.
    public mutating func add(_ part: ManifestPart) throws -> Manifest? {
        if let first {
            guard part.batchID == first.batchID, part.entryCount == first.entryCount, part.totalBytes == first.totalBytes else {
                throw TransferError.invalidManifest("manifest parts disagree on the batch")
            }
        } else {
            guard Int(part.entryCount) <= limits.maxEntries else {
                throw TransferError.invalidManifest("\(part.entryCount) files, more than the limit of \(limits.maxEntries)")
            }
            first = part
        }
        guard Int(part.firstIndex) == entries.count else {
            throw TransferError.invalidManifest("manifest part starts at entry \(part.firstIndex), expected \(entries.count)")
        }
        guard entries.count + part.entries.count <= Int(part.entryCount), !part.entries.isEmpty || part.entryCount == 0 else {
            throw TransferError.invalidManifest("manifest parts hold more or fewer entries than the \(part.entryCount) announced")
        }
        entries += part.entries
        guard entries.count == Int(part.entryCount) else { return nil }
        let manifest = try Manifest(batchID: part.batchID, entries: entries, limits: limits)
        guard manifest.totalBytes == part.totalBytes else {
            throw TransferError.invalidManifest("the files add up to \(manifest.totalBytes) bytes, not the \(part.totalBytes) announced")
        }
        return manifest
    }
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
