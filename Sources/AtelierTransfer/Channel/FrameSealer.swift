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
/// For speed, nothing is copied in user space beyond the cipher: a message is encoded straight
/// after its length prefix in the caller's output buffer and sealed there (`FrameCipher`), and
/// a data frame is sealed in the caller's frame buffer, where the file bytes were read.
public struct FrameSealer: Sendable {
    private let cipher: FrameCipher
    /// Frames sealed so far: the nonce of the next one.
    public private(set) var framesSealed: UInt64 = 0
    /// True once `close` was sealed; sealing more throws `.channelClosed`.
    public private(set) var isClosed = false

    /// A sealer with a 32-byte ChaCha20-Poly1305 key.
    public init(key: SymmetricKey) {
        cipher = FrameCipher(key: key)
    }

    /// Appends the sealed frame of `message` to `out`.
    public mutating func seal(_ message: TransferMessage, into out: inout [UInt8]) throws {
        let start = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        message.encode(into: &out)
        try sealAppended(in: &out, from: start)
        if case .close = message { isClosed = true }
    }

    /// Appends the sealed frame of a data message to `out`, copying the file bytes from `bytes`
    /// (at most `FrameLimits.maxDataChunkBytes`). The tools use `sealData(entry:offset:count:inPlace:)`.
    public mutating func sealData(entry: UInt32, offset: UInt64, bytes: UnsafeRawBufferPointer, into out: inout [UInt8]) throws {
        guard bytes.count <= FrameLimits.maxDataChunkBytes else {
            throw TransferError.frameTooLarge(length: bytes.count, limit: FrameLimits.maxDataChunkBytes)
        }
        let start = out.count
        out.append(contentsOf: [0, 0, 0, 0, 0x04])
        out.appendUInt32(entry)
        out.appendUInt64(offset)
        out.append(contentsOf: bytes)
        try sealAppended(in: &out, from: start)
    }

    /// Where the file bytes of a data frame go in a frame buffer: after the length prefix and
    /// the message header (type, entry, offset).
    public static let dataOffsetInFrame = FrameLimits.prefixBytes + TransferMessage.dataHeaderBytes

    /// Seals a data frame in place in `frame`, whose file bytes (`count` of them, at most
    /// `FrameLimits.maxDataChunkBytes`) the caller already put at `dataOffsetInFrame`: writes
    /// the length prefix and header before them and the tag after them (`frame` must have room
    /// for it), and returns the frame's length on the wire.
    public mutating func sealData(entry: UInt32, offset: UInt64, count: Int, inPlace frame: UnsafeMutableRawBufferPointer) throws -> Int {
        guard count <= FrameLimits.maxDataChunkBytes else {
            throw TransferError.frameTooLarge(length: count, limit: FrameLimits.maxDataChunkBytes)
        }
        let plaintextCount = TransferMessage.dataHeaderBytes + count
        let total = FrameLimits.prefixBytes + plaintextCount + FrameLimits.tagBytes
        precondition(frame.count >= total, "the frame buffer has no room for the tag")
        frame[4] = 0x04
        frame.storeBytes(of: entry.bigEndian, toByteOffset: 5, as: UInt32.self)
        frame.storeBytes(of: offset.bigEndian, toByteOffset: 9, as: UInt64.self)
        try sealPlaintext(in: UnsafeMutableRawBufferPointer(rebasing: frame[..<total]))
        return total
    }

    /// Appends the sealed frame of `bytes` taken as a message's plaintext (type byte and
    /// fields) without encoding or checking it. Only for tests that play a hostile peer, which
    /// must send what `TransferMessage` cannot express (a manifest with an unsafe path).
    mutating func sealUnchecked(plaintext bytes: [UInt8], into out: inout [UInt8]) throws {
        let start = out.count
        out.append(contentsOf: [0, 0, 0, 0])
        out.append(contentsOf: bytes)
        try sealAppended(in: &out, from: start)
    }

    /// Seals the frame at `out[start...]`: 4 bytes of room for the prefix, then the plaintext;
    /// makes room for the tag.
    private mutating func sealAppended(in out: inout [UInt8], from start: Int) throws {
        let plaintextCount = out.count - start - FrameLimits.prefixBytes
        guard plaintextCount <= FrameLimits.maxPlaintextBytes else {
            out.removeSubrange(start...)
            throw TransferError.frameTooLarge(length: plaintextCount + FrameLimits.tagBytes, limit: FrameLimits.maxSealedBytes)
        }
        out.append(contentsOf: repeatElement(0, count: FrameLimits.tagBytes))
        do {
            try out.withUnsafeMutableBytes { raw in try sealPlaintext(in: UnsafeMutableRawBufferPointer(rebasing: raw[start...])) }
        } catch {
            out.removeSubrange(start...)
            throw error
        }
    }

    /// Seals one frame laid out in `frame`: prefix (4, written here), plaintext, tag (16, written here).
    private mutating func sealPlaintext(in frame: UnsafeMutableRawBufferPointer) throws {
        guard !isClosed else { throw TransferError.channelClosed }
        guard framesSealed < UInt64.max else { throw TransferError.nonceExhausted }
        let sealedCount = frame.count - FrameLimits.prefixBytes
        guard sealedCount - FrameLimits.tagBytes <= FrameLimits.maxPlaintextBytes else {
            throw TransferError.frameTooLarge(length: sealedCount, limit: FrameLimits.maxSealedBytes)
        }
        frame.storeBytes(of: UInt32(sealedCount).bigEndian, toByteOffset: 0, as: UInt32.self)
        let text = UnsafeMutableRawBufferPointer(rebasing: frame[FrameLimits.prefixBytes ..< frame.count - FrameLimits.tagBytes])
        guard cipher.seal(inPlace: text, counter: framesSealed, aad: UnsafeRawBufferPointer(rebasing: frame[..<FrameLimits.prefixBytes])) else {
            throw TransferError.nonceExhausted  // BoringSSL refuses only impossible sizes; never reached
        }
        framesSealed += 1
    }

    /// The 96-bit nonce of frame `counter`: 4 zero bytes, then the counter big-endian.
    static func nonce(_ counter: UInt64) -> ChaChaPoly.Nonce {
        var bytes = [UInt8](repeating: 0, count: 4)
        bytes.appendUInt64(counter)
        // 12 bytes always make a valid nonce.
        return try! ChaChaPoly.Nonce(data: bytes)
    }
}
