import Foundation

/// One flush of a whole file system: `syncfs(2)` on the one holding `directory`, falling back to
/// `sync(2)`. Glibc declares `syncfs` only for _GNU_SOURCE, which Swift's Glibc module does not
/// see, so it is looked up at run time.
public enum FileSystemFlush {
    /// 0, or the errno of the open or the flush that failed.
    public static func flush(directory: String) -> Int32 {
        typealias SyncFS = @convention(c) (Int32) -> Int32
        guard let symbol = dlsym(nil, "syncfs") else { sync(); return 0 }  // nil: RTLD_DEFAULT
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        return unsafeBitCast(symbol, to: SyncFS.self)(fd) == 0 ? 0 : errno
    }
}
