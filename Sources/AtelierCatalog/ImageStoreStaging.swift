import AtelierRecords
import AtelierFormats
import Foundation

/// The files one import adds to an `ImageStore`, written first into a staging directory and
/// then made durable and published together.
///
/// Making each file durable on its own costs a file and a directory `fsync` each, and on ext4
/// every one of them waits for a journal commit: for 160 photos (480 files) those waits were
/// most of the idle time of a two-core import. Here the workers only write; `publish` then
/// flushes the whole file system once (`syncfs`), renames every file into place, and flushes
/// once more for the renames, as git's batched fsync does. Each file's disk write is started
/// as soon as it is written (`Writeback`), so the first flush finds little left to write. The store's invariant still holds —
/// a file under its final name is complete — because nothing is renamed before the flush.
///
/// Once a file is on disk (waited for `filesInFlight` files later, when its write has long been
/// under way), its pages are dropped from the page cache: an import reads each photo once and
/// does not read its copy again, so keeping them would only push out what the machine had cached
/// (gigabytes, for a phone's library), as `dd oflag=nocache` avoids. It also lowered an import's
/// system time here (benchmarks/RESULTS.md).
///
/// A staging directory is `images/.staging-<pid>-<random>`; one left behind by a process that
/// died is removed by the next import.
public final class ImageStoreStaging: @unchecked Sendable {
    private let store: ImageStore
    private let directory: String
    private let lock = NSLock()
    private var staged: [(temporary: String, relative: String)] = []
    /// Staged files whose write was started but not yet waited for, oldest first, still open.
    private var inFlight: [(fd: Int32, length: Int64)] = []
    /// How many files may be written but not yet on disk before the oldest is waited for.
    static let filesInFlight = 8

    /// Makes the staging directory (and removes those of processes that are gone).
    public init(store: ImageStore) throws(CatalogError) {
        self.store = store
        let images = store.absolute("images")
        do { try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true) } catch {
            throw CatalogError.writing(images, error: error)
        }
        Self.removeAbandoned(in: images)
        directory = "\(images)/.staging-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        guard mkdir(directory, 0o755) == 0 else { throw CatalogError.writing(directory, code: errno) }
    }

    /// Writes `bytes` to be published at `relative`. Returns false, writing nothing, when the
    /// store already holds that file (its name is its content's hash).
    @discardableResult
    public func stage(_ bytes: UnsafeRawBufferPointer, at relative: String) throws(CatalogError) -> Bool {
        if store.exists(relative) { return false }
        let temporary = lock.withLock {
            staged.append((temporary: "\(directory)/\(staged.count)", relative: relative))
            return staged[staged.count - 1].temporary
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CatalogError.writing(store.absolute(relative), code: errno) }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let code = errno
                close(fd)
                throw CatalogError.writing(store.absolute(relative), code: code)
            }
            offset += n
        }
        Writeback.start(fd: fd, offset: 0, length: Int64(bytes.count))
        let oldest: (fd: Int32, length: Int64)? = lock.withLock {
            inFlight.append((fd, Int64(bytes.count)))
            return inFlight.count > Self.filesInFlight ? inFlight.removeFirst() : nil
        }
        if let oldest {
            Writeback.finish(fd: oldest.fd, offset: 0, length: oldest.length)
            Self.release(oldest.fd)
        }
        return true
    }

    /// Drops a written file's pages from the page cache (those still dirty stay) and closes it.
    private static func release(_ fd: Int32) {
        _ = posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_DONTNEED))
        close(fd)
    }

    /// The files still in flight, closed; with `drop`, their pages dropped first (once flushed).
    private func closeInFlight(drop: Bool) {
        for file in lock.withLock({ () -> [(fd: Int32, length: Int64)] in defer { inFlight = [] }; return inFlight }) {
            if drop { Self.release(file.fd) } else { close(file.fd) }
        }
    }

    deinit { closeInFlight(drop: false) }

    /// Flushes the staged files, renames them into the store and flushes again; returns the
    /// store paths it added, for the caller to remove should the catalog transaction fail.
    public func publish() throws(CatalogError) -> [String] {
        let files = lock.withLock { staged }
        do { try Self.flushFileSystem(of: directory) } catch {
            closeInFlight(drop: false)
            throw error
        }
        closeInFlight(drop: true)
        var published: [String] = []
        for file in files {
            let path = store.absolute(file.relative)
            let parent = (path as NSString).deletingLastPathComponent
            do { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) } catch {
                discard()
                throw CatalogError.writing(parent, error: error)
            }
            // The same photo given twice in one run is staged twice: the second copy is redundant.
            if access(path, F_OK) == 0 { unlink(file.temporary); continue }
            guard rename(file.temporary, path) == 0 else {
                let code = errno
                published.forEach(store.remove)
                discard()
                throw CatalogError.writing(path, code: code)
            }
            published.append(file.relative)
        }
        try Self.flushFileSystem(of: directory)
        rmdir(directory)
        return published
    }

    /// Removes whatever was staged, publishing nothing.
    public func discard() {
        closeInFlight(drop: false)
        for file in lock.withLock({ staged }) { unlink(file.temporary) }
        rmdir(directory)
    }

    /// One flush of the file system holding `path` (`FileSystemFlush`).
    private static func flushFileSystem(of path: String) throws(CatalogError) {
        let code = FileSystemFlush.flush(directory: path)
        guard code == 0 else { throw .cannotWrite(path: path, reason: "cannot flush to disk: \(String(cString: strerror(code)))") }
    }

    /// Deletes staging directories whose process no longer runs (an import that was killed).
    private static func removeAbandoned(in images: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: images) else { return }
        for entry in entries where entry.hasPrefix(".staging-") {
            let parts = entry.dropFirst(".staging-".count).split(separator: "-")
            guard let pid = parts.first.flatMap({ Int32($0) }), !AtomicFile.isRunning(pid) else { continue }
            try? FileManager.default.removeItem(atPath: "\(images)/\(entry)")
        }
    }
}
