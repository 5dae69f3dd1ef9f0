import AtelierRecords
import Crypto
import Foundation

/// Where a received batch lands: `<into>/<batch>/<relative path>`, each file written under a
/// temporary name in `<into>/<batch>/.atl-partial/`, verified against the sha256 its `fileEnd`
/// brings, then renamed into place. A partial file survives an interruption, so the next run
/// continues it (if the sender's bytes begin the same way).
///
/// Paths handed in are already sanitised (relative, no `..`); here no existing symlink, device
/// or FIFO on the way is ever written through, and nothing is replaced unless `overwrite`.
public struct BatchDirectory: Sendable {
    /// `<into>/<batch>`.
    public let root: String
    public let overwrite: Bool
    private var partialDirectory: String { root + "/.atl-partial" }

    /// What the receiver already holds of one file.
    public enum Holding: Sendable {
        /// A file of the entry's size is in place, with this sha256 (from the journal, or hashed
        /// now): the sender decides whether it is the same file.
        case present(sha256: [UInt8])
        /// The first `bytes` bytes, written in an earlier run from authenticated frames, and
        /// the hash state after them (`prefix` finalized is what the sender compares; the
        /// state itself continues the file without reading the prefix again).
        case partial(bytes: Int64, prefix: SHA256)
        case none
    }

    public init(into: String, batch: String, overwrite: Bool) {
        root = (into.hasSuffix("/") ? String(into.dropLast()) : into) + "/" + batch
        self.overwrite = overwrite
    }

    public func finalPath(_ relative: String) -> String { root + "/" + relative }

    /// The temporary file of the entry at `relative` of `size` bytes, named by a hash of both
    /// (flat, and the same in the next run). The manifest carries no content digest (version
    /// 2), so a batch named by hand (`--batch`) may bring other bytes under the same path in
    /// the next run: another size gets another partial file, and other bytes of the same size
    /// are caught by the prefix digest the sender compares (`ResumeState.have`), which starts
    /// the file over instead of continuing the old one's prefix.
    public func partialPath(relative: String, size: Int64) -> String {
        partialDirectory + "/" + SHA256.hash(data: Array("\(relative)\u{0}\(size)".utf8)).hex.prefix(32) + ".part"
    }

