/// Everything that can go wrong in pairing, the encrypted channel and the transfer messages.
///
/// One enum for the pairing/channel/message layers of AtelierTransfer, so that the command line
/// maps it to a message and an exit code in one place (docs/transfer-protocol.md has the
/// suggested mapping: `wrongCode` and `weakPeerKey` are exit 77). This library never prints:
/// `description` is the sentence a tool shows after its own prefix.
public enum TransferError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Pairing code

    /// The text is not a pairing code of the form `NUMBER-WORD-WORD`; `reason` says what is off.
    case invalidPairingCode(String, reason: String)
    /// A word of the code is not in the word list (nor a unique prefix of four letters or more
    /// of one); `suggestion` is the closest word of the list, when one is close.
    case unknownPairingWord(String, suggestion: String?)

    // MARK: Handshake

    /// A handshake message has the wrong size or magic: the peer is not an Atelier transfer
    /// peer, or speaks another protocol on this port.
    case malformedHandshake(String)
    /// The two sides share no protocol version.
    case unsupportedVersion(ours: ClosedRange<UInt8>, theirs: ClosedRange<UInt8>)
    /// The peer's public share is a low-order point (or yields the all-zero secret): an attack
    /// or a broken peer. The handshake is aborted, as CPace requires.
    case weakPeerKey
    /// Key confirmation failed: the two sides typed different pairing codes (or an attacker
    /// guessed and lost). Each side detects this by itself, before any file byte moves.
    case wrongCode
    /// The receiver is in the middle of another batch and turned this connection away.
    case receiverBusy
    /// A handshake step was called out of order (a programming error in the caller).
    case handshakeOutOfOrder(String)

    // MARK: Channel

    /// A frame's length prefix announces more than the limit; refused before allocating.
    case frameTooLarge(length: Int, limit: Int)
    /// A frame's length prefix is too short to hold a tag and a message type.
    case frameTooSmall(length: Int)
    /// Frame number `frame` (counting from 0 in its direction) did not authenticate: it was
    /// tampered with, reordered, replayed, or sealed with another key.
    case authenticationFailed(frame: UInt64)
    /// The byte stream ended without the close frame (`bufferedBytes` of a partial frame
    /// were left): the transfer was cut, or the stream truncated by an attacker.
    case truncatedStream(bufferedBytes: Int)
    /// Bytes arrived after the peer's close frame.
    case dataAfterClose
    /// Sealing was asked for after this side sent its close frame.
    case channelClosed
    /// The per-direction frame counter is exhausted; a nonce would repeat.
    case nonceExhausted

    // MARK: Messages

    /// A decrypted message does not parse: `message` names its type, `reason` what is wrong.
    case malformedMessage(String, reason: String)
    /// A path in a manifest is not a safe relative path; `reason` says which rule it breaks.
    case unsafePath(String, reason: String)
    /// A manifest breaks a rule (limits, duplicates, a file that is also a directory, parts
    /// that do not fit together).
    case invalidManifest(String)
    /// A message arrived that the protocol does not allow at this point.
    case unexpectedMessage(expected: String, got: String)
    /// The peer aborted the transfer with this reason and explanation.
    case peerAborted(AbortReason, message: String)

    public var description: String {
        switch self {
        case .invalidPairingCode(let text, let reason):
            return "\(text.debugDescription) is not a pairing code (\(reason)); a code looks like 7-crane-orbit"
        case .unknownPairingWord(let word, let suggestion):
            let hint = suggestion.map { " (did you mean \"\($0)\"?)" } ?? ""
            return "\(word.debugDescription) is not a pairing-code word\(hint)"
        case .malformedHandshake(let what):
            return "the peer does not speak the Atelier transfer protocol: \(what)"
        case .unsupportedVersion(let ours, let theirs):
            return "no common protocol version: we speak \(ours.lowerBound)–\(ours.upperBound), the peer \(theirs.lowerBound)–\(theirs.upperBound); update the older side"
        case .weakPeerKey:
            return "the peer sent an invalid key share (a low-order point); handshake aborted"
        case .wrongCode:
            return "wrong pairing code: the two sides typed different codes; nothing was transferred"
        case .receiverBusy:
            return "the receiver is busy with another batch; try again when it is done"
        case .handshakeOutOfOrder(let what):
            return "handshake step out of order: \(what)"
        case .frameTooLarge(let length, let limit):
            return "frame of \(length) bytes announced, more than the limit of \(limit)"
        case .frameTooSmall(let length):
            return "frame of \(length) bytes announced, too short to be a sealed frame"
        case .authenticationFailed(let frame):
            return "frame \(frame) failed authentication: the stream was tampered with, reordered or replayed"
        case .truncatedStream(let buffered):
            return "the stream ended before the peer closed it (\(buffered) bytes of a partial frame left): the transfer was cut"
        case .dataAfterClose:
            return "the peer sent data after closing the stream"
        case .channelClosed:
            return "cannot send after the close frame"
        case .nonceExhausted:
            return "frame counter exhausted; start a new session"
        case .malformedMessage(let message, let reason):
            return "malformed \(message) message: \(reason)"
        case .unsafePath(let path, let reason):
            return "unsafe path \(path.debugDescription) in the manifest: \(reason)"
        case .invalidManifest(let why):
            return "invalid manifest: \(why)"
        case .unexpectedMessage(let expected, let got):
            return "protocol error: expected \(expected), got \(got)"
        case .peerAborted(let reason, let message):
            return message.isEmpty ? "the peer aborted: \(reason)" : "the peer aborted: \(reason): \(message)"
        }
    }
}
