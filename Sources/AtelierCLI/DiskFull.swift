import AtelierCatalog
import AtelierFormats
import AtelierRecords
import AtelierTransfer
import Foundation

/// Running out of space, wherever it is noticed: one plain message and exit 73 (cannot create
/// output), `tool: no space left on device writing PATH`, whichever layer hit `ENOSPC` or
/// `EDQUOT` (a photo being stored, an export, a received file, a model, standard output).
///
/// `Diagnostics.describe` asks `path(in:)` first, so a library error that carries the
/// system's code (or only its text) becomes this message without each tool knowing about it.
/// Code that wraps an error in a `ToolFailure` of its own asks `failure(for:)` first.
enum DiskFull {
    /// True for the errno values that mean the disk (or the user's quota) is full.
    static func isOutOfSpace(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }

    /// The error a tool reports for a full disk while writing `path`.
    static func failure(writing path: String) -> ToolFailure {
        ToolFailure("no space left on device writing \(path)", .cannotCreate)
    }

    /// `failure(writing:)` when `error` reports a full disk, else nil.
    static func failure(for error: any Error) -> ToolFailure? {
        path(in: error).map(failure(writing:))
    }

    /// The file (or stream) being written when `error` reports a full disk, else nil.
    static func path(in error: any Error) -> String? {
        switch error {
        case let e as AtomicFile.Failure: return isOutOfSpace(e.code) ? e.path : nil
        case let e as OutputError:
            if case .noSpace(let destination) = e { return destination }
            return nil
        case let e as CatalogError:
            switch e {
            case .cannotWrite(let path, let reason): return isOutOfSpace(reason: reason) ? path : nil
            default: return nil
            }
        case let e as BatchDirectoryError:
            switch e {
            case .diskFull(let path): return path
            case .cannotWrite(let path, let reason): return isOutOfSpace(reason: reason) ? path : nil
            default: return nil
            }
        case let e as POSIXError: return isOutOfSpace(e.code.rawValue) ? "a file" : nil
        case let e as CocoaError:
            // Foundation's file writes: NSFileWriteOutOfSpaceError (640).
            guard e.code == .fileWriteOutOfSpace else { return nil }
            return e.filePath ?? e.url?.path ?? "a file"
        default: return nil
        }
    }

    /// True when `reason` is the system's text for a full disk or quota (for errors that carry
    /// only the `strerror` text), or the catalog's word for SQLite's SQLITE_FULL.
    static func isOutOfSpace(reason: String) -> Bool {
        reason == "disk full" || [ENOSPC, EDQUOT].contains { reason.contains(String(cString: strerror($0))) }
    }
}
