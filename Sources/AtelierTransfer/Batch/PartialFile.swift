import AtelierRecords
import Crypto
import Foundation

/// A file of the batch being received: appended to as its chunks arrive, hashed on the way, so
/// checking it at the end costs no second read.
public final class PartialFile: @unchecked Sendable {
    private let fd: Int32
    let path: String
    /// Bytes in the file so far (the verified prefix of a resumed file included).
    public private(set) var written: Int64
    private var hasher: SHA256
    /// Bytes handed to the disk so far (see `Writeback`).
    private var queued: Int64
    /// Writeback goes in steps of this many bytes; the step before last is waited for, so at
    /// most two steps of the file are dirty in memory at a time.
    static let writebackStep: Int64 = 16 << 20

    init(fd: Int32, path: String, written: Int64, hasher: SHA256) {
        self.fd = fd
        self.path = path
        self.written = written
        self.hasher = hasher
        self.queued = written
    }

    deinit { close(fd) }

    /// Appends `bytes`.
    public func append(_ bytes: UnsafeRawBufferPointer) throws(TransferError) {
        hasher.update(bufferPointer: bytes)
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .writing(path, code: n == 0 ? EIO : errno) }
            offset += n
        }
        written += Int64(bytes.count)
        if written - queued >= Self.writebackStep {
            Writeback.start(fd: fd, offset: queued, length: written - queued)
            if queued >= Self.writebackStep { Writeback.finish(fd: fd, offset: queued - Self.writebackStep, length: Self.writebackStep) }
            queued = written
        }
    }

    /// Makes the bytes durable and returns the whole file's sha256 and its path.
    func finish() throws(TransferError) -> (digest: SHA256.Digest, path: String) {
        guard fsync(fd) == 0 else { throw .writing(path, code: errno) }
        return (hasher.finalize(), path)
    }
}
