import Crypto
import Foundation

/// The keys a pairing yields, derived from CPace's ISK with HKDF-SHA256 (RFC 5869).
///
///     th = SHA-256(greeting ‖ initiate ‖ response[0..<36])      the transcript before any tag
///     k(label, n) = HKDF-SHA256(ikm: ISK, salt: th, info: "atelier-transfer v1 " ‖ label, n bytes)
///
/// | label                    | use                                              |
/// |--------------------------|--------------------------------------------------|
/// | `confirm receiver`       | HMAC key of the receiver's confirmation tag      |
/// | `confirm sender`         | HMAC key of the sender's confirmation tag        |
/// | `key sender to receiver` | ChaCha20-Poly1305 key, frames the sender seals   |
/// | `key receiver to sender` | ChaCha20-Poly1305 key, frames the receiver seals |
/// | `fingerprint`            | 8 bytes shown to people as `xxxx-xxxx-xxxx-xxxx` |
///
/// The confirmation tags are HMAC-SHA256 over SHA-256 of everything each side has sent and
/// received so far, so a change to any handshake byte (version, suite, nonces, shares) makes
/// confirmation fail, as a wrong code does.
struct KeySchedule: Sendable {
    static let labelPrefix = "atelier-transfer v1 "

    let confirmReceiver: SymmetricKey
    let confirmSender: SymmetricKey
    let senderToReceiver: SymmetricKey
    let receiverToSender: SymmetricKey
    let fingerprint: [UInt8]

    init(isk: [UInt8], transcriptHash: [UInt8]) {
        func derive(_ label: String, _ count: Int) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: isk), salt: transcriptHash,
                                   info: Array((Self.labelPrefix + label).utf8), outputByteCount: count)
        }
        confirmReceiver = derive("confirm receiver", 32)
        confirmSender = derive("confirm sender", 32)
        senderToReceiver = derive("key sender to receiver", 32)
        receiverToSender = derive("key receiver to sender", 32)
        fingerprint = derive("fingerprint", 8).withUnsafeBytes { Array($0) }
    }

    /// The confirmation tag of `role` over the transcript hash `hash`.
    func tag(for role: PairingRole, hash: [UInt8]) -> [UInt8] {
        let key = role == .sender ? confirmSender : confirmReceiver
        return Array(HMAC<SHA256>.authenticationCode(for: hash, using: key))
    }

    /// Checks `role`'s tag in constant time.
    func isValidTag(_ tag: ArraySlice<UInt8>, for role: PairingRole, hash: [UInt8]) -> Bool {
        let key = role == .sender ? confirmSender : confirmReceiver
        return HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: hash, using: key)
    }

    static func transcriptHash(_ parts: [UInt8]...) -> [UInt8] {
        var hasher = SHA256()
        for part in parts { hasher.update(data: part) }
        return Array(hasher.finalize())
    }
}

/// An authenticated session: what a completed handshake hands to the transfer layer.
public struct PairingSession: Sendable {
    /// This side's role.
    public let role: PairingRole
    /// The protocol version both sides agreed on.
    public let version: UInt8
    /// A short code both sides compute alike (`3f2a-91c0-77de-0b14`): a person may compare
    /// the two screens, and logs can tell sessions apart. Not secret, not needed for security.
    public let fingerprint: String
    let sendKey: SymmetricKey
    let receiveKey: SymmetricKey

    init(role: PairingRole, version: UInt8, keys: KeySchedule) {
        self.role = role
        self.version = version
        let hex = keys.fingerprint.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        fingerprint = stride(from: 0, to: hex.count, by: 4).map { i in
            String(hex.dropFirst(i).prefix(4))
        }.joined(separator: "-")
        sendKey = role == .sender ? keys.senderToReceiver : keys.receiverToSender
        receiveKey = role == .sender ? keys.receiverToSender : keys.senderToReceiver
    }

    /// The sealer of this side's outgoing frames (one per session: its nonce count must not restart).
    public func makeSealer() -> FrameSealer { FrameSealer(key: sendKey) }

    /// The opener of the peer's frames (one per session).
    public func makeOpener(maxSealedBytes: Int = FrameLimits.maxSealedBytes) -> FrameOpener {
        FrameOpener(key: receiveKey, maxSealedBytes: maxSealedBytes)
    }
}
