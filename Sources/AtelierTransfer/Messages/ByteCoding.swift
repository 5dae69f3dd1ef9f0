/// Big-endian writing of the transfer messages' fields into a byte buffer.
///
/// The message format is deliberately small: fixed-width big-endian integers and strings or
/// byte runs preceded by a 16-bit length. No varints, no optional fields, so that every
/// message has exactly one encoding and the decoder can check that it read every byte.
extension Array where Element == UInt8 {
    @inline(__always) mutating func appendByte(_ value: UInt8) { append(value) }

    @inline(__always) mutating func appendUInt16(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value >> 8))
        append(UInt8(truncatingIfNeeded: value))
    }

    @inline(__always) mutating func appendUInt32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    @inline(__always) mutating func appendUInt64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A 16-bit length, then the bytes. The caller keeps `bytes` under 65,536 (the message
    /// types' own limits are far lower).
    mutating func appendShortBytes(_ bytes: some Collection<UInt8>) {
        appendUInt16(UInt16(truncatingIfNeeded: bytes.count))
        append(contentsOf: bytes)
    }

    /// A 16-bit length, then the UTF-8 bytes of `string`.
    mutating func appendShortString(_ string: String) { appendShortBytes(string.utf8) }
}

/// Reads the fields `Array.append…` writes, from a slice, throwing
/// `TransferError.malformedMessage(message, …)` on a short read or a value out of range. It
/// never traps: every index is checked against the end before it is used.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private(set) var position: Int
    /// The message type being read, for errors.
    let message: String

    init(_ bytes: ArraySlice<UInt8>, message: String) {
        self.bytes = bytes
        self.position = bytes.startIndex
        self.message = message
    }

    var remaining: Int { bytes.endIndex - position }

    func failure(_ reason: String) -> TransferError { .malformedMessage(message, reason: reason) }

    private mutating func take(_ count: Int, _ what: String) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw failure("cut short in \(what)") }
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func readByte(_ what: String) throws -> UInt8 { try take(1, what).first! }

    mutating func readUInt16(_ what: String) throws -> UInt16 {
        try take(2, what).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func readUInt32(_ what: String) throws -> UInt32 {
        try take(4, what).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func readUInt64(_ what: String) throws -> UInt64 {
        try take(8, what).reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func readBytes(_ count: Int, _ what: String) throws -> ArraySlice<UInt8> { try take(count, what) }

    /// A 16-bit length and that many bytes, refusing lengths above `limit`.
    mutating func readShortBytes(_ what: String, limit: Int) throws -> ArraySlice<UInt8> {
        let count = Int(try readUInt16(what))
        guard count <= limit else { throw failure("\(what) of \(count) bytes is longer than \(limit)") }
        return try take(count, what)
    }

    /// A 16-bit length and that much valid UTF-8, refusing lengths above `limit`.
    mutating func readShortString(_ what: String, limit: Int) throws -> String {
        let raw = try readShortBytes(what, limit: limit)
        guard let string = String(validating: raw, as: UTF8.self) else { throw failure("\(what) is not valid UTF-8") }
        return string
    }

    /// Everything left.
    mutating func readRest() -> ArraySlice<UInt8> {
        defer { position = bytes.endIndex }
        return bytes[position...]
    }

    /// Throws unless every byte was read: trailing bytes would make two encodings of one message.
    func expectEnd() throws {
        guard remaining == 0 else { throw failure("\(remaining) unexpected bytes at the end") }
    }
}
