import AtelierRecords
import Foundation

/// What can go wrong with the catalog. Each case carries what a person needs to act.
public enum CatalogError: Error, CustomStringConvertible, Sendable {
    /// No catalog file where one was expected (query before any import).
    case notFound(path: String)
    /// The file exists but is not an Atelier catalog, or is damaged.
    case notACatalog(path: String, reason: String)
    /// The catalog was written by a newer Atelier with a schema this one does not know.
    case newerSchema(path: String, version: String)
    /// A record cannot be stored (missing fields, unknown references, bad values).
    case invalidRecord(String)
    /// Another process holds the catalog longer than the busy timeout.
    case busy(path: String)
    /// An input file (a backup archive to restore) that does not exist or cannot be read.
    case missingInput(path: String, reason: String)
    /// A backup archive that is corrupt, truncated, foreign or from a newer version.
    case badArchive(path: String, reason: String)
    /// The catalog or its directory cannot be written.
    case cannotWrite(path: String, reason: String)
    /// The disk (or the user's quota) filled up while `path` was being written.
    case diskFull(path: String)
    /// SQLite reported something unexpected.
    case database(String)

    public var description: String {
        switch self {
        case .notFound(let path): return "no catalog at \(path); create one with 'atl-import --sample' or import your own records"
        case .notACatalog(let path, let reason): return "\(path) is not an Atelier catalog (\(reason))"
        case .newerSchema(let path, let version): return "\(path) was written by a newer Atelier (schema \(version)); upgrade atelier to read it"
        case .invalidRecord(let message): return message
        case .busy(let path): return "the catalog \(path) is busy (another atl-import is writing); try again"
        case .missingInput(let path, let reason): return "cannot read \(path): \(reason); the catalog was not changed"
        case .badArchive(let path, let reason): return "\(path): not a usable Atelier backup: \(reason); the catalog was not changed"
        case .cannotWrite(let path, let reason): return "cannot write \(path): \(reason)"
        case .diskFull(let path): return OutOfSpace.message(writing: path)
        case .database(let message): return "database error: \(message)"
        }
    }
}

extension CatalogError {
    /// `.diskFull` when `code` (an errno) means the disk is full, else `.cannotWrite` with the
    /// system's reason.
    static func writing(_ path: String, code: Int32) -> CatalogError {
        OutOfSpace.isOutOfSpace(code) ? .diskFull(path: path) : .cannotWrite(path: path, reason: String(cString: strerror(code)))
    }

    /// `.diskFull` when `error` carries an out-of-space errno, else `.cannotWrite` with its text.
    static func writing(_ path: String, error: Error) -> CatalogError {
        OutOfSpace.isOutOfSpace(error) ? .diskFull(path: path) : .cannotWrite(path: path, reason: error.localizedDescription)
    }
}

extension CatalogError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .notFound, .missingInput: return .noInput
        case .notACatalog, .newerSchema, .invalidRecord, .badArchive: return .dataError
        case .busy: return .tempFail
        case .cannotWrite, .diskFull: return .cannotCreate
        case .database: return .software
        }
    }
}
