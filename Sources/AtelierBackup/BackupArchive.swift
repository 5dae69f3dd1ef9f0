import AtelierFormats
import AtelierRecords
import Crypto
import Foundation
import ZIPFoundation

/// The `.atelier` backup container: a zip holding `metadata.json` (format, versions, time,
/// record counts, a sha256 per member) and member files. It knows nothing of tables: the
/// catalog decides what goes in; this type makes the container trustworthy (checksums,
/// version checks, safe member names, bounded sizes) in both directions. The reading side is
/// in BackupArchive+Reader.swift; docs/backup.md lists every check.
public enum BackupArchive {
    public static let formatName = "atelier-backup"
    public static let formatVersion: Int64 = 1

    /// `sha256:<64 lowercase hex digits>`, the form of every checksum in `metadata.json`.
    public static func checksum(_ digest: SHA256.Digest) -> String {
        "sha256:" + digest.map { String(format: "%02x", $0) }.joined()
    }

    /// Builds an archive at a temporary path and moves it into place only when complete.
    ///
    /// The temporary is `.NAME.tmp-PID` beside the destination, locked (`flock`) while this
    /// writer lives; one left by a writer that died (kill -9) is removed by the next writer to
    /// the same destination, once its lock is free and its process gone.
    public final class Writer {
        private let archive: Archive
        private let temporaryURL: URL
        private let destination: URL
        private var checksums = JSONObject()
        private var lock: Int32 = -1

        public init(destination: String) throws {
            self.destination = URL(fileURLWithPath: destination)
            let dir = self.destination.deletingLastPathComponent()
            let prefix = ".\(self.destination.lastPathComponent).tmp-"
            Self.removeAbandoned(prefix: prefix, in: dir.path)
            temporaryURL = dir.appendingPathComponent(prefix + "\(getpid())")
            unlink(temporaryURL.path)  // a dead process's, whose pid this one now has
            do {
                archive = try Archive(url: temporaryURL, accessMode: .create)
            } catch {
                let code = errno
                throw BackupError.cannotWrite(path: destination, code: code == 0 ? EIO : code)
            }
            lock = open(temporaryURL.path, O_RDONLY | O_CLOEXEC)
            if lock >= 0 { flock(lock, LOCK_EX | LOCK_NB) }
        }

        deinit { if lock >= 0 { close(lock) } }

        /// Adds a file from disk under `name`, recording its sha256.
        public func addFile(_ name: String, from path: String, compress: Bool = true) throws {
            let url = URL(fileURLWithPath: path)
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            var hasher = SHA256()
            try writing {
                try archive.addEntry(with: name, type: .file, uncompressedSize: size,
                                     compressionMethod: compress ? .deflate : .none) { position, chunk in
                    try handle.seek(toOffset: UInt64(position))
                    let data = try handle.read(upToCount: chunk) ?? Data()
                    hasher.update(data: data)
                    return data
                }
            }
            checksums[name] = .string(BackupArchive.checksum(hasher.finalize()))
        }

        /// Writes `metadata.json` (with the checksums gathered), checks that the archive reads
        /// back whole, flushes it and moves it into place.
        public func finish(metadata: JSONObject) throws {
            var meta = metadata
            meta["format"] = .string(BackupArchive.formatName)
            meta["formatVersion"] = .int(BackupArchive.formatVersion)
            meta["checksums"] = .object(checksums)
            var bytes: [UInt8] = []
            JSONWriter.appendPretty(.object(meta), to: &bytes)
            bytes.append(0x0A)
            let data = Data(bytes)
            try writing {
                try archive.addEntry(with: "metadata.json", type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                    data.subdata(in: Int(position)..<Int(position) + size)
                }
            }
            // The zip library writes through stdio and ignores a failed flush: a full disk can
            // lose the archive's tail (its central directory) without an error. So the archive
            // is flushed here and read back before it may replace anything.
            if lock >= 0 && fsync(lock) != 0 { throw BackupError.cannotWrite(path: destination.path, code: errno) }
            var written: Set<String>?
            do { written = Set(try Archive(url: temporaryURL, accessMode: .read, pathEncoding: nil).map(\.path)) } catch { written = nil }
            guard written == Set(checksums.keys).union(["metadata.json"]) else {
                throw Self.noSpaceLeft(on: destination.path) ?? BackupError.cannotWrite(path: destination.path, code: EIO)
            }
            try AtomicFile.commit(temporary: temporaryURL.path, to: destination.path)
            if lock >= 0 { close(lock); lock = -1 }
        }

        public func abandon() {
            unlink(temporaryURL.path)
            if lock >= 0 { close(lock); lock = -1 }
        }

        /// Runs a write into the archive; a failure the file system caused becomes a `BackupError.cannotWrite`
        /// (the zip library's own errors say only "unwritable").
        private func writing(_ body: () throws -> Void) throws {
            do { try body() } catch {
                let code = errno
                if code == ENOSPC || code == EDQUOT { throw BackupError.cannotWrite(path: destination.path, code: code) }
                if let full = Self.noSpaceLeft(on: destination.path) { throw full }
                throw error
            }
        }

        /// A `BackupError.cannotWrite` for ENOSPC when the file system holding `path` is all but
        /// full: under 1 MiB free after a write failed. The zip library writes in chunks of
        /// 16 KiB and more, so a chunk that did not fit leaves a few blocks free, and by the time
        /// its error arrives errno no longer says why.
        private static func noSpaceLeft(on path: String) -> BackupError? {
            var fs = statvfs()
            let dir = (path as NSString).deletingLastPathComponent
            guard statvfs(dir.isEmpty ? "." : dir, &fs) == 0, fs.f_blocks > 0,
                  UInt64(fs.f_bavail) * UInt64(fs.f_frsize) < 1 << 20 else { return nil }
            return BackupError.cannotWrite(path: path, code: ENOSPC)
        }

        /// Deletes the `PREFIX<pid>` temporaries of writers that died: their lock is free and no
        /// process has their pid. A live writer's is never touched (it holds its lock, and it runs).
        static func removeAbandoned(prefix: String, in dir: String) {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
            for name in names where name.hasPrefix(prefix) {
                let digits = name.dropFirst(prefix.count)
                guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let pid = Int32(digits),
                      pid != getpid(), !AtomicFile.isRunning(pid) else { continue }
                let path = dir + "/" + name
                let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
                guard fd >= 0 else { continue }
                defer { close(fd) }
                var info = stat()
                guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
                unlink(path)
            }
        }
    }

    /// `mkdir -p`, reporting the errno of a failure (a full disk is not a damaged archive).
    public static func makeDirectories(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = parentDirectory(of: path)
        if !parent.isEmpty && parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o755) != 0 else { return }
        let code = errno
        guard code == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw BackupError.cannotWrite(path: path, code: code == EEXIST ? ENOTDIR : code)
        }
    }

    /// `path` up to its last `/`, found on UTF-8 bytes: a member name may begin with a
    /// combining mark, which joins the `/` before it into one Character, and NSString's path
    /// functions then miss that `/` (fuzz/BackupArchiveFuzz.swift found it).
    public static func parentDirectory(of path: String) -> String {
        let bytes = path.utf8
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == bytes.startIndex ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
    }
}