    /// What is already here of `relative` (`size` bytes): a file in place of that size is
    /// present with its sha256, taken from this batch's journal if the journal saw it verified
    /// and it has not been touched since (same size, inode and modification time), else by
    /// hashing it; a file of another size is an error unless `overwrite`, and then counts as
    /// absent. Otherwise a partial file is hashed for its prefix digest.
    public func holding(relative: String, size: Int64, journal: VerifiedJournal = VerifiedJournal()) throws(TransferError) -> Holding {
        let path = finalPath(relative)
        try checkNothingStrangeOnTheWay(to: relative)
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT != S_IFDIR else { throw .isADirectory(path: path) }
            guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFileInTheWay(path: path) }
            if Int64(info.st_size) == size {
                if let digest = journal.digest(of: relative, info: info) { return .present(sha256: digest) }
                if let digest = try? Self.digest(of: path, bytes: size) { return .present(sha256: Array(digest)) }
            }
            guard overwrite else { throw .wouldOverwrite(path: path) }
        }
        let partial = partialPath(relative: relative, size: size)
        guard lstat(partial, &info) == 0 else { return .none }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notARegularFileInTheWay(path: partial) }
        let have = min(Int64(info.st_size), size)
        guard have > 0 else { return .none }
        var prefix = SHA256()
        try Self.hash(path: partial, bytes: have, into: &prefix)
        return .partial(bytes: have, prefix: prefix)
    }

    /// Throws `.noSpace` unless the file system holding `root` has `bytes` free (and 1% spare).
    public func checkSpace(for bytes: Int64) throws(TransferError) {
        guard bytes > 0 else { return }
        var probe = root
        var info = statvfs()
        while statvfs(probe, &info) != 0 {
            let parent = (probe as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != probe else { return }
            probe = parent
        }
        let free = Int64(info.f_bavail) * Int64(info.f_frsize)
        let needed = bytes + bytes / 100
        if free < needed { throw .noSpace(path: probe, neededBytes: needed, freeBytes: free) }
    }

    /// Opens the temporary file of an entry for writing from `offset`: 0, or the length of the
    /// prefix `holding` hashed into `prefix` (so the prefix is not read again), cutting off
    /// anything past it.
    public func openPartial(relative: String, size: Int64, offset: Int64, prefix: SHA256 = SHA256()) throws(TransferError) -> PartialFile {
        try makeDirectories(partialDirectory)
        let path = partialPath(relative: relative, size: size)
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw .writing(path, code: errno) }
        let hasher = offset > 0 ? prefix : SHA256()
        guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
            let code = errno
            close(fd)
            throw .writing(path, code: code)
        }
        return PartialFile(fd: fd, path: path, written: offset, hasher: hasher)
    }

    /// Checks the finished temporary file against `sha256` (the sender's, from `fileEnd`),
    /// makes it durable and renames it to `relative`; notes it in the journal. A mismatch
    /// deletes it (the next run starts that file over): nothing unverified ever has the final
    /// name.
    public func publish(_ file: PartialFile, relative: String, sha256: [UInt8]) throws(TransferError) {
        let target = finalPath(relative)
        let (digest, path) = try file.finish()
        guard Array(digest) == sha256 else {
            unlink(path)
            throw .checksumMismatch(path: target)
        }
        let sha256Hex = digest.hex
        try checkNothingStrangeOnTheWay(to: relative)
        try makeDirectories((target as NSString).deletingLastPathComponent)
        guard rename(path, target) == 0 else { throw errno == EISDIR ? .isADirectory(path: target) : .writing(target, code: errno) }
        var info = stat()
        if lstat(target, &info) == 0 { VerifiedJournal.append(relative: relative, sha256Hex: sha256Hex, info: info, to: journalPath) }
    }

    /// Where the batch notes the files it verified, until the batch is complete.
    var journalPath: String { partialDirectory + "/verified" }

    /// The files this batch verified in earlier, interrupted runs.
    public func loadJournal() -> VerifiedJournal { VerifiedJournal(path: journalPath) }

    /// Flushes the batch's directories and removes the temporary directory. Every entry is in
    /// place by now, so a partial file still there held content that changed between runs.
    public func finishBatch(relativePaths: [String]) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: partialDirectory)) ?? [] where name.hasSuffix(".part") {
            unlink(partialDirectory + "/" + name)
        }
        unlink(journalPath)
        rmdir(partialDirectory)
        var directories = Set([root])
        for relative in relativePaths { directories.insert((finalPath(relative) as NSString).deletingLastPathComponent) }
        for directory in directories {
            let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 {
                fsync(fd)
                close(fd)
            }
        }
    }

    /// Refuses a symlink, device or FIFO anywhere between `root` and the file.
    private func checkNothingStrangeOnTheWay(to relative: String) throws(TransferError) {
        var path = root
        var info = stat()
        for component in [""] + relative.split(separator: "/").dropLast().map(String.init) {
            if !component.isEmpty { path += "/" + component }
            guard lstat(path, &info) == 0 else { return }
            guard info.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path: path) }
        }
    }

    private func makeDirectories(_ path: String) throws(TransferError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            if let code = OutOfSpace.errno(in: error), OutOfSpace.isOutOfSpace(code) { throw .writing(path, code: code) }
            throw .cannotWrite(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// The sha256 of the first `bytes` bytes of `path`.
    public static func digest(of path: String, bytes: Int64) throws(TransferError) -> SHA256.Digest {
        var hasher = SHA256()
        try hash(path: path, bytes: bytes, into: &hasher)
        return hasher.finalize()
    }

    static func hash(path: String, bytes: Int64, into hasher: inout SHA256) throws(TransferError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .writing(path, code: errno) }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var left = bytes
        while left > 0 {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, Int(min(Int64($0.count), left))) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw n == 0 ? .cannotWrite(path: path, reason: "shorter than expected") : .writing(path, code: errno) }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            left -= Int64(n)
        }
    }
}

extension Sequence<UInt8> {
    /// Lower-case hex, as records carry digests.
    var hex: String {
        var text = ""
        for byte in self {
            text.append(Character(Unicode.Scalar(Self.hexDigits[Int(byte >> 4)])))
            text.append(Character(Unicode.Scalar(Self.hexDigits[Int(byte & 15)])))
        }
        return text
    }

    private static var hexDigits: [UInt8] { Array("0123456789abcdef".utf8) }
}

extension Array<UInt8> {
    /// The bytes of 64 hex digits (upper or lower case), or nil.
    init?(sha256Hex text: some StringProtocol) {
        let digits = Array(text.utf8)
        guard digits.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: digit - 0x30
            case 0x61...0x66: digit - 0x61 + 10
            case 0x41...0x46: digit - 0x41 + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for i in stride(from: 0, to: 64, by: 2) {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self = bytes
    }
}

extension TransferError {
    /// `.diskFull` when `code` is ENOSPC or EDQUOT, else `.cannotWrite` with the system's reason.
    static func writing(_ path: String, code: Int32) -> TransferError {
        OutOfSpace.isOutOfSpace(code) ? .diskFull(path: path) : .cannotWrite(path: path, reason: String(cString: strerror(code)))
    }
}
