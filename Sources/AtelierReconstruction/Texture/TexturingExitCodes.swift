import AtelierRecords

// The exit codes of texturing's errors: views or a mesh that give nothing to texture are the
// data's fault (65), an option out of range the caller's (64), an inconsistency the program's (70).

extension TexturingError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .noViews, .emptyMesh, .invalidView, .atlasTooSmall: return .dataError
        case .invalidOption: return .usage
        case .inconsistentMesh, .encoding: return .software
        }
    }
}
