import Foundation
@testable import AtelierRecords

// Part of the JSON fuzzing support, shared with fuzz/run.sh (see ParserFuzzSupport.swift).

/// A JSON value as the reference reads it; numbers stay as their literal text, so the oracle
/// decides what the parser under test should have made of them.
indirect enum ReferenceValue {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([ReferenceValue])
    case object([(key: String, value: ReferenceValue)])
}

/// A strict RFC 8259 reader with Atelier's rules, written plainly and independently of
/// `JSONParser` (its own UTF-8 decoder, following Unicode's Table 3-7), to be the fuzz oracle.
///
/// Atelier's rules on top of RFC 8259: the line must hold one object; nesting deeper than
/// `JSONParser.maximumDepth` is refused; duplicate keys are refused, compared as Swift strings
/// (by canonical equivalence, as `JSONObject` looks keys up, so `"é"` and `"e\u0301"` collide);
/// numbers must be finite as doubles; no byte-order mark.
struct ReferenceJSON {
    /// Why the reference refuses a text; the reason matters only to explain where Foundation's
    /// more lenient `JSONSerialization` accepts.
    enum Failure: Error, Hashable {
        case syntax, trailingComma, duplicateKey, tooDeep, notAnObject, invalidUTF8, controlCharacter,
             badEscape, loneSurrogate, numberOutOfRange, leadingBOM
    }

    struct Rules {
        var maximumDepth = JSONParser.maximumDepth
        /// The `keeping:` mode: only these top-level keys are built; nil builds every key. What
        /// is not built is checked all the same.
        var keeping: Set<[UInt8]>? = nil
    }

    private let bytes: [UInt8]
    private let rules: Rules
    private var i = 0
    private var depth = 0

    private init(_ bytes: [UInt8], _ rules: Rules) {
        self.bytes = bytes
        self.rules = rules
    }

