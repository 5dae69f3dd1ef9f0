import Crypto
import Foundation

/// The sending half of the encrypted channel: turns messages into sealed frames.
///
/// Each frame is `length (4 bytes, big-endian) ‖ ChaCha20-Poly1305(key, nonce, plaintext,
/// aad: length)`, the plaintext being the message's type byte and fields. The nonce is 4 zero
/// bytes and the 64-bit big-endian count of frames already sealed in this direction; each
/// direction has its own key (see `PairingSession`), so no (key, nonce) pair ever repeats, and
/// the opener, expecting the next count, detects reordering, replay and deletion as
/// authentication failures. Sealing stops with `.nonceExhausted` before the count could wrap.
///
/// For speed, the sealer reuses one plaintext buffer and appends to the caller's output
/// buffer, which the caller clears after each write: a 1 MiB data frame costs one copy in,
/// the cipher, and one copy out.
public struct FrameSealer: Sendable {
    private let key: SymmetricKey
    /// Frames sealed so far: the nonce of the next one.
    public private(set) var framesSealed: UInt64 = 0
    /// True once `close` was sealed; sealing more throws `.channelClosed`.
    public private(set) var isClosed = false
    private var plaintext: [UInt8] = []

    /// A sealer with a 32-byte ChaCha20-Poly1305 key.
    public init(key: SymmetricKey) {
        precondition(key.bitCount == 256, "a ChaCha20-Poly1305 key is 256 bits")
        self.key = key
        plaintext.reserveCapacity(FrameLimits.maxPlaintextBytes)
    }

    /// Appends the sealed frame of `message` to `out`.
    public mutating func seal(_ message: TransferMessage, into out: inout [UInt8]) throws {
        plaintext.removeAll(keepingCapacity: true)
        message.encode(into: &plaintext)
        try sealPlaintext(into: &out)
        if case .close = message { isClosed = true }
    }

    /// Appends the sealed frame of a data message to `out`, reading the file bytes straight
    /// from `bytes` (at most `FrameLimits.maxDataChunkBytes`), e.g. a read buffer.
    public mutating func sealData(entry: UInt32, offset: UInt64, bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) throws {
        guard bytes.count <= FrameLimits.maxDataChunkBytes else {
            throw TransferError.frameTooLarge(length: bytes.count, limit: FrameLimits.maxDataChunkBytes)
        }
        plaintext.removeAll(keepingCapacity: true)
        plaintext.appendByte(0x04)
        plaintext.appendUInt32(entry)
        plaintext.appendUInt64(offset)
        plaintext.append(contentsOf: bytes)
        try sealPlaintext(into: &out)
    }

    /// Appends the sealed frame of `bytes` taken as a message's plaintext (type byte and
    /// fields) without encoding or checking it. Only for tests that play a hostile peer, which
    /// must send what `TransferMessage` cannot express (a manifest with an unsafe path).
    mutating func sealUnchecked(plaintext bytes: [UInt8], into out: inout [UInt8]) throws {
        plaintext.removeAll(keepingCapacity: true)
        plaintext.append(contentsOf: bytes)
        try sealPlaintext(into: &out)
    }

    private mutating func sealPlaintext(into out: inout [UInt8]) throws {
        guard !isClosed else { throw TransferError.channelClosed }
        guard framesSealed < UInt64.max else { throw TransferError.nonceExhausted }
        guard plaintext.count <= FrameLimits.maxPlaintextBytes else {
            throw TransferError.frameTooLarge(length: plaintext.count + FrameLimits.tagBytes, limit: FrameLimits.maxSealedBytes)
        }
        let prefix = FrameDecoder.prefix(length: plaintext.count + FrameLimits.tagBytes)
        let box = try ChaChaPoly.seal(plaintext, using: key, nonce: Self.nonce(framesSealed), authenticating: prefix)
        framesSealed += 1
        out.append(contentsOf: prefix)
        box.ciphertext.withUnsafeBytes { out.append(contentsOf: $0) }
        box.tag.withUnsafeBytes { out.append(contentsOf: $0) }
    }

    /// The 96-bit nonce of frame `counter`: 4 zero bytes, then the counter big-endian.
    static func nonce(_ counter: UInt64) -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 4)
        bytes.appendUInt64(counter)
        // 12 bytes always make a valid nonce.
        return try! ChaChaPoly.Nonce(data: bytes)
    }
}
