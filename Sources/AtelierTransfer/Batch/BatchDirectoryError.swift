import AtelierRecords
import Foundation

/// What stops a batch from landing on the receiver's disk.
public enum BatchDirectoryError: Error, Equatable, CustomStringConvertible {
    /// A file or directory could not be made or written (permissions, a read-only disk).
    case cannotWrite(path: String, reason: String)

    /// `.diskFull` when `code` is ENOSPC or EDQUOT, else `.cannotWrite` with the system's reason.
    static func writing(_ path: String, code: Int32) -> BatchDirectoryError {
        OutOfSpace.isOutOfSpace(code) ? .diskFull(path: path) : .cannotWrite(path: path, reason: String(cString: strerror(code)))
    }
    /// A file of the batch is already there with other content, and `--overwrite` was not given.
    case wouldOverwrite(path: String)
    /// A directory is where the batch has a file.
    case isADirectory(path: String)
    /// Something that is not a directory (a file, a symlink, a device) is where the batch needs
    /// a directory.
    case notADirectory(path: String)
    /// Something other than a regular file is where the batch has a file (a symlink, a device,
    /// a FIFO): never written through.
    case notARegularFile(path: String)
    /// The disk lacks room for what is still to come.
    case noSpace(path: String, neededBytes: Int64, freeBytes: Int64)
    /// The disk filled up while `path` was being written.
    case diskFull(path: String)
    /// The received bytes do not hash to what the manifest promised.
    case checksumMismatch(path: String)

    public var description: String {
        switch self {
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .wouldOverwrite(let path): return "\(path) exists with other content (use --overwrite to replace it)"
        case .isADirectory(let path): return "\(path) is a directory, where the batch has a file; move it away or receive --into another directory"
        case .notADirectory(let path): return "\(path) exists and is not a directory, where the batch needs one; move it away or receive --into another directory"
        case .notARegularFile(let path): return "\(path) is in the way and is not a regular file (a symbolic link, device or FIFO is never written through)"
        case .noSpace(let path, let needed, let free):
            return "not enough space in \(path): the batch needs \(Self.size(needed)) more, \(Self.size(free)) free"
        case .diskFull(let path): return OutOfSpace.message(writing: path)
        case .checksumMismatch(let path): return "\(path) arrived damaged: its sha256 differs from the manifest's"
        }
    }

    static func size(_ bytes: Int64) -> String { ByteCount.describe(Double(bytes)) }
}
