import Foundation

/// Reads one file after another in fixed-size chunks into one reused buffer.
final class ChunkReader {
    private let buffer: UnsafeMutableRawBufferPointer
    private var fd: Int32 = -1
    private var path = ""
    private var offset: UInt64 = 0
    private var end: UInt64 = 0

    init(chunkBytes: Int) {
        buffer = .allocate(byteCount: chunkBytes, alignment: 64)
    }

    deinit {
        closeFile()
        buffer.deallocate()
    }

    /// Starts on `path` at `offset` and reads to `expectedSize`; the file must still be that
    /// long (or at least that long, with `allowLonger`).
    func open(_ path: String, expectedSize: UInt64, from offset: UInt64, allowLonger: Bool = false) throws {
        closeFile()
        let info: stat
        (fd, info) = try TransferError.opening(path)
        guard UInt64(info.st_size) == expectedSize || (allowLonger && UInt64(info.st_size) > expectedSize) else {
            throw TransferError.changed(path: path)
        }
        _ = posix_fadvise(fd, off_t(offset), 0, Int32(POSIX_FADV_SEQUENTIAL))
        self.path = path
        self.offset = offset
        end = expectedSize
    }

    /// The next chunk and its offset in the file, or nil at the end. The bytes stay valid
    /// until the next call.
    func next() throws -> (offset: UInt64, bytes: UnsafeRawBufferPointer)? {
        try next(into: buffer)
    }

    /// The next chunk (at most `target.count` bytes), read into `target` (a frame buffer, so
    /// that the bytes need no copy), and its offset in the file; nil at the end.
    func next(into target: UnsafeMutableRawBufferPointer) throws -> (offset: UInt64, bytes: UnsafeRawBufferPointer)? {
        guard offset < end else {
            closeFile()
            return nil
        }
        let want = Int(min(UInt64(target.count), end - offset))
        var have = 0
        while have < want {
            let n = pread(fd, target.baseAddress! + have, want - have, off_t(offset) + off_t(have))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw n == 0 ? TransferError.changed(path: path) : TransferError.cannotRead(path: path, reason: String(cString: strerror(errno))) }
            have += n
        }
        defer { offset += UInt64(want) }
        return (offset, UnsafeRawBufferPointer(rebasing: target[..<want]))
    }

    private func closeFile() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
