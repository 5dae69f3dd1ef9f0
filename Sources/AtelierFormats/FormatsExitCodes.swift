import AtelierRecords

// The exit codes of the file formats' errors (DESIGN.md "Exit codes"): a file that cannot be
// written is 73 (with one message for a full disk), a damaged or foreign file 65.

extension FormatError: ExitCodedError, SystemCallFailure {
    public var sysexit: Sysexit {
        switch self {
        // A file that cannot be made or renamed is 73; a write that fails part-way (an I/O
        // error) is 74, unless the disk is full.
        case .cannotWrite(_, let step, let code): return step == .writing && !OutOfSpace.isOutOfSpace(code) ? .ioError : .cannotCreate
        // A mesh whose arrays disagree is the program's fault (70); one too large for its
        // format, or a file that does not read as a mesh, is the data's (65).
        case .inconsistentMesh: return .software
        case .meshTooLarge, .malformedMesh: return .dataError
        }
    }
}
