import AtelierFormats
import AtelierRecords
import Foundation

/// Publishes a site to a directory whole or not at all, rewriting only what changed.
///
/// The new site is built in a sibling directory: a file whose bytes equal the old site's is
/// hard-linked from it (nothing rewritten), the others are written; everything is flushed to disk
/// (one syncfs), and the two directories are swapped in one step (renameat2 RENAME_EXCHANGE),
/// after which the old one is removed. A reader sees the old site or the new, never a mix, and
/// a failure leaves the old site as it was. A directory that holds something else than a site
/// Atelier wrote (no `.atelier-lookbook` marker) is never replaced.
public enum SiteWriter {
    public struct Summary: Sendable, Equatable {
        public var written = 0
        public var unchanged = 0
        public var removed = 0
    }

    public static let marker = ".atelier-lookbook"

    public static func publish(_ files: Lookbook.Files, to target: String) throws(LookbookError) -> Summary {
        let fm = FileManager.default
        let target = target.hasSuffix("/") && target.count > 1 ? String(target.dropLast()) : target
        var isDirectory: ObjCBool = false
        let exists = fm.fileExists(atPath: target, isDirectory: &isDirectory)
        if exists {
            guard isDirectory.boolValue else { throw .notASite(target, "it is a file") }
            let entries = (try? fm.contentsOfDirectory(atPath: target)) ?? []
            if !entries.isEmpty && !fm.fileExists(atPath: target + "/" + marker) {
                throw .notASite(target, "it holds files Atelier did not write")
            }
        }
        // Split by hand: Foundation's NSString path methods trap on a one-letter relative name.
        let slash = target.lastIndex(of: "/")
        let parent = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let stagingPrefix = "." + (slash.map { String(target[target.index(after: $0)...]) } ?? target) + ".new-"
        let staging = parent + "/" + stagingPrefix + "\(getpid())"
        AtomicFile.removeLeftovers(in: parent, prefix: stagingPrefix, ownToo: true)  // what a killed export left
        var summary = Summary()
        do {
            try fm.createDirectory(atPath: staging, withIntermediateDirectories: true)
            var all = files.contents
            all[marker] = Array("A lookbook written by atl-export --format html; it is replaced whole by the next export.\n".utf8)
            for (path, bytes) in all.sorted(by: { $0.key < $1.key }) {
                try place(path, staging: staging, old: exists ? target : nil, summary: &summary) { destination in
                    guard fm.createFile(atPath: destination, contents: Data(bytes)) else { throw LookbookError.writing(destination, "cannot create it") }
                } same: { old in
                    (try? Data(contentsOf: URL(fileURLWithPath: old))) == Data(bytes)
                }
            }
            for (path, source) in files.copies.sorted(by: { $0.key < $1.key }) {
                try place(path, staging: staging, old: exists ? target : nil, summary: &summary) { destination in
                    try fm.copyItem(atPath: source, toPath: destination)
                } same: { old in
                    fm.contentsEqual(atPath: old, andPath: source)
                }
            }
            if exists {
                let kept = Set(all.keys).union(files.copies.keys)
                summary.removed = (fm.enumerator(atPath: target)?.allObjects as? [String] ?? []).filter { path in
                    var dir: ObjCBool = false
                    return fm.fileExists(atPath: target + "/" + path, isDirectory: &dir) && !dir.boolValue && !kept.contains(path)
                }.count
            }
            // One flush for the whole site, before it becomes visible.
            let flushed = FileSystemFlush.flush(directory: staging)
            guard flushed == 0 else { throw LookbookError.writing(target, "cannot flush it to disk: \(String(cString: strerror(flushed)))") }
            if exists {
                try exchange(staging, target)
                try? fm.removeItem(atPath: staging)
            } else if rename(staging, target) != 0 {
                throw LookbookError.writing(target, String(cString: strerror(errno)))
            }
        } catch let error as LookbookError {
            try? fm.removeItem(atPath: staging)
            throw error
        } catch {
            try? fm.removeItem(atPath: staging)
            throw .writing(target, OutOfSpace.isOutOfSpace(error) ? "the disk is full" : "\(error)")
        }
        return summary
    }

    /// Puts one file in the staging directory: a hard link to the old site's copy when `same`
    /// says it is identical, else `write`.
    private static func place(_ path: String, staging: String, old: String?, summary: inout Summary,
                              write: (String) throws -> Void, same: (String) -> Bool) throws {
        let destination = staging + "/" + path
        try FileManager.default.createDirectory(atPath: String(destination[..<destination.lastIndex(of: "/")!]), withIntermediateDirectories: true)
        if let old, FileManager.default.fileExists(atPath: old + "/" + path), same(old + "/" + path), link(old + "/" + path, destination) == 0 {
            summary.unchanged += 1
            return
        }
        try write(destination)
        summary.written += 1
    }

    /// Swaps two directories in one step (Linux renameat2 with RENAME_EXCHANGE, looked up at run
    /// time since Glibc's Swift overlay does not declare it).
    private static func exchange(_ a: String, _ b: String) throws(LookbookError) {
        typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else {  // nil: RTLD_DEFAULT
            throw .writing(b, "this system cannot swap directories atomically (no renameat2)")
        }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        let exchangeFlag: UInt32 = 2  // RENAME_EXCHANGE
        guard renameat2(AT_FDCWD, a, AT_FDCWD, b, exchangeFlag) == 0 else {
            throw .writing(b, String(cString: strerror(errno)))
        }
    }
}

/// Why a lookbook could not be written.
public enum LookbookError: ExitCodedError, Equatable {
    case notASite(String, String)
    case writing(String, String)

    public var description: String {
        switch self {
        case let .notASite(path, why): return "will not replace \(path): \(why); choose another -o or remove it"
        case let .writing(path, why): return "cannot write the lookbook \(path): \(why)"
        }
    }

    public var sysexit: Sysexit { .cannotCreate }
}
