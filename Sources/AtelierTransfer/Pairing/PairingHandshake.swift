import Crypto
import Foundation

/// The pairing handshake: CPace over a four-message exchange with explicit key confirmation.
///
///     receiver → sender   greeting  24 B  "ATLR" minVersion maxVersion suite 0  nonceR(16)
///     sender → receiver   initiate  56 B  "ATLS" version suite 0 0  nonceS(16)  Ya(32)
///     receiver → sender   response  68 B  "ATLK" Yb(32) tagR(32)
///     sender → receiver   confirm   36 B  "ATLC" tagS(32)
///
/// CPace inputs: PRS = the code's canonical text, sid = nonceR ‖ nonceS (both sides
/// contribute, as the draft recommends), CI = lv_cat("atelier-transfer", [version, suite],
/// "sender", "receiver") (roles bound: the sender is always the initiator), ADa = ADb = empty.
/// Then `KeySchedule`: tagR = HMAC(kR, SHA-256(greeting ‖ initiate ‖ response[0..<36])),
/// tagS = HMAC(kS, SHA-256(greeting ‖ initiate ‖ response)).
///
/// Every message has a fixed size, so the socket layer reads exactly `…Bytes` bytes for each.
/// Both sides send their tag before checking the peer's (the receiver with its share, the
/// sender right after), so a wrong code is detected on both sides, each by its own check,
/// before any file byte moves. Nothing sent allows an offline test of a guess: an active
/// attacker gets one guess per handshake it takes part in.
///
/// A receiver already busy with a batch answers a new connection with `busy` instead of a
/// greeting (24 B: "ATLB" and 20 zero bytes, the greeting's size, so that a sender reading a
/// greeting reads it whole) and closes. A sender of this version reports `.receiverBusy`; an
/// older one, finding no "ATLR", reports a malformed handshake, which exits the same way.
public enum PairingHandshake {
    public static let greetingBytes = 24
    public static let initiateBytes = 56
    public static let responseBytes = 68
    public static let confirmBytes = 36
    /// Protocol versions this implementation speaks.
    public static let supportedVersions: ClosedRange<UInt8> = 1...1
    /// CPACE-X25519-SHA512 with HKDF-SHA256 and ChaCha20-Poly1305: the only suite.
    public static let suite: UInt8 = 1

    static let greetingMagic: [UInt8] = Array("ATLR".utf8)
    static let initiateMagic: [UInt8] = Array("ATLS".utf8)
    static let responseMagic: [UInt8] = Array("ATLK".utf8)
    static let confirmMagic: [UInt8] = Array("ATLC".utf8)
    static let busyMagic: [UInt8] = Array("ATLB".utf8)
    /// What a receiver busy with another batch sends in place of its greeting, then closes.
    public static let busy: [UInt8] = busyMagic + [UInt8](repeating: 0, count: greetingBytes - 4)

    static func channelIdentifier(version: UInt8) -> [UInt8] {
        CPace.lvCat([Array("atelier-transfer".utf8), [version, suite], Array("sender".utf8), Array("receiver".utf8)])
    }

    static func check(_ message: [UInt8], size: Int, magic: [UInt8], _ name: String) throws {
        // The magic first: "not ours at all" is the more useful message.
        guard Array(message.prefix(4)) == magic else { throw TransferError.malformedHandshake("\(name) does not start with \(String(decoding: magic, as: UTF8.self))") }
        guard message.count == size else { throw TransferError.malformedHandshake("\(name) of \(message.count) bytes, expected \(size)") }
    }

    /// The receiver's side: greet, respond to the sender's share, verify its confirmation.
    ///
    ///     var handshake = PairingHandshake.Receiver(code: code)
    ///     write(handshake.greeting)
    ///     write(try handshake.respond(to: read(PairingHandshake.initiateBytes)))
    ///     let session = try handshake.finish(confirmation: read(PairingHandshake.confirmBytes))
    public struct Receiver: Sendable {
        /// The first message, to send as soon as the sender connects.
        public let greeting: [UInt8]
        private let password: [UInt8]
        private let scalar: [UInt8]
        private var pending: (keys: KeySchedule, hash: [UInt8], version: UInt8)?

        /// A receiver with a fresh nonce and CPace scalar from the system CSPRNG.
        public init(code: PairingCode) {
            var generator = SystemRandomNumberGenerator()
            self.init(code: code, nonce: CPace.randomBytes(16, using: &generator), scalar: CPace.sampleScalar())
        }

        /// Fixed randomness, for test vectors only.
        init(code: PairingCode, nonce: [UInt8], scalar: [UInt8]) {
            greeting = greetingMagic + [supportedVersions.lowerBound, supportedVersions.upperBound, suite, 0] + nonce
            password = code.passwordBytes
            self.scalar = scalar
        }

