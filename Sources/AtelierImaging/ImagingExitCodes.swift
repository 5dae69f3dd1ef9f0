import AtelierRecords

extension ImagingError: ExitCodedError {
    /// A photo that cannot be read is bad input (65); failing to encode our own pixels is the
    /// program's fault (70).
    public var sysexit: Sysexit {
        switch self {
        case .unsupportedFormat, .corrupt, .tooLarge: return .dataError
        case .encodingFailed: return .software
        }
    }
}
