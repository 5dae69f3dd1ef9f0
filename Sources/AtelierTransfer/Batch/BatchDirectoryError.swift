import AtelierRecords
import Foundation

/// What stops a batch from landing on the receiver's disk.
public enum BatchDirectoryError: Error, Equatable, CustomStringConvertible {
    /// A file or directory could not be made or written (permissions, a full disk).
    case cannotWrite(path: String, reason: String)
    /// A file of the batch is already there with other content, and `--overwrite` was not given.
    case wouldOverwrite(path: String)
    /// Something other than a regular file or a directory is in the way (a symlink, a device,
    /// a FIFO): never written through.
    case notARegularFile(path: String)
    /// The disk lacks room for what is still to come.
    case noSpace(path: String, neededBytes: Int64, freeBytes: Int64)
    /// The received bytes do not hash to what the manifest promised.
    case checksumMismatch(path: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .wouldOverwrite(let path): return "\(path) exists with other content (use --overwrite to replace it)"
        case .notARegularFile(let path): return "\(path) is in the way and is not a regular file or directory"
        case .noSpace(let path, let needed, let free):
            return "not enough space in \(path): the batch needs \(Self.size(needed)) more, \(Self.size(free)) free"
        case .checksumMismatch(let path): return "\(path) arrived damaged: its sha256 differs from the manifest's"
        }
    }

    static func size(_ bytes: Int64) -> String { ByteCount.describe(Double(bytes)) }
}
