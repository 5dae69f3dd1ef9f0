import AtelierRecords

// The exit codes of the file formats' errors (DESIGN.md "Exit codes"): a file that cannot be
// written is 73 (with one message for a full disk), a damaged or foreign file 65.

extension AtomicFile.Failure: ExitCodedError, SystemCallFailure {
    /// A file that cannot be made or renamed is 73; a write that fails part-way (an I/O error)
    /// is 74, unless the disk is full.
    public var sysexit: Sysexit { step == .writing && !isOutOfSpace ? .ioError : .cannotCreate }
    public var systemErrorCode: Int32 { code }
}

extension BackupArchive.WriteFailure: ExitCodedError, SystemCallFailure {
    public var sysexit: Sysexit { .cannotCreate }
    public var systemErrorCode: Int32 { code }
}

extension BackupArchive.Failure: ExitCodedError {
    public var sysexit: Sysexit { .dataError }
}

extension MeshFormatError: ExitCodedError {
    /// A mesh whose arrays disagree is the program's fault (70); one too large for its format,
    /// or a file that does not read as a mesh, is the data's (65).
    public var sysexit: Sysexit {
        switch self {
        case .inconsistentMesh: return .software
        case .tooLarge, .malformed: return .dataError
        }
    }
}
