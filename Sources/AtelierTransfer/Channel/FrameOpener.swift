import Crypto
import Foundation

/// The receiving half of the encrypted channel: bytes in, authenticated messages out.
///
/// Feed it whatever the socket returned (`feed`), then take messages with `next()` until it
/// returns nil; at end of file call `finish()`. Every frame must open with the key of this
/// direction and the next nonce count, so a flipped bit, a reordered, replayed or dropped
/// frame all fail with `.authenticationFailed(frame:)`; a stream that stops before the
/// peer's `close` fails `finish()` with `.truncatedStream`; bytes after `close` fail with
/// `.dataAfterClose`. After the first error the opener stays failed: a damaged stream is never
/// resynchronised.
public struct FrameOpener: Sendable {
    private let cipher: FrameCipher
    private var decoder: FrameDecoder
    /// Frames opened so far: the nonce expected next.
    public private(set) var framesOpened: UInt64 = 0
    /// True once the peer's `close` arrived.
    public private(set) var isClosed = false
    private var failure: TransferError?

    /// An opener with a 32-byte ChaCha20-Poly1305 key and the largest sealed frame to accept.
    public init(key: SymmetricKey, maxSealedBytes: Int = FrameLimits.maxSealedBytes) {
        cipher = FrameCipher(key: key)
        self.decoder = FrameDecoder(maxSealedBytes: maxSealedBytes)
    }

    /// Adds bytes read from the peer.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try checkOpen(adding: bytes.count)
        decoder.append(bytes)
    }

    /// Adds bytes read from the peer.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws {
        try checkOpen(adding: bytes.count)
        decoder.append(contentsOf: bytes)
    }

    private mutating func checkOpen(adding count: Int) throws {
        if let failure { throw failure }
        if isClosed, count > 0 { try fail(.dataAfterClose) }
    }

    /// The next message, or nil when the bytes fed so far hold no whole frame. Returns `.close`
    /// once, when the peer closes its direction.
    public mutating func next() throws -> TransferMessage? {
        if let failure { throw failure }
        if isClosed { return nil }
        let frame: (prefix: ArraySlice<UInt8>, sealed: ArraySlice<UInt8>)?
        do { frame = try decoder.next() } catch let error as TransferError { try fail(error) }
        guard let frame else { return nil }
        // Opened straight from the decoder's buffer into the plaintext (no sealed-box copy):
        // the plaintext is a fresh array because a data message's bytes go on to the writing
        // thread while the decoder takes the next frame.
        let counter = framesOpened
        var authentic = false
        let plaintext = [UInt8](unsafeUninitializedCapacity: frame.sealed.count - FrameLimits.tagBytes) { out, count in
            authentic = frame.sealed.withUnsafeBytes { sealed in
                frame.prefix.withUnsafeBytes { prefix in
                    cipher.open(sealed, into: UnsafeMutableRawBufferPointer(out), counter: counter, aad: prefix)
                }
            }
            count = authentic ? out.count : 0
        }
        guard authentic else { try fail(.authenticationFailed(frame: framesOpened)) }
        framesOpened += 1
        let message: TransferMessage
        do { message = try TransferMessage.decode(plaintext[...]) } catch let error as TransferError { try fail(error) }
        if case .close = message {
            isClosed = true
            if decoder.bufferedBytes > 0 { try fail(.dataAfterClose) }
        }
        return message
    }

    /// Call at end of file: throws `.truncatedStream` unless the peer's `close` was read
    /// (and every frame before it taken with `next()`).
    public mutating func finish() throws {
        if let failure { throw failure }
        guard isClosed else { try fail(.truncatedStream(bufferedBytes: decoder.bufferedBytes)) }
    }

    private mutating func fail(_ error: TransferError) throws -> Never {
        failure = error
        throw error
    }
}
