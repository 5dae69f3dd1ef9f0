import AtelierTestSupport
import Foundation
@testable import AtelierRecords

// Shared by the seeded fuzz tests and by the libFuzzer harness (fuzz/run.sh compiles this file,
// ReferenceJSON.swift and JSONFuzzOracle.swift with the sources and AtelierTestSupport's draws
// and mutator as one module, dropping the imports above): random JSON texts and their mutations.

// MARK: - Generating JSON text

/// Random JSON object texts, written directly as bytes with random spacing, escaping and number
/// shapes, so the reference reader (not the generator) says what they mean.
struct JSONTextGenerator {
    var random: SplitMix64

    static let keyPool = ["type", "id", "a", "b", "name", "", "é", "e\u{301}", "ключ", "😀", "a\"b", "\\",
                          "\u{0}", "tab\t", "/", "\u{2028}", "price", "seasons"]
    /// Scalars of every class a string can hold: ASCII, what must be escaped, multi-byte, astral.
    static let scalarPool: [Unicode.Scalar] = [
        "a", "z", "Q", "0", " ", "~", "\"", "\\", "/", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}",
        "\u{7F}", "\u{80}", "é", "ß", "中", "\u{301}", "\u{2028}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{E000}",
        "😀", "𝄞", "\u{10000}", "\u{10FFFF}",
    ]
    static let numberPool = [
        "0", "-0", "-0.0", "0.0", "1", "-1", "42", "9223372036854775807", "-9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "18446744073709551616", "123456789012345678901234567890",
        "1e308", "-1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "5e-324",
        "2.4703282292062327e-324", "1e-400", "0e9999", "-0e0", "1E+2", "1e-2", "0.1", "3.14159", "1.5e2",
        "0.30000000000000004", "100e-2",
    ]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// One object text; `deep` sometimes buries a value near the nesting bound.
    mutating func objectText() -> [UInt8] {
        var out: [UInt8] = []
        space(&out)
        if random.chance(percent: 4) {
            deepValue(levels: JSONParser.maximumDepth - 2 + random.below(5), into: &out)
        } else {
            object(depth: 1, into: &out)
        }
        space(&out)
        return out
    }

    mutating func space(_ out: inout [UInt8]) {
        guard random.chance(percent: 15) else { return }
        for _ in 0...random.below(3) { out.append(random.pick([0x20, 0x09, 0x0A, 0x0D])) }
    }

    mutating func object(depth: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        let count = random.chance(percent: 15) ? 0 : 1 + random.below(depth == 1 ? 7 : 4)
        // Mostly distinct keys; sometimes whatever the pool gives, duplicates included.
        var keys = Self.keyPool.shuffled(using: &random)
        if random.chance(percent: 15) { keys = (0..<count).map { _ in random.pick(Self.keyPool) } }
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            space(&out)
            string(i < keys.count ? keys[i] : "k\(i)", into: &out)
            space(&out)
            out.append(UInt8(ascii: ":"))
            space(&out)
            value(depth: depth, into: &out)
            space(&out)
        }
        out.append(UInt8(ascii: "}"))
    }

    mutating func value(depth: Int, into out: inout [UInt8]) {
        let nested = depth < 6
        switch random.below(nested ? 10 : 7) {
        case 0: out.append(contentsOf: Array(random.pick(["true", "false", "null"]).utf8))
        case 1, 2: number(into: &out)
        case 3, 4, 5, 6:
            let length = random.below(random.chance(percent: 10) ? 40 : 8)
            string(String(String.UnicodeScalarView((0..<length).map { _ in random.pick(Self.scalarPool) })), into: &out)
        case 7, 8: array(depth: depth + 1, into: &out)
        default: object(depth: depth + 1, into: &out)
        }
    }

    mutating func array(depth: Int, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        let count = random.chance(percent: 20) ? 0 : 1 + random.below(4)
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            space(&out)
            value(depth: depth, into: &out)
            space(&out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `{"k":[[{"k":…}]]}` nested `levels` deep in all, arrays and objects mixed.
    mutating func deepValue(levels: Int, into out: inout [UInt8]) {
        var closers: [UInt8] = []
        for level in 0..<levels {
            if level == 0 || random.chance(percent: 50) {
                out.append(contentsOf: Array(#"{"\#(random.pick(["a", "type", "z"]))":"#.utf8))
                closers.append(UInt8(ascii: "}"))
            } else {
                out.append(UInt8(ascii: "["))
                closers.append(UInt8(ascii: "]"))
            }
        }
        out.append(contentsOf: Array("1".utf8))
        out.append(contentsOf: closers.reversed())
    }

    /// A number from the pool of edge cases, or composed of random parts.
    mutating func number(into out: inout [UInt8]) {
        if random.chance(percent: 40) { out.append(contentsOf: Array(random.pick(Self.numberPool).utf8)); return }
        var text = random.chance(percent: 30) ? "-" : ""
        if random.chance(percent: 25) {
            text += "0"
        } else {
            text += String(1 + random.below(9))
            for _ in 0..<random.below(random.chance(percent: 10) ? 30 : 6) { text += String(random.below(10)) }
        }
        if random.chance(percent: 40) {
            text += "."
            for _ in 0...random.below(18) { text += String(random.below(10)) }
        }
        if random.chance(percent: 30) {
            text += random.pick(["e", "E", "e+", "e-", "E-"])
            for _ in 0...random.below(3) { text += String(random.below(10)) }
        }
        out.append(contentsOf: Array(text.utf8))
    }

    /// A string literal: what must be escaped is, the rest is escaped at random (`\uXXXX` with
    /// either case of hex, surrogate pairs for astral scalars, `\/`) or written as raw UTF-8.
    mutating func string(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for scalar in s.unicodeScalars {
            let v = scalar.value
            let short: [UInt32: String] = [0x22: "\\\"", 0x5C: "\\\\", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"]
            if let escape = short[v], v < 0x20 || v == 0x22 || v == 0x5C, random.chance(percent: 70) {
                out.append(contentsOf: Array(escape.utf8))
            } else if v < 0x20 || v == 0x22 || v == 0x5C || random.chance(percent: 15) {
                let upper = random.chance(percent: 50)
                func hex(_ unit: UInt32) -> String {
                    let digits = String(unit, radix: 16, uppercase: upper)
                    return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                }
                if v >= 0x10000 {
                    let offset = v - 0x10000
                    out.append(contentsOf: Array((hex(0xD800 + (offset >> 10)) + hex(0xDC00 + (offset & 0x3FF))).utf8))
                } else {
                    out.append(contentsOf: Array(hex(v).utf8))
                }
            } else if v == 0x2F, random.chance(percent: 30) {
                out.append(contentsOf: Array("\\/".utf8))
            } else {
                out.append(contentsOf: Array(String(scalar).utf8))
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Bytes that break JSON in interesting ways: structure, escapes, control bytes, UTF-8 that
    /// is overlong, a surrogate, beyond U+10FFFF, truncated, or never valid.
    static let mutationTokens: [[UInt8]] = [
        [0x22], [0x7B], [0x7D], [0x5B], [0x5D], [0x2C], [0x3A], [0x5C], Array("\\u".utf8), Array("\\ud800".utf8),
        Array("\\udc00".utf8), Array("\\uD83D\\uDE00".utf8), [0x30], [0x2D], [0x2E], [0x65], Array("true".utf8),
        Array("null".utf8), [0x00], [0x09], [0x0A], [0x0D], [0x0C], [0x1F], [0x7F], [0x80], [0xBF], [0xC0, 0xAF],
        [0xC1, 0xBF], [0xC3], [0xE0, 0x80, 0xAF], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xEF, 0xBB, 0xBF],
        [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xF8], [0xFE], [0xFF],
    ]

    /// One to three random edits (`ByteMutator`) with those tokens.
    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        ByteMutator(tokens: Self.mutationTokens, longestRepeat: 12).mutate(input, &random)
    }
}

/// Bytes as a Swift literal would show them, invalid UTF-8 as `\xNN`; long inputs shortened.
func describe(_ bytes: [UInt8], limit: Int = 400) -> String {
    var out = "\""
    var i = 0
    while i < bytes.count && out.count < limit {
        let b = bytes[i]
        switch b {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x20..<0x7F: out.append(Character(Unicode.Scalar(b)))
        case 0x80...:
            // A whole valid sequence prints as itself.
            var end = i + 1
            while end < bytes.count && end < i + 4 && bytes[end] & 0xC0 == 0x80 { end += 1 }
            if let s = String(validating: bytes[i..<end], as: UTF8.self) {
                out += s
                i = end
                continue
            }
            out += String(format: "\\x%02X", b)
        default: out += String(format: "\\x%02X", b)
        }
        i += 1
    }
    if i < bytes.count { out += "…(\(bytes.count) bytes)" }
    return out + "\""
}
