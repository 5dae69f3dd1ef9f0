import AtelierRecords

extension SyntheticError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .invalidParameter: return .usage
        case .outputNotEmpty, .cannotWrite: return .cannotCreate
        case .encodingFailed: return .software
        }
    }
}
