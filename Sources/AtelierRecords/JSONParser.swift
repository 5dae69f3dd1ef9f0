import Foundation

/// A validating JSON parser over UTF-8 bytes (RFC 8259).
///
/// It works on an unsafe byte buffer with no per-byte allocation, rejects invalid UTF-8, bounds
/// nesting depth, and can skip the values of keys a caller does not need while still checking
/// them, so a filter can read two fields of a 500-byte record without building the rest.
public struct JSONParser {
    /// Nesting deeper than this is refused rather than risking the stack.
    public static let maximumDepth = 256

    private let bytes: UnsafeRawBufferPointer
    private var index: Int
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.index = 0
    }

    /// Parses one complete JSON value; only whitespace may follow it.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        try parser.expectEnd()
        return value
    }

    /// Parses a JSON value from a string (tests, command-line arguments).
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        var copy = text
        let result: Result<JSONValue, JSONSyntaxError> = copy.withUTF8 { buffer in
            do throws(JSONSyntaxError) {
                return .success(try parse(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a line that must hold one JSON object, building only the top-level keys in `keys`
    /// (all of them when `keys` is nil). Skipped values are still validated.
    public static func parseObject(
        _ bytes: UnsafeRawBufferPointer, keeping keys: KeySet? = nil
    ) throws(JSONSyntaxError) -> JSONObject {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            if parser.index >= bytes.count { throw JSONSyntaxError("empty line, expected a JSON object", column: 1) }
            throw JSONSyntaxError("expected a JSON object", column: parser.index + 1)
        }
        let object = try parser.parseObjectBody(keeping: keys)
        try parser.expectEnd()
        return object
    }

    /// A set of keys matched against raw bytes, so skipped keys never become Strings.
    public struct KeySet: Sendable {
        let keys: [[UInt8]]
        public init<S: Sequence>(_ keys: S) where S.Element == String {
            self.keys = keys.map { Array($0.utf8) }
        }
        func contains(_ raw: UnsafeRawBufferPointer) -> Bool {
            for key in keys where key.count == raw.count {
                if key.withUnsafeBytes({ memcmp($0.baseAddress!, raw.baseAddress!, raw.count) }) == 0 {
                    return true
                }
            }
            return false
        }
    }

    // MARK: - Values

    @inline(__always) private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    @inline(__always) private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expectEnd() throws(JSONSyntaxError) {
        skipWhitespace()
        if index < bytes.count {
            throw JSONSyntaxError("unexpected \(describe(bytes[index])) after the JSON value", column: index + 1)
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private func unexpected(_ expected: String) -> JSONSyntaxError {
        guard let byte = peek() else { return JSONSyntaxError("unexpected end of line, expected \(expected)", column: index + 1) }
        return JSONSyntaxError("unexpected \(describe(byte)), expected \(expected)", column: index + 1)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = peek() else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObjectBody(keeping: nil))
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected("a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        let start = index
        guard index + count <= bytes.count,
              memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else { throw JSONSyntaxError("invalid literal, expected \(literal)", column: start + 1) }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw JSONSyntaxError("nesting deeper than \(Self.maximumDepth) levels", column: index + 1)
        }
    }

    private mutating func parseObjectBody(keeping keys: KeySet?) throws(JSONSyntaxError) -> JSONObject {
        try enter()
        index += 1  // {
        var object = JSONObject()
        // Large objects switch to a hash set for the duplicate-key check, so a hostile line with
        // a million keys stays linear.
        var seen: Set<String>? = nil
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return object }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw unexpected("a quoted key") }
            let keyColumn = index + 1
            var keyName: String? = nil
            var wanted = true
            if let keys {
                let raw = try scanSimpleString()
                if let raw {
                    wanted = keys.contains(raw)
                    if wanted { keyName = try makeString(raw, column: keyColumn) }
                } else {
                    keyName = try parseString()
                    wanted = keys.keys.contains(Array(keyName!.utf8))
                }
            } else {
                keyName = try parseString()
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after the key") }
            index += 1
            skipWhitespace()
            if wanted, let keyName {
                let value = try parseValue()
                let duplicate: Bool
                if seen != nil {
                    duplicate = !seen!.insert(keyName).inserted
                } else {
                    duplicate = object.contains(keyName)
                    if object.count >= 16 { seen = Set(object.keys + [keyName]) }
                }
                if duplicate {
                    throw JSONSyntaxError("duplicate key \"\(keyName)\"", column: keyColumn)
                }
                object.appendUnchecked(keyName, value)
            } else {
                try skipValue()
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; depth -= 1; return object
            default: throw unexpected("',' or '}'")
            }
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> [JSONValue] {
        try enter()
        index += 1  // [
        var array: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") { index += 1; depth -= 1; return array }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; depth -= 1; return array
            default: throw unexpected("',' or ']'")
            }
        }
    }

    /// Validates and steps over a value without building it.
    private mutating func skipValue() throws(JSONSyntaxError) {
        guard let byte = peek() else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "{"):
            try enter()
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return }
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw unexpected("a quoted key") }
                if try scanSimpleString() == nil { _ = try parseString() }
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after the key") }
                index += 1
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): index += 1; depth -= 1; return
                default: throw unexpected("',' or '}'")
                }
            }
        case UInt8(ascii: "["):
            try enter()
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; depth -= 1; return }
            while true {
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; depth -= 1; return
                default: throw unexpected("',' or ']'")
                }
            }
        case UInt8(ascii: "\""):
            let start = index
            if let raw = try scanSimpleString() {
                try validateUTF8(raw, column: start + 2)
            } else {
                _ = try parseString()
            }
        default:
            _ = try parseValue()
        }
    }

    // MARK: - Strings

    /// Scans a string with no escapes and returns its raw bytes (quotes excluded), leaving the
    /// index after the closing quote; returns nil, index unchanged, if it has an escape.
    private mutating func scanSimpleString() throws(JSONSyntaxError) -> UnsafeRawBufferPointer? {
        let start = index + 1
        var i = start
        let count = bytes.count
        while i < count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                index = i + 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<i])
            }
            if b == UInt8(ascii: "\\") { return nil }
            if b < 0x20 { throw JSONSyntaxError("control character in a string (escape it)", column: i + 1) }
            i += 1
        }
        throw JSONSyntaxError("unterminated string", column: index + 1)
    }

    private func validateUTF8(_ raw: UnsafeRawBufferPointer, column: Int) throws(JSONSyntaxError) {
        // ASCII fast path: most records are plain ASCII.
        var ascii = true
        for b in raw where b >= 0x80 { ascii = false; break }
        if ascii { return }
        if String(validating: raw, as: UTF8.self) == nil {
            throw JSONSyntaxError("invalid UTF-8 in a string", column: column)
        }
    }

    private func makeString(_ raw: UnsafeRawBufferPointer, column: Int) throws(JSONSyntaxError) -> String {
        guard let s = String(validating: raw, as: UTF8.self) else {
            throw JSONSyntaxError("invalid UTF-8 in a string", column: column)
        }
        return s
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        if let raw = try scanSimpleString() { return try makeString(raw, column: quote + 2) }
        index += 1
        var out: [UInt8] = []
        out.reserveCapacity(32)
        while true {
            guard index < bytes.count else { throw JSONSyntaxError("unterminated string", column: quote + 1) }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") { index += 1; break }
            if b < 0x20 { throw JSONSyntaxError("control character in a string (escape it)", column: index + 1) }
            if b != UInt8(ascii: "\\") { out.append(b); index += 1; continue }
            index += 1
            guard index < bytes.count else { throw JSONSyntaxError("unterminated string", column: quote + 1) }
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
                        throw JSONSyntaxError("unpaired UTF-16 surrogate in \\u escape", column: index + 1)
                    }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw JSONSyntaxError("unpaired UTF-16 surrogate in \\u escape", column: index + 1)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw JSONSyntaxError("unpaired UTF-16 surrogate in \\u escape", column: index + 1)
                }
                out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
            default:
                throw JSONSyntaxError("invalid escape \\\(Character(Unicode.Scalar(escape)))", column: index)
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw JSONSyntaxError("invalid UTF-8 in a string", column: quote + 2)
        }
        return s
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw JSONSyntaxError("truncated \\u escape", column: index + 1) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw JSONSyntaxError("invalid hex digit in \\u escape", column: index + 1)
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw JSONSyntaxError("invalid number", column: start + 1)
        }
        var integer: Int64 = 0
        var overflow = false
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
                throw JSONSyntaxError("invalid number (leading zero)", column: start + 1)
            }
        } else {
            while let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") {
                let (m, o1) = integer.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(d - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                integer = a
                index += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else {
                throw JSONSyntaxError("invalid number (digit expected after '.')", column: index + 1)
            }
            while let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { index += 1 }
            guard let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else {
                throw JSONSyntaxError("invalid number (digit expected in exponent)", column: index + 1)
            }
            while let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
        }
        if isInteger && !overflow { return .int(negative ? -integer : integer) }
        // Fractions, exponents and huge integers: let strtod do the correctly rounded conversion.
        let length = index - start
        let value: Double = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            for i in 0..<length { buffer[i] = CChar(bitPattern: bytes[start + i]) }
            buffer[length] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        guard value.isFinite else { throw JSONSyntaxError("number out of range", column: start + 1) }
        return .double(value)
    }
}
