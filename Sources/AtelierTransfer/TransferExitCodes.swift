import AtelierRecords

// The exit codes of the transfer library's errors, beside one another so the protocol's table
// (docs/transfer-protocol.md, "Exit codes") can be read against them in one place.

extension TransferError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .wrongCode, .weakPeerKey: return .noPermission
        case .invalidPairingCode, .unknownPairingWord: return .usage
        case .malformedHandshake, .unsupportedVersion, .receiverBusy: return .unavailable
        case .authenticationFailed, .truncatedStream, .dataAfterClose, .frameTooLarge, .frameTooSmall, .malformedMessage, .unexpectedMessage: return .ioError
        case .unsafePath, .invalidManifest: return .dataError
        case .peerAborted(let reason, _):
            switch reason {
            case .wrongCode: return .noPermission
            case .diskFull, .refusedOverwrite: return .cannotCreate
            case .badManifest: return .dataError
            default: return .unavailable
            }
        case .handshakeOutOfOrder, .channelClosed, .nonceExhausted: return .software
        }
    }
}

extension TransportError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .badAddress: return .usage
        case .unresolved, .cannotConnect, .cannotListen: return .unavailable
        case .timedOut: return .tempFail
        case .broken: return .ioError
        }
    }
}

extension BatchDirectoryError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .checksumMismatch: return .dataError
        case .cannotWrite, .wouldOverwrite, .isADirectory, .notADirectory, .notARegularFile, .noSpace, .diskFull: return .cannotCreate
        }
    }
}

extension LocalBatchError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .cannotRead: return .noInput
        case .duplicateName: return .usage
        case .notARegularFile, .changed, .notAsRecorded: return .dataError
        }
    }
}

extension DiscoveryError: ExitCodedError {
    /// A named interface that does not exist is the user's typo (64); anything else is the
    /// network not letting discovery work (69).
    public var sysexit: Sysexit {
        if case .noSuchInterface = self { return .usage }
        return .unavailable
    }
}
