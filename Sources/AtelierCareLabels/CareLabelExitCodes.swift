import AtelierRecords

extension CareLabelError: ExitCodedError {
    /// The networks ship with the tools, so a network file that is missing (or all of them, not
    /// found anywhere) is an installation without its data (66) and one that does not load is
    /// a broken installation (70).
    public var sysexit: Sysexit {
        switch self {
        case .modelsMissing, .unreadable: return .noInput
        case .notANetwork, .unsupportedVersion, .badHeader, .badLayer, .dataLength, .badWeights, .inputShape, .invalid: return .software
        }
    }
}