    static func parseObject(_ bytes: [UInt8], _ rules: Rules = Rules()) -> Result<[(key: String, value: ReferenceValue)], Failure> {
        var reader = ReferenceJSON(bytes, rules)
        do throws(Failure) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw .leadingBOM }
            reader.skipSpace()
            guard reader.peek == UInt8(ascii: "{") else { throw .notAnObject }
            let object = try reader.object(topLevel: true, skipped: false)
            reader.skipSpace()
            guard reader.i == bytes.count else { throw .syntax }
            return .success(object)
        } catch {
            return .failure(error)
        }
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1 }
    }

    private mutating func expect(_ byte: Character) throws(Failure) {
        guard peek == byte.asciiValue else { throw .syntax }
        i += 1
    }

    private mutating func object(topLevel: Bool, skipped: Bool) throws(Failure) -> [(key: String, value: ReferenceValue)] {
        depth += 1
        if depth > rules.maximumDepth { throw .tooDeep }
        try expect("{")
        var entries: [(key: String, value: ReferenceValue)] = []
        var checked: [String] = []  // the keys checked for duplicates so far
        skipSpace()
        if peek == UInt8(ascii: "}") { i += 1; depth -= 1; return entries }
        while true {
            skipSpace()
            guard peek == UInt8(ascii: "\"") else { throw .syntax }
            let key = try string()
            let wanted = !(topLevel && rules.keeping != nil) || rules.keeping!.contains(Array(key.utf8))
            skipSpace()
            try expect(":")
            skipSpace()
            let value = try self.value(skipped: skipped || !wanted)
            if checked.contains(key) { throw .duplicateKey }
            checked.append(key)
            if wanted && !skipped { entries.append((key, value)) }
            skipSpace()
            if peek == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                if peek == UInt8(ascii: "}") { throw .trailingComma }
                continue
            }
            try expect("}")
            depth -= 1
            return entries
        }
    }

    private mutating func array(skipped: Bool) throws(Failure) -> [ReferenceValue] {
        depth += 1
        if depth > rules.maximumDepth { throw .tooDeep }
        try expect("[")
        var items: [ReferenceValue] = []
        skipSpace()
        if peek == UInt8(ascii: "]") { i += 1; depth -= 1; return items }
        while true {
            skipSpace()
            items.append(try value(skipped: skipped))
            skipSpace()
            if peek == UInt8(ascii: ",") {
                i += 1
                skipSpace()
                if peek == UInt8(ascii: "]") { throw .trailingComma }
                continue
            }
            try expect("]")
            depth -= 1
            return items
        }
    }

    private mutating func value(skipped: Bool) throws(Failure) -> ReferenceValue {
        guard let b = peek else { throw .syntax }
        switch b {
        case UInt8(ascii: "{"): return .object(try object(topLevel: false, skipped: skipped))
        case UInt8(ascii: "["): return .array(try array(skipped: skipped))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        for c in word { try expect(c) }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, finite as a double.
    private mutating func number() throws(Failure) -> String {
        let start = i
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if peek == UInt8(ascii: "-") { i += 1 }
        guard isDigit(peek) else { throw .syntax }
        if peek == UInt8(ascii: "0") { i += 1 } else { while isDigit(peek) { i += 1 } }
        if peek == UInt8(ascii: ".") {
            i += 1
            guard isDigit(peek) else { throw .syntax }
            while isDigit(peek) { i += 1 }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            i += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
            guard isDigit(peek) else { throw .syntax }
            while isDigit(peek) { i += 1 }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard Double(text)?.isFinite == true else { throw .numberOutOfRange }
        return text
    }

    private mutating func string() throws(Failure) -> String {
        try expect("\"")
        var scalars = String.UnicodeScalarView()
        while true {
            guard let b = peek else { throw .syntax }
            i += 1
            switch b {
            case UInt8(ascii: "\""):
                return String(scalars)
            case 0x00..<0x20:
                throw .controlCharacter
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw .syntax }
                i += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let unit = try hex4()
                    if (0xDC00...0xDFFF).contains(unit) { throw .loneSurrogate }
                    if (0xD800...0xDBFF).contains(unit) {
                        guard peek == UInt8(ascii: "\\") else { throw .loneSurrogate }
                        i += 1
                        guard peek == UInt8(ascii: "u") else { throw .loneSurrogate }
                        i += 1
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw .loneSurrogate }
                        scalars.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                    } else {
                        scalars.append(Unicode.Scalar(unit)!)
                    }
                default: throw .badEscape
                }
            case 0x20..<0x80:
                scalars.append(Unicode.Scalar(b))
            default:
                scalars.append(try utf8Sequence(lead: b))
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek, let digit = UInt32(String(UnicodeScalar(b)), radix: 16) else { throw .badEscape }
            unit = unit * 16 + digit
            i += 1
        }
        return unit
    }

    /// One well-formed UTF-8 sequence after its lead byte, per Table 3-7 of the Unicode
    /// Standard: no overlongs, no surrogates, nothing above U+10FFFF.
    private mutating func utf8Sequence(lead: UInt8) throws(Failure) -> Unicode.Scalar {
        let count: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: count = 1; value = UInt32(lead & 0x1F)
        case 0xE0: count = 2; second = 0xA0...0xBF; value = UInt32(lead & 0x0F)
        case 0xE1...0xEC, 0xEE...0xEF: count = 2; value = UInt32(lead & 0x0F)
        case 0xED: count = 2; second = 0x80...0x9F; value = UInt32(lead & 0x0F)
        case 0xF0: count = 3; second = 0x90...0xBF; value = UInt32(lead & 0x07)
        case 0xF1...0xF3: count = 3; value = UInt32(lead & 0x07)
        case 0xF4: count = 3; second = 0x80...0x8F; value = UInt32(lead & 0x07)
        default: throw .invalidUTF8
        }
        for k in 0..<count {
            guard let b = peek, (k == 0 ? second : 0x80...0xBF).contains(b) else { throw .invalidUTF8 }
            value = value << 6 | UInt32(b & 0x3F)
            i += 1
        }
        return Unicode.Scalar(value)!
    }
}
