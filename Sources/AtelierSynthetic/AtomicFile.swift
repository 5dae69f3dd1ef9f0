import Foundation

/// Writes files the way DESIGN.md asks: into a temporary file in the same directory, flushed to
/// disk, then renamed over the target, so a reader never sees half a file.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(SyntheticError) {
        let directory = (path as NSString).deletingLastPathComponent
        let temporary = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: String(cString: strerror(errno))) }
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
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw .cannotWrite(path: path, reason: String(cString: strerror(failure)))
        }
    }

    static func write(_ text: String, to path: String) throws(SyntheticError) {
        try write(Array(text.utf8), to: path)
    }
}
