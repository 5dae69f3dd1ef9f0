/// Sizes of the encrypted framing.
///
/// A frame on the wire is a 4-byte big-endian length L, then L bytes: the ChaCha20-Poly1305
/// ciphertext of the plaintext (a message type byte and its fields) followed by the 16-byte tag.
public enum FrameLimits {
    /// The length prefix.
    public static let prefixBytes = 4
    /// The Poly1305 tag.
    public static let tagBytes = 16
    /// The most file bytes one data message carries (1 MiB): large enough that per-frame
    /// costs vanish, small enough that memory stays flat.
    public static let maxDataChunkBytes = 1 << 20
    /// The largest plaintext: a full data chunk and its header, with room to spare.
    public static let maxPlaintextBytes = maxDataChunkBytes + 64
    /// The largest L a decoder accepts.
    public static let maxSealedBytes = maxPlaintextBytes + tagBytes
    /// The smallest L: a type byte and the tag.
    public static let minSealedBytes = 1 + tagBytes
}

/// Cuts a byte stream into frames, whatever the chunks it arrives in.
///
/// Pure and crypto-free (so the fuzzers can drive it alone): feed it what `read` returned,
/// then take whole frames with `next()` until it returns nil. A length prefix above
/// `maxSealedBytes` or below `FrameLimits.minSealedBytes` is refused as soon as its 4 bytes are
/// in, before anything is allocated for the body; after an error the decoder stays failed.
/// Memory is bounded by one frame plus one read.
public struct FrameDecoder: Sendable {
    public let maxSealedBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var failure: TransferError?

    public init(maxSealedBytes: Int = FrameLimits.maxSealedBytes) {
        self.maxSealedBytes = maxSealedBytes
    }

    /// Bytes received but not yet returned as a frame.
    public var bufferedBytes: Int { buffer.count - start }

    /// Adds bytes from the stream.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes from the stream.
    public mutating func append(contentsOf bytes: some Collection<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame: its length prefix (the AEAD's associated data) and its sealed
    /// body (ciphertext and tag), or nil when more bytes are needed. Throws
    /// `.frameTooLarge`/`.frameTooSmall` for a bad length prefix.
    public mutating func next() throws -> (prefix: ArraySlice<UInt8>, sealed: ArraySlice<UInt8>)? {
        if let failure { throw failure }
        guard bufferedBytes >= FrameLimits.prefixBytes else { return nil }
        let length = Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
        guard length <= maxSealedBytes else { return try fail(.frameTooLarge(length: length, limit: maxSealedBytes)) }
        guard length >= FrameLimits.minSealedBytes else { return try fail(.frameTooSmall(length: length)) }
        guard bufferedBytes >= FrameLimits.prefixBytes + length else { return nil }
        let bodyStart = start + FrameLimits.prefixBytes
        let frame = (prefix: buffer[start..<bodyStart], sealed: buffer[bodyStart..<bodyStart + length])
        start = bodyStart + length
        return frame
    }

    private mutating func fail(_ error: TransferError) throws -> (prefix: ArraySlice<UInt8>, sealed: ArraySlice<UInt8>)? {
        failure = error
        throw error
    }

    /// Drops consumed bytes: all of them when everything was consumed (the common case), or
    /// by moving the tail to the front once the consumed part is large.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 0, start >= buffer.count / 2 || start >= 1 << 20 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }

    /// Builds the 4-byte big-endian length prefix of a frame whose sealed body has `length` bytes.
    public static func prefix(length: Int) -> [UInt8] {
        [UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
         UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }
}
