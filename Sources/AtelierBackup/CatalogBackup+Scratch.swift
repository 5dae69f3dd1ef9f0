import AtelierCatalog
import AtelierFormats
import AtelierRecords
import Foundation

/// A backup's or restore's scratch directory beside a given path (so renames out of it stay on
/// one file system): `.atelier-tmp-<pid>-<random>`, locked with `flock` on the directory for as
/// long as its run holds it.
///
/// A run killed outright (kill -9, a power cut) cannot remove its scratch directory, and a
/// restore's can be large (the archive's photos and a whole new catalog). So each new one first
/// removes those of runs that are gone: a directory whose lock is free and whose pid no process
/// has. A live run's is never touched: it holds the lock, and the pid check covers the moment
/// between making the directory and locking it (and a run in another pid namespace, whose pid
/// means nothing here, still holds its lock).
final class ScratchDirectory {
    static let prefix = ".atelier-tmp-"

    let path: String
    private var lock: Int32

    init(near target: String) throws {
        let parent = (target as NSString).deletingLastPathComponent
        let dir = parent.isEmpty ? "." : parent
        Self.removeAbandoned(in: dir)
        var made: String?
        for _ in 0..<8 {
            let candidate = "\(dir)/\(Self.prefix)\(getpid())-\(String(UInt32.random(in: 0 ... .max), radix: 16))"
            if mkdir(candidate, 0o700) == 0 { made = candidate; break }
            guard errno == EEXIST else { throw BackupError.cannotWrite(path: dir, code: errno) }
        }
        guard let made else { throw BackupError.cannotWrite(path: dir, code: EEXIST) }
        path = made
        lock = open(made, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if lock >= 0 { flock(lock, LOCK_EX | LOCK_NB) }
    }

    deinit { if lock >= 0 { close(lock) } }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
        if lock >= 0 { close(lock); lock = -1 }
    }

    /// Removes the scratch directories in `dir` of runs that are gone (see the type's comment).
    /// Those of Atelier before the pid was in the name (`.atelier-tmp-XXXXXX`, never locked)
    /// go once they are a day old.
    static func removeAbandoned(in dir: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for name in names where name.hasPrefix(prefix) {
            let path = dir + "/" + name
            let rest = name.dropFirst(prefix.count)
            let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }  // its run is alive
            if parts.count == 2, let pid = Int32(parts[0]), parts[0].allSatisfy(\.isNumber) {
                guard pid != getpid(), !AtomicFile.isRunning(pid) else { continue }
            } else {
                var info = stat()
                guard rest.count == 6, fstat(fd, &info) == 0, time(nil) - info.st_mtim.tv_sec > 86_400 else { continue }
            }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

extension CatalogBackup {
    /// ENOSPC or EDQUOT when `error` says the file system is full, wherever it came from: a
    /// file the backup code wrote, a directory it made, or SQLite (`SQLITE_FULL`, which the
    /// catalog reports as `.diskFull`).
    static func outOfSpaceCode(_ error: Error) -> Int32? {
        switch error {
        case BackupError.cannotWrite(_, let code): return OutOfSpace.isOutOfSpace(code) ? code : nil
        case CatalogError.diskFull: return ENOSPC
        default: return OutOfSpace.errno(in: error).flatMap { OutOfSpace.isOutOfSpace($0) ? $0 : nil }
        }
    }

    static func outOfSpaceWords(_ code: Int32) -> String {
        code == EDQUOT ? "disk quota exceeded" : "no space left on device"
    }

    /// An error's message without Swift's debug rendering (`SomeError(message: …)`).
    static func plainReason(_ error: Error) -> String {
        switch error {
        case let error as RecordsError: return error.description
        case let error as CatalogError: return error.description
        case let error as CustomStringConvertible where !(type(of: error as Any) is NSError.Type): return error.description
        default: return (error as NSError).localizedDescription
        }
    }

    /// One flush of the file system holding `path` (`FileSystemFlush`): one for all of a
    /// restore's store files rather than one per file.
    static func flushFileSystem(of path: String) throws {
        let code = FileSystemFlush.flush(directory: path)
        guard code == 0 else { throw BackupError.cannotWrite(path: path, code: code) }
    }
}
