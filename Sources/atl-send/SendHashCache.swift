import AtelierCLI
import AtelierFormats
import AtelierTransfer
import Foundation

/// The sha256 of files `atl-send` sent before, so that sending a large folder again (to resume
/// after an interruption) need not read the files the receiver already has to compare them
/// with the digests it offers (`ResumeState.present`).
///
/// Kept in `$XDG_CACHE_HOME/atelier/send-hashes.tsv` (`~/.cache/atelier/…`), one line per
/// file: device, inode, size, modification time (seconds, nanoseconds), change time (seconds,
/// nanoseconds) and sha256, tab-separated. A file counts as unchanged only if all of these
/// match. The change time is what catches a file rewritten and then given its old modification
/// time back (`touch -d`): nobody can set it, as git's index relies on. Lines of the older
/// six-column form, without it, are ignored (those files are hashed once more).
///
/// A hash taken from here is a hint (`LocalBatch.Item.sha256IsHint`): a file that is sent is
/// hashed as it is read and the hash found replaces the line; one that the receiver offers with
/// another digest is hashed before it is sent again. So a stale line costs a read, never a
/// failed or a wrong send. The file is rewritten whole through `AtomicFile`; failing to save
/// it is a warning (the next send hashes again), never an error.
struct SendHashCache {
    private struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private struct Stamp: Equatable {
        var size: Int64
        var modified: timespec
        var changed: timespec

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.size == b.size && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }
    }

    let path: String
    private var entries: [Key: (stamp: Stamp, sha256Hex: String)] = [:]

    /// The cache of this user (`$XDG_CACHE_HOME`, else `~/.cache`).
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) -> SendHashCache {
        let home = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        return SendHashCache(path: home + "/atelier/send-hashes.tsv")
    }

    init(path: String) {
        self.path = path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        for line in text.split(separator: "\n") {
            let f = line.split(separator: "\t")
            guard f.count == 8, let device = UInt64(f[0]), let inode = UInt64(f[1]), let size = Int64(f[2]),
                  let mSeconds = Int(f[3]), let mNanoseconds = Int(f[4]), let cSeconds = Int(f[5]), let cNanoseconds = Int(f[6]),
                  f[7].count == 64 else { continue }
            let stamp = Stamp(size: size, modified: timespec(tv_sec: mSeconds, tv_nsec: mNanoseconds),
                              changed: timespec(tv_sec: cSeconds, tv_nsec: cNanoseconds))
            entries[Key(device: device, inode: inode)] = (stamp, String(f[7]))
        }
    }

    /// The items, with the sha256 of every file the cache still vouches for filled in.
    func filling(_ items: [LocalBatch.Item]) -> [LocalBatch.Item] {
        items.map { item in
            guard item.sha256Hex == nil, let (key, stamp) = Self.identify(item.localPath),
                  let known = entries[key], known.stamp == stamp else { return item }
            return LocalBatch.Item(localPath: item.localPath, name: item.name, sha256Hex: known.sha256Hex, sha256IsHint: true)
        }
    }

    /// Notes the hashes learnt in a send (files as they are now). Returns whether anything changed.
    @discardableResult
    mutating func remember(_ learnt: [(path: String, sha256Hex: String)]) -> Bool {
        var changed = false
        for (path, sha256Hex) in learnt {
            guard let (key, stamp) = Self.identify(path), entries[key].map({ $0.stamp != stamp || $0.sha256Hex != sha256Hex }) ?? true else { continue }
            entries[key] = (stamp, sha256Hex)
            changed = true
        }
        return changed
    }

    /// Writes the cache whole, atomically (beside it, flushed, renamed). Throws
    /// `FormatError.cannotWrite`; callers warn and go on.
    func save() throws(FormatError) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var text = ""
        for (key, value) in entries {
            let s = value.stamp
            text += "\(key.device)\t\(key.inode)\t\(s.size)\t\(s.modified.tv_sec)\t\(s.modified.tv_nsec)\t\(s.changed.tv_sec)\t\(s.changed.tv_nsec)\t\(value.sha256Hex)\n"
        }
        try AtomicFile.write([(path, Array(text.utf8))])
    }

    /// Saves, turning a failure into a warning: a cache that cannot be saved only means hashing again.
    func saveOrWarn() {
        do throws(FormatError) {
            try save()
        } catch {
            Diagnostics.warn("cannot save the hash cache \(path): \(error.reason); the next send hashes these files again")
        }
    }

    private static func identify(_ path: String) -> (Key, Stamp)? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                Stamp(size: Int64(info.st_size), modified: info.st_mtim, changed: info.st_ctim))
    }
}
