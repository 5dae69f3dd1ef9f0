import AtelierRecords

extension NetworkError: ExitCodedError {
    /// The networks ship with the tools, so a network file that is missing is an installation
    /// without its data (66) and one that does not load is a broken installation (70).
    public var sysexit: Sysexit {
        switch self {
        case .unreadable: return .noInput
        case .notANetwork, .unsupportedVersion, .badHeader, .badLayer, .dataLength, .badWeights, .inputShape, .invalid: return .software
        }
    }
}

extension CareModelsMissing: ExitCodedError {
    /// The networks are data the tool reads from disk: not finding them is a missing input.
    public var sysexit: Sysexit { .noInput }
}
