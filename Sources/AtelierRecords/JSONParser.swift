import Foundation

/// A validating JSON parser over UTF-8 bytes (RFC 8259).
///
/// It works on an unsafe byte buffer with no per-byte allocation, rejects invalid UTF-8, bounds
/// nesting depth, and can skip the values of keys a caller does not need while still checking
/// them, so a filter can read two fields of a 500-byte record without building the rest.
public struct JSONParser {
    /// Nesting deeper than this is refused rather than risking the stack.
    public static let maximumDepth = 256

    let bytes: UnsafeRawBufferPointer
    var index: Int
    var depth = 0
    /// The plain ASCII keys of the objects a `keeping:` parse is inside, innermost last (see
    /// JSONParser+Keeping.swift); empty, and never allocated, in a full parse.
    var keySpans: [KeySpan] = []

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        self.index = 0
    }

    /// Parses one complete JSON value; only whitespace may follow it.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(RecordsError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        try parser.expectEnd()
        return value
    }

    /// Parses a JSON value from a string (tests, command-line arguments).
    public static func parse(_ text: String) throws(RecordsError) -> JSONValue {
        var copy = text
        let result: Result<JSONValue, RecordsError> = copy.withUTF8 { buffer in
            do throws(RecordsError) {
                return .success(try parse(UnsafeRawBufferPointer(buffer)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a line that must hold one JSON object, building only the top-level keys in `keys`
    /// (all of them when `keys` is nil). What is skipped is still checked in full (syntax,
    /// UTF-8, duplicate keys, depth): a line is refused exactly when the full parse refuses it.
    public static func parseObject(
        _ bytes: UnsafeRawBufferPointer, keeping keys: KeySet? = nil
    ) throws(RecordsError) -> JSONObject {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            if parser.index >= bytes.count { throw RecordsError.syntax("empty line, expected a JSON object", column: 1) }
            throw RecordsError.syntax("expected a JSON object", column: parser.index + 1)
        }
        let object = if let keys { try parser.parseObject(keeping: keys) } else { try parser.parseObjectBody() }
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

    @inline(__always) func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expectEnd() throws(RecordsError) {
        skipWhitespace()
        if index < bytes.count {
            throw RecordsError.syntax("unexpected \(describe(bytes[index])) after the JSON value", column: index + 1)
        }
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    func unexpected(_ expected: String) -> RecordsError {
        guard let byte = peek() else { return RecordsError.syntax("unexpected end of line, expected \(expected)", column: index + 1) }
        return RecordsError.syntax("unexpected \(describe(byte)), expected \(expected)", column: index + 1)
    }

    mutating func parseValue() throws(RecordsError) -> JSONValue {
        guard let byte = peek() else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObjectBody())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected("a value")
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(RecordsError) {
        let count = literal.utf8CodeUnitCount
        let start = index
        guard index + count <= bytes.count,
              memcmp(bytes.baseAddress! + index, literal.utf8Start, count) == 0
        else { throw RecordsError.syntax("invalid literal, expected \(literal)", column: start + 1) }
        index += count
    }

    mutating func enter() throws(RecordsError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw RecordsError.syntax("nesting deeper than \(Self.maximumDepth) levels", column: index + 1)
        }
    }

    mutating func parseObjectBody() throws(RecordsError) -> JSONObject {
        try enter()
        index += 1  // {
        var object = JSONObject()
        // The duplicate-key check: a 64-bit filter of the ASCII keys so far, by length and end
        // bytes, lets a key that cannot be among them skip the scan (a record's 20 keys cost 20
        // lookups, not 190 comparisons, nor a hash set of Strings). Swift compares keys by
        // canonical equivalence (the Kelvin sign is "K"), so once a key is not ASCII every key is
        // compared. Large objects switch to a hash set, so a hostile line with a million keys
        // stays linear.
        var seen: Set<String>? = nil
        var filter: UInt64 = 0, allASCII = true
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return object }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw unexpected("a quoted key") }
            let keyColumn = index + 1
            let keyName = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after the key") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            let duplicate: Bool
            if seen != nil {
                duplicate = !seen!.insert(keyName).inserted
            } else {
                let bit = allASCII ? Self.filterBit(keyName) : 0
                allASCII = bit != 0
                duplicate = (!allASCII || filter & bit != 0) && object.contains(keyName)
                filter |= bit
                if object.count >= 64 { seen = Set(object.keys + [keyName]) }
            }
            if duplicate {
                throw RecordsError.syntax("duplicate key \"\(keyName)\"", column: keyColumn)
            }
            object.appendUnchecked(keyName, value)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; depth -= 1; return object
            default: throw unexpected("',' or '}'")
            }
        }
    }

    /// A bit of 64 for an ASCII key, by its length and first and last bytes; 0 for a key that
    /// is not ASCII (or is empty).
    @inline(__always)
    static func filterBit(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bytes -> UInt64 in
            guard let first = bytes.first, let last = bytes.last else { return 0 }
            for byte in bytes where byte >= 0x80 { return 0 }
            return 1 << UInt64((bytes.count &* 7 &+ Int(first) &* 3 &+ Int(last)) & 63)
        }
    }

    mutating func parseArray() throws(RecordsError) -> [JSONValue] {
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
}
