import AtelierRecords
import Crypto
import Dispatch
import Foundation

/// The files a sender offers: the manifest, and where each entry's bytes are on this machine.
public struct LocalBatch: Sendable {
    /// One file to send: where it is, and the name it gets on the receiver (relative, `/`).
    public struct Item: Sendable {
        public let localPath: String
        public let name: String
        /// Its sha256 when already known (an `image` record's id), so it need not be read twice.
        public let sha256Hex: String?

        public init(localPath: String, name: String, sha256Hex: String? = nil) {
            self.localPath = localPath
            self.name = name
            self.sha256Hex = sha256Hex
        }
    }

    public let manifest: Manifest
    /// `localPaths[i]` holds the bytes of `manifest.entries[i]`.
    public let localPaths: [String]
    /// Entries whose sha256 was given, not computed (an image record's id): the sender hashes
    /// them as it reads them, so a file changed since it was recorded is caught on this side.
    public let unverified: Set<Int>

    /// Hashes what needs hashing (on every core), checks the names, and names the batch: by
    /// `batchID`, or by a digest of the manifest, so that running the same command again
    /// after an interruption lands in the same directory and resumes.
    public static func make(_ items: [Item], batchID: String? = nil, onHashed: @Sendable (UInt64) -> Void = { _ in }) throws -> LocalBatch {
        var seen = Set<String>()
        var paths: [ManifestPath] = []
        for item in items {
            let path = try ManifestPath(normalizing: item.name)
            guard seen.insert(path.string).inserted else { throw TransferError.duplicateName(path.string) }
            paths.append(path)
        }
        let sizes = try items.map { item -> UInt64 in
            var info = stat()
            guard stat(item.localPath, &info) == 0 else { throw TransferError.cannotRead(path: item.localPath, reason: String(cString: strerror(errno))) }
            guard info.st_mode & S_IFMT == S_IFREG else { throw TransferError.notARegularFileToSend(path: item.localPath) }
            return UInt64(info.st_size)
        }
        let digests = try hashAll(items, onHashed: onHashed)
        let entries = try items.indices.map { try ManifestEntry(path: paths[$0], size: sizes[$0], sha256: digests[$0]) }
        let id = batchID ?? defaultBatchID(entries)
        let given = Set(items.indices.filter { items[$0].sha256Hex.flatMap(hexBytes) != nil })
        return LocalBatch(manifest: try Manifest(batchID: id, entries: entries), localPaths: items.map(\.localPath), unverified: given)
    }

    /// `b_` and 26 hex digits of the sha256 of every entry's path, size and sha256.
    static func defaultBatchID(_ entries: [ManifestEntry]) -> String {
        var hasher = SHA256()
        for entry in entries {
            hasher.update(data: Array("\(entry.path.string)\u{0}\(entry.size)\u{0}\(entry.sha256Hex)\n".utf8))
        }
        return "b_" + hasher.finalize().hex.prefix(26)
    }

    private static func hashAll(_ items: [Item], onHashed: @Sendable (UInt64) -> Void) throws -> [[UInt8]] {
        let results = ResultSlots(count: items.count)
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, max(1, items.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: items.count, by: workers) {
                if let known = items[index].sha256Hex, let bytes = hexBytes(known) {
                    results.set(index, .success(bytes))
                    continue
                }
                results.set(index, Result { try digest(of: items[index].localPath) { onHashed(results.add($0)) } })
            }
        }
        return try results.values.map { try $0!.get() }
    }

    static func digest(of path: String, progress: (UInt64) -> Void) throws -> [UInt8] {
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
            progress(UInt64(n))
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
        let text = hex.hasPrefix("sha256:") ? Substring(hex.dropFirst(7)) : Substring(hex)
        guard text.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index ..< next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
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

/// Per-item results and a byte counter, filled by the hashing workers.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [Result<[UInt8], any Error>?]
    private var total: UInt64 = 0

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<[UInt8], any Error>) { lock.withLock { values[index] = result } }

    /// Adds `bytes` to the total hashed and returns the new total.
    func add(_ bytes: UInt64) -> UInt64 { lock.withLock { total += bytes; return total } }
}
