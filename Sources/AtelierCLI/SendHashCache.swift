import AtelierTransfer
import Foundation

/// The sha256 of files `atl-send` hashed before, so that sending a large folder again (to
/// resume after an interruption) does not read every file twice before the first byte moves.
///
/// Kept in `$XDG_CACHE_HOME/atelier/send-hashes.tsv` (`~/.cache/atelier/…`), one line per
/// file: device, inode, size, modification time (seconds, nanoseconds) and sha256, tab-
/// separated. A file counts as unchanged only if all of these match; a hash taken from here is
/// still checked as the file is sent (`LocalBatch.unverified`), so a stale line can fail a
/// send, never corrupt one. Best effort throughout: an unreadable or unwritable cache only
/// means hashing again.
struct SendHashCache {
    private struct Key: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private struct Stamp: Equatable {
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    let path: String
    private var entries: [Key: (stamp: Stamp, sha256Hex: String)] = [:]
    /// Beyond this many lines the file is rewritten with only the live entries.
    static let compactAfterLines = 200_000

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
            guard f.count == 6, let device = UInt64(f[0]), let inode = UInt64(f[1]), let size = Int64(f[2]),
                  let seconds = Int(f[3]), let nanoseconds = Int(f[4]), f[5].count == 64 else { continue }
            entries[Key(device: device, inode: inode)] = (Stamp(size: size, seconds: seconds, nanoseconds: nanoseconds), String(f[5]))
        }
    }

    /// The items, with the sha256 of every file the cache still vouches for filled in.
    func filling(_ items: [LocalBatch.Item]) -> [LocalBatch.Item] {
        items.map { item in
            guard item.sha256Hex == nil, let (key, stamp) = Self.identify(item.localPath),
                  let known = entries[key], known.stamp == stamp else { return item }
            return LocalBatch.Item(localPath: item.localPath, name: item.name, sha256Hex: known.sha256Hex)
        }
    }

    /// Notes the hashes of `batch` the cache did not have.
    mutating func remember(_ batch: LocalBatch) {
        var lines = ""
        for (index, entry) in batch.manifest.entries.enumerated() where !batch.unverified.contains(index) {
            guard let (key, stamp) = Self.identify(batch.localPaths[index]), stamp.size == Int64(entry.size) else { continue }
            entries[key] = (stamp, entry.sha256Hex)
            lines += "\(key.device)\t\(key.inode)\t\(stamp.size)\t\(stamp.seconds)\t\(stamp.nanoseconds)\t\(entry.sha256Hex)\n"
        }
        guard !lines.isEmpty else { return }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let existing = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if existing / 100 > Self.compactAfterLines {
            // Rewritten whole (through a temporary file), keeping one line per file.
            let all = entries.map { "\($0.key.device)\t\($0.key.inode)\t\($0.value.stamp.size)\t\($0.value.stamp.seconds)\t\($0.value.stamp.nanoseconds)\t\($0.value.sha256Hex)\n" }.joined()
            let temporary = path + ".tmp-\(getpid())"
            if FileManager.default.createFile(atPath: temporary, contents: Data(all.utf8)) { rename(temporary, path) }
            return
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = lines.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count - 1) }
    }

    private static func identify(_ path: String) -> (Key, Stamp)? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return (Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)),
                Stamp(size: Int64(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec)))
    }
}
