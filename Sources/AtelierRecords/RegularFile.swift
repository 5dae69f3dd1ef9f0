import Foundation

/// Opening a file that must be a regular file (a photo, a file to send, a mesh) without ever
/// blocking on something else named in its place.
///
/// `open(2)` of a FIFO for reading waits until a writer appears, which may be never; a device
/// such as `/dev/zero` reads forever. So the file is opened with `O_NONBLOCK` (which makes
/// `open` of a FIFO return at once), checked with `fstat` to be a regular file, and only then
/// switched back to blocking reads. Checking the descriptor, not the name, leaves no window
/// for the name to be swapped between the check and the read.
///
/// Record streams (NDJSON, CSV) are not opened this way: for them a FIFO (`<(cmd)`,
/// `/dev/stdin`) is a legitimate input.
public enum RegularFile {
    /// A blocking, read-only descriptor of `path`, which is a regular file (symlinks followed),
    /// and its `stat`. The caller closes it.
    public static func open(_ path: String) throws(RecordsError) -> (fd: Int32, info: stat) {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw .cannotOpen(path: path, code: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .cannotOpen(path: path, code: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notARegularFile(path: path)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, info)
    }

    /// Checks that `path` names a regular file that can be opened, without reading it.
    public static func check(_ path: String) throws(RecordsError) {
        close(try open(path).fd)
    }

    /// The whole content of the regular file at `path`.
    public static func read(_ path: String) throws(RecordsError) -> [UInt8] {
        let (fd, info) = try open(path)
        defer { close(fd) }
        return try read(fd, count: Int(info.st_size), path: path)
    }

    /// The whole content of the regular file at `path`, or nil, without reading it, when it is
    /// over `limit` bytes (a photo no one would take, or a device pretending to be one).
    public static func read(_ path: String, limit: Int) throws(RecordsError) -> [UInt8]? {
        let (fd, info) = try open(path)
        defer { close(fd) }
        guard info.st_size <= limit else { return nil }
        return try read(fd, count: Int(info.st_size), path: path)
    }

    /// Reads into memory that is not zeroed first (a photo's 1.5 MB cleared only to be
    /// overwritten cost as much as hashing it).
    private static func read(_ fd: Int32, count: Int, path: String) throws(RecordsError) -> [UInt8] {
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var offset = 0
            while offset < count {
                let n = Glibc.read(fd, buffer.baseAddress! + offset, count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { failure = n == 0 ? 0 : errno; break }
                offset += n
            }
            initialized = offset
        }
        if let failure { throw .cannotRead(path: path, code: failure) }
        return bytes
    }
}
