import AtelierRecords

// The exit codes of reconstruction's errors: what the photos or a model file cannot give is the
// data's fault (65); a setting or texturing option out of range is the caller's (64); an
// internal inconsistency is the program's (70).

extension ReconstructionError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .invalidSetting: return .usage
        case .unreadableImage(let error): return error.sysexit
        case .unwritableCheckpoint(_, _, _, let status): return status
        case .imageTooSmall, .invalidMask, .notEnoughImages, .nothingRegistered, .noSurface, .invalidModel, .texturingFailed:
            return .dataError
        case .noPhotosToTexture, .emptyMesh, .invalidTextureView, .atlasTooSmall: return .dataError
        case .invalidTexturingOption: return .usage
        case .inconsistentMesh, .textureEncoding, .inconsistentBundleAdjustmentProblem: return .software
        }
    }
}
