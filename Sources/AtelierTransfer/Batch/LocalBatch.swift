import AtelierRecords
import Crypto
import Foundation

/// The files a sender offers: the manifest, and where each entry's bytes are on this machine.
///
/// Making one reads no file: the manifest holds names and sizes only (protocol version 2), and
/// `BatchSender` hashes each file as it sends it.
public struct LocalBatch: Sendable {
    /// One file to send: where it is, and the name it gets on the receiver (relative, `/`).
    public struct Item: Sendable {
        public let localPath: String
        public let name: String
        /// Its sha256 when already known, so that a file the receiver already has need not be
        /// read to say so: an image record's id, or atl-send's cache of earlier sends.
        public let sha256Hex: String?
        /// True when `sha256Hex` is only a hint (atl-send's cache): if the file turns out to
        /// hash otherwise, the hash found counts. False for a record's id, which the file must
        /// still match (`TransferError.notAsRecorded` otherwise).
        public let sha256IsHint: Bool

        public init(localPath: String, name: String, sha256Hex: String? = nil, sha256IsHint: Bool = false) {
            self.localPath = localPath
            self.name = name
            self.sha256Hex = sha256Hex
            self.sha256IsHint = sha256IsHint
        }
    }

    public let manifest: Manifest
    /// `localPaths[i]` holds the bytes of `manifest.entries[i]`.
    public let localPaths: [String]
    /// The sha256 of each entry known without reading it (see `Item.sha256Hex`), or nil.
    public let knownDigests: [[UInt8]?]
    /// Entries whose known sha256 is a record's id: the sender checks the bytes it reads
    /// against it, so a file changed since it was recorded is caught on this side.
    public let recorded: Set<Int>

    /// Checks the names, notes the sizes, and names the batch: by `batchID`, or by a digest of
    /// every file's name, size, modification time, device and inode (`defaultBatchID`), so that
    /// running the same command again after an interruption lands in the same directory and
    /// resumes. Reads no file's bytes.
    public static func make(_ items: [Item], batchID: String? = nil) throws -> LocalBatch {
        var seen = Set<String>()
        var entries: [ManifestEntry] = []
        var stamps: [String] = []
        for item in items {
            let path = try ManifestPath(normalizing: item.name)
            guard seen.insert(path.string).inserted else { throw TransferError.duplicateName(path.string) }
            var info = stat()
            guard stat(item.localPath, &info) == 0 else { throw TransferError.cannotRead(path: item.localPath, reason: String(cString: strerror(errno))) }
            guard info.st_mode & S_IFMT == S_IFREG else { throw TransferError.notARegularFileToSend(path: item.localPath) }
            entries.append(ManifestEntry(path: path, size: UInt64(info.st_size)))
            stamps.append("\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\u{0}\(info.st_dev)\u{0}\(info.st_ino)")
        }
        let known = items.map { $0.sha256Hex.flatMap(hexBytes) }
        let recorded = Set(items.indices.filter { known[$0] != nil && !items[$0].sha256IsHint })
        return LocalBatch(manifest: try Manifest(batchID: batchID ?? defaultBatchID(entries, stamps: stamps), entries: entries),
                          localPaths: items.map(\.localPath), knownDigests: known, recorded: recorded)
    }

    /// `b_` and 26 hex digits of the sha256 of every entry's path and size and its file's
    /// `stamp` (modification time, device, inode). The content is not part of it (that would
    /// mean reading every file first): a rerun on the same, untouched files finds the same
    /// batch; a file touched since makes another batch, and one whose bytes changed under the
    /// same stamp is caught by the digests the receiver offers (`ResumeState`).
    static func defaultBatchID(_ entries: [ManifestEntry], stamps: [String]) -> String {
        var hasher = SHA256()
        for (entry, stamp) in zip(entries, stamps) {
            hasher.update(data: Array("\(entry.path.string)\u{0}\(entry.size)\u{0}\(stamp)\n".utf8))
        }
        return "b_" + hasher.finalize().hex.prefix(26)
    }

    /// The sha256 of `path`, read whole (for a file the receiver has and whose hash is not known).
    static func digest(of path: String) throws -> [UInt8] {
        let fd = try TransferError.opening(path).fd
        defer { close(fd) }
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw TransferError.cannotRead(path: path, reason: String(cString: strerror(errno))) }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
        return Array(hasher.finalize())
    }

    /// Feeds the first `bytes` bytes of `path` to `hasher`.
    static func hashPrefix(of path: String, bytes: UInt64, into hasher: inout SHA256) throws {
        let reader = ChunkReader(chunkBytes: 1 << 20)
        try reader.open(path, expectedSize: bytes, from: 0, allowLonger: true)
        while let chunk = try reader.next() { hasher.update(bufferPointer: chunk.bytes) }
    }

    static func hexBytes(_ hex: String) -> [UInt8]? {
        [UInt8](sha256Hex: hex.hasPrefix("sha256:") ? hex.dropFirst(7) : Substring(hex))
    }
}

extension TransferError {
    /// Opens `path` for reading without blocking on a FIFO or device (`RegularFile`).
    static func opening(_ path: String) throws(TransferError) -> (fd: Int32, info: stat) {
        do throws(RecordsError) {
            return try RegularFile.open(path)
        } catch {
            switch error {
            case .notARegularFile: throw .notARegularFileToSend(path: path)
            case .cannotOpen(_, let code), .cannotRead(_, let code): throw .cannotRead(path: path, reason: String(cString: strerror(code)))
            default: throw .cannotRead(path: path, reason: error.reason)  // RegularFile throws only the cases above
            }
        }
    }
}
