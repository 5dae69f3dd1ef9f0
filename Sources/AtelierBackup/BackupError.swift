import AtelierRecords
import Foundation

/// What can go wrong reading or writing a backup archive. (Restoring a catalog from one reports
/// through `CatalogError`, which says the catalog was not changed.)
public enum BackupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The archive is damaged, foreign or unsafe; the text says what is wrong with it (the
    /// caller adds the archive's path).
    case badArchive(String)
    /// A file could not be written (the archive being made, or a member being extracted): not
    /// the archive's fault, so a caller must not call the archive unusable. `code` is the errno.
    case cannotWrite(path: String, code: Int32)

    /// The sentence a tool shows after its own prefix.
    public var description: String {
        switch self {
        case .badArchive(let why): return why
        case .cannotWrite(let path, let code):
            return OutOfSpace.isOutOfSpace(code) ? OutOfSpace.message(writing: path) : "cannot write \(path): \(String(cString: strerror(code)))"
        }
    }
}

// The exit codes (DESIGN.md "Exit codes"): a damaged or foreign archive is the data's fault
// (65); a file that cannot be written is 73, with the one message for a full disk.
extension BackupError: ExitCodedError, SystemCallFailure {
    public var sysexit: Sysexit {
        switch self {
        case .badArchive: return .dataError
        case .cannotWrite: return .cannotCreate
        }
    }

    public var systemErrorCode: Int32? {
        if case .cannotWrite(_, let code) = self { return code }
        return nil
    }
}
