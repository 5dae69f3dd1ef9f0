import Foundation

/// Starts the disk write of a file's dirty range early (`sync_file_range(2)`), so that the
/// `fsync` or `syncfs` that makes it durable finds most of it on disk already, and a large
/// file does not pile up gigabytes of dirty pages (a received file; an import's photos, as
/// git's batched fsync starts each object's writeback). Linux only; elsewhere, or if the call
/// is missing, it does nothing and the flush does all the work.
public enum Writeback {
    private typealias SyncFileRange = @convention(c) (Int32, Int64, Int64, UInt32) -> Int32
    /// Looked up because Glibc declares it only for _GNU_SOURCE, which Swift's Glibc does not see.
    private static let call: SyncFileRange? = dlsym(nil, "sync_file_range").map { unsafeBitCast($0, to: SyncFileRange.self) }
    private static let waitBefore: UInt32 = 1, write: UInt32 = 2, waitAfter: UInt32 = 4

    /// Queues `[offset, offset + length)` for writing, without waiting.
    public static func start(fd: Int32, offset: Int64, length: Int64) {
        _ = call?(fd, offset, length, write)
    }

    /// Waits until `[offset, offset + length)` is written (starting whatever is not yet).
    public static func finish(fd: Int32, offset: Int64, length: Int64) {
        _ = call?(fd, offset, length, waitBefore | write | waitAfter)
    }
}
