import AtelierRecords

// The exit codes of the transfer library's errors, beside one another so the protocol's table
// (docs/transfer-protocol.md, "Exit codes") can be read against them in one place.

extension TransferError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        // Pairing, handshake, channel and messages.
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
        // The sender's files.
        case .cannotRead: return .noInput
        case .duplicateName: return .usage
        case .notARegularFileToSend, .changed, .notAsRecorded: return .dataError
        // The receiver's disk.
        case .checksumMismatch: return .dataError
        case .cannotWrite, .wouldOverwrite, .isADirectory, .notADirectory, .notARegularFileInTheWay, .noSpace, .diskFull: return .cannotCreate
        // Transport.
        case .badAddress: return .usage
        case .unresolved, .cannotConnect, .cannotListen: return .unavailable
        case .timedOut: return .tempFail
        case .broken: return .ioError
        case .noPairingAttempt(let underlying): return underlying.sysexit
        // Discovery: a named interface that does not exist is the user's typo (64); anything
        // else is the network not letting discovery work (69).
        case .noSuchInterface: return .usage
        case .truncated, .compressionLoop, .pointerOutOfRange, .reservedLabelType, .nameTooLong, .invalidName, .tooManyRecords,
             .badRecordData, .noUsableInterface, .socketCall, .advertiserAlreadyStarted:
            return .unavailable
        }
    }
}
