import Foundation

/// The files of a batch verified so far, noted as they land with the sha256 their `fileEnd`
/// brought, so that resuming a large batch does not read every finished file again to say
/// what it holds (`ResumeState.present`).
///
/// One line per file in `<batch>/.atl-partial/verified`: sha256, size, inode, modification
/// time (seconds and nanoseconds) and the relative path, tab-separated (a manifest path has
/// no control characters). A file still vouched for has the same size, inode and time; any
/// change sends it back to hashing. The journal is only a shortcut: lost or damaged, it costs
/// a re-hash, never a wrong answer about content the tool wrote itself. It goes when the batch
/// is complete.
public struct VerifiedJournal: Sendable {
    private struct Stamp: Equatable {
        var sha256Hex: String
        var size: Int64
        var inode: UInt64
        var seconds: Int
        var nanoseconds: Int
    }

    private var entries: [String: Stamp] = [:]

    /// An empty journal (trusts nothing).
    public init() {}

    /// Reads the journal at `path`; lines that do not parse are ignored.
    init(path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)
            guard fields.count == 6, let size = Int64(fields[1]), let inode = UInt64(fields[2]),
                  let seconds = Int(fields[3]), let nanoseconds = Int(fields[4]) else { continue }
            entries[String(fields[5])] = Stamp(sha256Hex: String(fields[0]), size: size, inode: inode, seconds: seconds, nanoseconds: nanoseconds)
        }
    }

    /// The sha256 `relative` was verified with (the one its `fileEnd` brought), if it was not
    /// touched since; nil sends it to hashing.
    func digest(of relative: String, info: stat) -> [UInt8]? {
        guard let stamp = entries[relative], stamp == Self.stamp(sha256Hex: stamp.sha256Hex, info: info) else { return nil }
        return [UInt8](sha256Hex: stamp.sha256Hex)
    }

    /// Notes a verified file (best effort: without the note, the next run re-hashes it).
    static func append(relative: String, sha256Hex: String, info: stat, to path: String) {
        let stamp = stamp(sha256Hex: sha256Hex, info: info)
        let line = "\(stamp.sha256Hex)\t\(stamp.size)\t\(stamp.inode)\t\(stamp.seconds)\t\(stamp.nanoseconds)\t\(relative)\n"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { return }
        defer { close(fd) }
        _ = line.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count - 1) }
    }

    private static func stamp(sha256Hex: String, info: stat) -> Stamp {
        Stamp(sha256Hex: sha256Hex, size: Int64(info.st_size), inode: UInt64(info.st_ino),
              seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }
}
