import Foundation

// Strings: the fast path for strings without escapes, UTF-8 validation, escapes and surrogates.
extension JSONParser {
    /// A string without escapes, as `scanSimpleString` finds it.
    struct PlainString {
        /// The bytes between the quotes.
        var raw: UnsafeRawBufferPointer
        /// Whether they are all ASCII, and so need no UTF-8 validation.
        var isASCII: Bool
    }

    /// Scans a string with no escapes and returns its raw bytes (quotes excluded), leaving the
    /// index after the closing quote; returns nil, index unchanged, if it has an escape.
    ///
    /// It reads eight bytes at a time where the line allows (SWAR, as in simdjson's fallback
    /// kernel): one test finds whether a word holds a quote, a backslash or a control byte, and
    /// the lowest flagged byte is exactly the first of them. The same pass notes whether any
    /// byte is beyond ASCII, so ASCII strings, most of a record, need no second pass.
    @inline(__always) mutating func scanSimpleString() throws(RecordsError) -> PlainString? {
        let start = index + 1
        var i = start
        let count = bytes.count
        var high: UInt64 = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self).littleEndian
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5C)
            // Per byte b: (b - n) & ~b & 0x80 is set for the first byte below n (zero for n = 1).
            let flags = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (word &- ones &* 0x20) & ~word) & tops
            if flags == 0 {
                high |= word
                i += 8
                continue
            }
            let first = flags.trailingZeroBitCount &>> 3
            high |= word & ((1 &<< (first &<< 3)) &- 1)
            i += first
            break
        }
        while i < count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                index = i + 1
                return PlainString(raw: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), isASCII: high & tops == 0)
            }
            if b == UInt8(ascii: "\\") { return nil }
            if b < 0x20 { throw RecordsError.syntax("control character in a string (escape it)", column: i + 1) }
            high |= UInt64(b)
            i += 1
        }
        throw RecordsError.syntax("unterminated string", column: index + 1)
    }

    /// Checks the UTF-8 of a string that is not built; ASCII needs no check.
    func validateUTF8(_ string: PlainString, column: Int) throws(RecordsError) {
        if !string.isASCII && String(validating: string.raw, as: UTF8.self) == nil {
            throw RecordsError.syntax("invalid UTF-8 in a string", column: column)
        }
    }

    /// The String of a string without escapes. ASCII (known from the scan) is valid UTF-8 as
    /// it stands, and skips `String(validating:)`, a generic call that costs more than the copy.
    func makeString(_ string: PlainString, column: Int) throws(RecordsError) -> String {
        if string.isASCII { return String(decoding: string.raw, as: UTF8.self) }
        guard let s = String(validating: string.raw, as: UTF8.self) else {
            throw RecordsError.syntax("invalid UTF-8 in a string", column: column)
        }
        return s
    }

    mutating func parseString() throws(RecordsError) -> String {
        let quote = index
        if let plain = try scanSimpleString() { return try makeString(plain, column: quote + 2) }
        index += 1
        var out: [UInt8] = []
        out.reserveCapacity(32)
        while true {
            guard index < bytes.count else { throw RecordsError.syntax("unterminated string", column: quote + 1) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { index += 1; break }
            if b < 0x20 { throw RecordsError.syntax("control character in a string (escape it)", column: index + 1) }
            if b != UInt8(ascii: "\\") { out.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { throw RecordsError.syntax("unterminated string", column: quote + 1) }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try parseHex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw RecordsError.syntax("unpaired UTF-16 surrogate in \\u escape", column: index + 1)
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw RecordsError.syntax("unpaired UTF-16 surrogate in \\u escape", column: index + 1)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw RecordsError.syntax("unpaired UTF-16 surrogate in \\u escape", column: index + 1)
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default:
                throw RecordsError.syntax("invalid escape \\\(Character(Unicode.Scalar(escape)))", column: index)
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw RecordsError.syntax("invalid UTF-8 in a string", column: quote + 2)
        }
        return s
    }

    mutating func parseHex4() throws(RecordsError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw RecordsError.syntax("truncated \\u escape", column: index + 1) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw RecordsError.syntax("invalid hex digit in \\u escape", column: index + 1)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
