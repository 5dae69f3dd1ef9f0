import AtelierRecords
import Foundation

/// Atomic replacement of files: each new file is written beside its final name, flushed to disk,
/// then renamed over the old one, and the directory flushed, so a crash leaves either the old
/// file or the new, never half of one. The one way Atelier's tools put files in place.
public enum AtomicFile {
    /// The system call of a write that failed (`FormatError.cannotWrite`): making the file,
    /// writing or flushing its bytes, or renaming it into place.
    public enum Step: Sendable { case creating, writing, renaming }

    /// Writes every file beside its final path, flushed to disk, then renames them into place in
    /// the order given and flushes their directories. A failure before the renames leaves every
    /// final path as it was; the temporaries are removed either way.
    public static func write(_ files: [(path: String, bytes: [UInt8])]) throws(FormatError) {
        for file in files { removeStaleTemporaries(for: file.path) }
        var staged: [(temporary: String, path: String)] = []
        func cleanUp() { for file in staged { unlink(file.temporary) } }
        for file in files {
            let temporary = temporaryPath(for: file.path)
            do {
                try create(file.bytes, at: temporary, replacing: true)
            } catch {
                cleanUp()
                guard case .cannotWrite(_, let step, let code) = error else { throw error }
                throw .cannotWrite(path: file.path, step: step, code: code)
            }
            staged.append((temporary, file.path))
        }
        for (index, file) in staged.enumerated() where rename(file.temporary, file.path) != 0 {
            let code = errno
            for later in staged[index...] { unlink(later.temporary) }
            throw .cannotWrite(path: file.path, step: .renaming, code: code)
        }
        for directory in Set(files.map { directoryOf($0.path) }) { syncDirectory(directory) }
    }

    /// Writes `bytes` to a new file at `path` and flushes it to disk; an existing file is an
    /// error unless `replacing` (then it is truncated in place: not atomic, for temporaries).
    public static func create(_ bytes: [UInt8], at path: String, replacing: Bool = false) throws(FormatError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (replacing ? O_TRUNC : O_EXCL), 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, step: .creating, code: errno) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += n
            }
        }
        if failure == 0, fsync(fd) != 0 { failure = errno }
        if close(fd) != 0, failure == 0 { failure = errno }
        if failure != 0 {
            unlink(path)
            throw .cannotWrite(path: path, step: .writing, code: failure)
        }
    }

    /// Puts an already written `temporary` in place at `destination`.
    public static func commit(temporary: String, to destination: String) throws(FormatError) {
        let fd = open(temporary, O_RDONLY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(temporary, destination) == 0 else {
            let code = errno
            unlink(temporary)
            throw .cannotWrite(path: destination, step: .renaming, code: code)
        }
        syncDirectory(directoryOf(destination))
    }

    /// A file written in pieces (an export streamed record by record): the bytes go to a
    /// temporary beside `path` through `fd`; `commit` flushes it and renames it into place,
    /// `abandon` removes it. What a killed writer left beside `path` is removed first.
    public struct Stream: Sendable {
        public let fd: Int32
        public let path: String
        public let temporary: String

        public init(path: String) throws(FormatError) {
            removeStaleTemporaries(for: path)
            temporary = temporaryPath(for: path)
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw .cannotWrite(path: path, step: .creating, code: errno) }
            self.fd = fd
            self.path = path
        }

        /// Flushes the bytes written to disk and renames the file into place.
        public func commit() throws(FormatError) {
            guard fsync(fd) == 0 else {
                let code = errno
                abandon()
                throw .cannotWrite(path: path, step: .writing, code: code)
            }
            close(fd)
            try AtomicFile.commit(temporary: temporary, to: path)
        }

        /// Removes the temporary; `path` is left as it was.
        public func abandon() {
            close(fd)
            unlink(temporary)
        }
    }

    /// A hidden name beside `path`, unique to this process: `.NAME.tmp-PID`.
    public static func temporaryPath(for path: String) -> String {
        directoryOf(path) + "/" + temporaryPrefix(for: path) + "\(getpid())"
    }

    /// Removes what writers of `path` that died (killed, or the machine lost power) left beside
    /// it: every `.NAME.tmp-PID` file or directory whose process no longer exists. A temporary
    /// of a process still running (another export to the same file, this very process) is left
    /// alone, as is anything else in the directory. Best effort: what cannot be removed stays.
    public static func removeStaleTemporaries(for path: String) {
        removeLeftovers(in: directoryOf(path), prefix: temporaryPrefix(for: path))
    }

    /// Removes every file or directory in `directory` named `prefix` and a process id, whose
    /// process no longer runs: what killed runs left (staging directories, work directories).
    /// This process's own is left alone unless `ownToo`, for a caller that has not made its own
    /// yet, so that one of that name was left by an earlier process that had the same id.
    /// Best effort: what cannot be removed stays.
    public static func removeLeftovers(in directory: String, prefix: String, ownToo: Bool = false) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0 else { continue }
            guard pid == getpid() ? ownToo : !isRunning(pid) else { continue }
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
    }

    /// Whether the process that left a file named with `pid` may still be writing it: true
    /// unless the system says no such process exists (`kill(pid, 0)` failing with ESRCH; EPERM
    /// means it exists but is another user's). The one test of "a dead run's leftovers" that
    /// temporaries, staging directories and backup scratch space all use. A pid of 0 or below
    /// names no process (and `kill` would read it as a process group).
    public static func isRunning(_ pid: pid_t) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH)
    }

    private static func temporaryPrefix(for path: String) -> String {
        ".\((path as NSString).lastPathComponent).tmp-"
    }

    private static func directoryOf(_ path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    private static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
    }
}