        /// Answers the sender's `initiate` with this side's share and confirmation tag (send it
        /// whole). Throws `.malformedHandshake`, `.unsupportedVersion` or `.weakPeerKey`.
        public mutating func respond(to initiate: [UInt8]) throws -> [UInt8] {
            guard pending == nil else { throw TransferError.handshakeOutOfOrder("respond(to:) called twice") }
            try check(initiate, size: initiateBytes, magic: initiateMagic, "initiate message")
            let version = initiate[4]
            guard supportedVersions.contains(version), initiate[5] == suite else {
                throw TransferError.unsupportedVersion(ours: supportedVersions, theirs: version...version)
            }
            let sid = Array(greeting[8..<24]) + Array(initiate[8..<24])
            let cpace = try CPace(prs: password, ci: channelIdentifier(version: version), sid: sid, scalar: scalar)
            let isk = try cpace.intermediateSessionKey(peerShare: Array(initiate[24..<56]), isInitiator: false)
            let beforeTags = KeySchedule.transcriptHash(greeting, initiate, responseMagic + cpace.share)
            let keys = KeySchedule(isk: isk, transcriptHash: beforeTags)
            let response = responseMagic + cpace.share + keys.tag(for: .receiver, hash: beforeTags)
            pending = (keys, KeySchedule.transcriptHash(greeting, initiate, response), version)
            return response
        }

        /// Checks the sender's confirmation: the session on success, `.wrongCode` when the
        /// codes differ (or the handshake was tampered with).
        public func finish(confirmation: [UInt8]) throws -> PairingSession {
            guard let pending else { throw TransferError.handshakeOutOfOrder("finish(confirmation:) before respond(to:)") }
            try check(confirmation, size: confirmBytes, magic: confirmMagic, "confirmation")
            guard pending.keys.isValidTag(confirmation[4...], for: .sender, hash: pending.hash) else { throw TransferError.wrongCode }
            return PairingSession(role: .receiver, version: pending.version, keys: pending.keys)
        }
    }

    /// The sender's side: answer the greeting with a share, confirm, then check the receiver's tag.
    ///
    ///     var handshake = PairingHandshake.Sender(code: code)
    ///     write(try handshake.initiate(greeting: read(PairingHandshake.greetingBytes)))
    ///     write(try handshake.confirm(response: read(PairingHandshake.responseBytes)))
    ///     let session = try handshake.finish()      // throws .wrongCode
    public struct Sender: Sendable {
        private let password: [UInt8]
        private let nonce: [UInt8]
        private let scalar: [UInt8]
        private var started: (cpace: CPace, greeting: [UInt8], initiate: [UInt8], version: UInt8)?
        private var outcome: Result<PairingSession, TransferError>?

        /// A sender with a fresh nonce and CPace scalar from the system CSPRNG.
        public init(code: PairingCode) {
            var generator = SystemRandomNumberGenerator()
            self.init(code: code, nonce: CPace.randomBytes(16, using: &generator), scalar: CPace.sampleScalar())
        }

        /// Fixed randomness, for test vectors only.
        init(code: PairingCode, nonce: [UInt8], scalar: [UInt8]) {
            password = code.passwordBytes
            self.nonce = nonce
            self.scalar = scalar
        }

        /// Picks the highest common version and returns the `initiate` message carrying this
        /// side's share. Throws `.receiverBusy` (the receiver sent `busy`), `.malformedHandshake`
        /// or `.unsupportedVersion`.
        public mutating func initiate(greeting: [UInt8]) throws -> [UInt8] {
            guard started == nil else { throw TransferError.handshakeOutOfOrder("initiate(greeting:) called twice") }
            if Array(greeting.prefix(4)) == busyMagic { throw TransferError.receiverBusy }
            try check(greeting, size: greetingBytes, magic: greetingMagic, "greeting")
            let theirs = greeting[4]...max(greeting[4], greeting[5])
            let version = min(theirs.upperBound, supportedVersions.upperBound)
            guard greeting[4] <= greeting[5], theirs.contains(version), supportedVersions.contains(version), greeting[6] == suite else {
                throw TransferError.unsupportedVersion(ours: supportedVersions, theirs: theirs)
            }
            let sid = Array(greeting[8..<24]) + nonce
            let cpace = try CPace(prs: password, ci: channelIdentifier(version: version), sid: sid, scalar: scalar)
            let initiate = initiateMagic + [version, suite, 0, 0] + nonce + cpace.share
            started = (cpace, greeting, initiate, version)
            return initiate
        }

        /// Computes the session key from the receiver's `response` and returns this side's
        /// confirmation, to send even when `finish()` will then report `.wrongCode` (that is
        /// how the receiver learns of it). Throws only for a malformed response or a weak share.
        public mutating func confirm(response: [UInt8]) throws -> [UInt8] {
            guard let started, outcome == nil else { throw TransferError.handshakeOutOfOrder("confirm(response:) before initiate(greeting:) or twice") }
            try check(response, size: responseBytes, magic: responseMagic, "response")
            let isk = try started.cpace.intermediateSessionKey(peerShare: Array(response[4..<36]), isInitiator: true)
            let beforeTags = KeySchedule.transcriptHash(started.greeting, started.initiate, Array(response[0..<36]))
            let keys = KeySchedule(isk: isk, transcriptHash: beforeTags)
            let valid = keys.isValidTag(response[36...], for: .receiver, hash: beforeTags)
            outcome = valid ? .success(PairingSession(role: .sender, version: started.version, keys: keys)) : .failure(.wrongCode)
            return confirmMagic + keys.tag(for: .sender, hash: KeySchedule.transcriptHash(started.greeting, started.initiate, response))
        }

        /// The session, or `.wrongCode` when the receiver's tag did not verify.
        public func finish() throws -> PairingSession {
            guard let outcome else { throw TransferError.handshakeOutOfOrder("finish() before confirm(response:)") }
            return try outcome.get()
        }
    }
}
