import AtelierRecords
import Foundation

/// Everything that can go wrong in AtelierFormats: a file that cannot be put in place, a mesh
/// that cannot be written or read. (The backup archive has its own, in AtelierBackup.)
///
/// One enum for the library, so that the command line maps it to a message and an exit code in
/// one place (`FormatsExitCodes.swift`). A failed system call keeps its `errno`
/// (`systemErrorCode`), so a full disk is recognised without matching text and reported with
/// the one message `no space left on device writing PATH`.
public enum FormatError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Writing files

    /// `AtomicFile` could not put `path` in place: the system call of `step` failed with `code`
    /// (an errno).
    case cannotWrite(path: String, step: AtomicFile.Step, code: Int32)

    // MARK: Meshes

    /// The mesh's arrays do not agree (`TexturedMesh.inconsistency` says how).
    case inconsistentMesh(String)
    /// The file would pass a limit of its format (a 4 GiB glTF buffer, 2³² vertices).
    case meshTooLarge(String)
    /// A file that is not a mesh this reader understands, or is damaged; says what and where.
    case malformedMesh(String)

    /// The sentence a tool shows after its own prefix.
    public var description: String {
        switch self {
        case .cannotWrite(let path, _, let code):
            return OutOfSpace.isOutOfSpace(code) ? OutOfSpace.message(writing: path) : "cannot write \(path): \(String(cString: strerror(code)))"
        case .inconsistentMesh(let why): return "inconsistent mesh: \(why)"
        case .meshTooLarge(let why): return "mesh too large for the format: \(why)"
        case .malformedMesh(let why): return "not a readable mesh: \(why)"
        }
    }

    /// The errno of the system call that failed, for the cases that have one.
    public var systemErrorCode: Int32? {
        switch self {
        case .cannotWrite(_, _, let code): return code
        case .inconsistentMesh, .meshTooLarge, .malformedMesh: return nil
        }
    }

    /// The system's words for `systemErrorCode`, without the path (the whole `description`
    /// for the cases that made no system call).
    public var reason: String { systemErrorCode.map { String(cString: strerror($0)) } ?? description }

    /// The file system is full, or the user's quota is used up.
    public var isOutOfSpace: Bool { systemErrorCode.map(OutOfSpace.isOutOfSpace) ?? false }
}
