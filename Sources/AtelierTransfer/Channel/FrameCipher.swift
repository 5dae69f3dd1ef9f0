import Crypto
internal import CCryptoBoringSSL

/// ChaCha20-Poly1305 (RFC 8439) with one direction's key, sealing in place and opening into a
/// buffer the caller chose, through BoringSSL's `EVP_AEAD` (the same code swift-crypto's
/// `ChaChaPoly` runs).
///
/// Why not `ChaChaPoly` itself: its `seal` returns a fresh `SealedBox` (nonce, ciphertext and
/// tag concatenated into a new buffer) and `SealedBox(nonce:ciphertext:tag:)` concatenates
/// again before `open` allocates the plaintext, so each 1 MiB frame cost three user-space
/// copies per side on top of the cipher (RESULTS.md, "Where the time went"). Here the sender
/// reads a file chunk straight into the frame buffer and seals it where it lies, and the
/// receiver opens from its read buffer into the plaintext once. The bytes on the wire are the
/// same (`PairingHandshakeTests.testProtocolVector` checks a sealed frame against Python's
/// `cryptography`).
///
/// swift-crypto's BoringSSL module is imported without being a product of the package: it is
/// what `Crypto` links on Linux anyway, and BoringSSL's AEAD API is stable.
final class FrameCipher: @unchecked Sendable {
    private let context: UnsafeMutablePointer<EVP_AEAD_CTX>

    /// A cipher with a 32-byte key.
    init(key: SymmetricKey) {
        precondition(key.bitCount == 256, "a ChaCha20-Poly1305 key is 256 bits")
        context = key.withUnsafeBytes { raw in
            CCryptoBoringSSL_EVP_AEAD_CTX_new(CCryptoBoringSSL_EVP_aead_chacha20_poly1305(), raw.baseAddress!.assumingMemoryBound(to: UInt8.self),
                                              raw.count, FrameLimits.tagBytes)
        }!
    }

    deinit { CCryptoBoringSSL_EVP_AEAD_CTX_free(context) }

    /// Seals `text` in place and writes the 16-byte tag at `text.baseAddress + text.count`
    /// (which the caller must own), authenticating `aad`; the nonce is `counter`'s
    /// (`FrameSealer.nonce`).
    func seal(inPlace text: UnsafeMutableRawBufferPointer, counter: UInt64, aad: UnsafeRawBufferPointer) -> Bool {
        var nonce = Self.nonce(counter)
        var written = 0
        let base = text.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return withUnsafeBytes(of: &nonce) { nonceBytes in
            CCryptoBoringSSL_EVP_AEAD_CTX_seal(context, base, &written, text.count + FrameLimits.tagBytes,
                                              nonceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 12,
                                              base, text.count, aad.baseAddress!.assumingMemoryBound(to: UInt8.self), aad.count) == 1
        } && written == text.count + FrameLimits.tagBytes
    }

    /// Opens `sealed` (ciphertext and tag) into `out` (at least `sealed.count - 16` bytes);
    /// false when authentication fails.
    func open(_ sealed: UnsafeRawBufferPointer, into out: UnsafeMutableRawBufferPointer, counter: UInt64, aad: UnsafeRawBufferPointer) -> Bool {
        var nonce = Self.nonce(counter)
        var written = 0
        let expected = sealed.count - FrameLimits.tagBytes
        guard expected >= 0, out.count >= expected else { return false }
        return withUnsafeBytes(of: &nonce) { nonceBytes in
            CCryptoBoringSSL_EVP_AEAD_CTX_open(context, out.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafeMutablePointer(bitPattern: 1)!, &written, out.count,
                                              nonceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 12,
                                              sealed.baseAddress!.assumingMemoryBound(to: UInt8.self), sealed.count,
                                              aad.baseAddress!.assumingMemoryBound(to: UInt8.self), aad.count) == 1
        } && written == expected
    }

    /// The 96-bit nonce of frame `counter` as 12 bytes: 4 zero bytes, then the counter big-endian.
    /// (Three `UInt32`s lie contiguous in memory, 12 bytes, where a `UInt64` would be padded.)
    private static func nonce(_ counter: UInt64) -> (UInt32, UInt32, UInt32) {
        (0, UInt32(truncatingIfNeeded: counter >> 32).bigEndian, UInt32(truncatingIfNeeded: counter).bigEndian)
    }
}
