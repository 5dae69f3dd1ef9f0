import Foundation
import XCTest
@testable import AtelierRecords

/// Seeded differential fuzzing of `JSONParser.parseObject`: random lines and random mutations of
/// them must be read exactly as `ReferenceJSON` (a strict RFC 8259 reader with Atelier's rules)
/// reads them, in full and in every `keeping:` mode, and the reference must agree with
/// Foundation's `JSONSerialization` except where that one is documented to be lenient.
/// A failure prints the seed, the iteration and the input: rerun with the same seed to see it.
final class ParserFuzzTests: XCTestCase {
    static let seed: UInt64 = 0xA7E1_1E8F_2026

    func testGeneratedLinesParseExactlyLikeTheReference() {
        var generator = JSONTextGenerator(seed: Self.seed)
        var accepted = 0
        for n in 0..<1500 {
            let line = generator.objectText()
            if let problem = JSONFuzzOracle.check(line) {
                return XCTFail("seed \(Self.seed), line \(n): \(problem)")
            }
            if case .success = ReferenceJSON.parseObject(line) { accepted += 1 }
        }
        // Guard against a generator that only makes junk: most generated lines are valid.
        XCTAssertGreaterThan(accepted, 1000, "the generator should mostly make valid lines")
    }

    func testMutatedLinesParseExactlyLikeTheReference() {
        var generator = JSONTextGenerator(seed: Self.seed &+ 1)
        var accepted = 0
        for n in 0..<5000 {
            let line = generator.mutate(generator.objectText())
            if let problem = JSONFuzzOracle.check(line) {
                return XCTFail("seed \(Self.seed &+ 1), mutation \(n): \(problem)")
            }
            if case .success = ReferenceJSON.parseObject(line) { accepted += 1 }
        }
        // Both verdicts must be well represented for the comparison to mean something.
        XCTAssertGreaterThan(accepted, 250)
        XCTAssertLessThan(accepted, 4000)
    }

    func testNestingAtTheBoundInKeptAndSkippedValues() {
        let bound = JSONParser.maximumDepth
        for levels in [bound - 1, bound, bound + 1, bound + 50] {
            for opener in ["[", "{\"k\":"] {
                let closer = opener == "[" ? "]" : "}"
                // `levels` counts the outer object: JSONParser's depth of the innermost value.
                let inner = String(repeating: opener, count: levels - 1) + "0" + String(repeating: closer, count: levels - 1)
                for line in [#"{"type":\#(inner)}"#, #"{"skipped":\#(inner),"type":1}"#] {
                    let bytes = Array(line.utf8)
                    if let problem = JSONFuzzOracle.check(bytes) { XCTFail("depth \(levels): \(problem)") }
                    let accepted = (try? JSONFuzzOracle.parse(bytes, keeping: nil).get()) != nil
                    XCTAssertEqual(accepted, levels <= bound, "depth \(levels) with \(opener)")
                }
            }
        }
    }

    /// JSONSerialization on Linux (swift-corelibs-foundation) differs from RFC 8259 and from
    /// Atelier's rules in these ways, all of which the comparison allows and counts:
    /// - it accepts trailing commas, `{"a":1,}` and `[1,]`;
    /// - it accepts duplicate keys (the last one wins), which Atelier refuses;
    /// - it allows nesting to 512 levels, Atelier to `JSONParser.maximumDepth` (256);
    /// - it skips a leading byte-order mark and guesses UTF-16/32 from NUL bytes in the first
    ///   four bytes, where an NDJSON line is UTF-8 without a BOM;
    /// - it accepts top-level arrays (compared here only when it returns an object);
    /// - it converts some decimals through `Decimal` and is then off by an ulp or so
    ///   (`0.30000000000000004` → 0.3000000000000001): numbers compare to a relative 1e-14;
    ///   near the largest double it sometimes accepts a literal that rounds to infinity
    ///   (`[1.7976931348623159e308]` inside an array), which strtod and the reference refuse;
    /// - it drops a raw (unescaped) U+FEFF at the start of a string or key or right after an
    ///   escape sequence, taking it for a byte-order mark (`"\u{FEFF}x"` and `"\t\u{FEFF}"`
    ///   lose it; `"\ufeffx"` keeps it): strings compare with U+FEFF removed;
    /// - its dictionaries lose key order, so objects compare by key.
    func testReferenceAgreesWithJSONSerializationWhereThatIsStrict() {
        var generator = JSONTextGenerator(seed: Self.seed &+ 2)
        var leniencies: [ReferenceJSON.Failure: Int] = [:]
        // One line per leniency, so that each allowance below is shown to be needed.
        let lenientLines = [#"{"a":1,}"#, #"{"a":[1,]}"#, #"{"a":1,"a":2}"#, "\u{FEFF}{\"a\":1}",
                            "{\"a\":" + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}",
                            #"{"a":[1.7976931348623159e308]}"#].map { Array($0.utf8) }
        for n in 0..<2000 + lenientLines.count {
            let line = n >= 2000 ? lenientLines[n - 2000] : n % 2 == 0 ? generator.objectText() : generator.mutate(generator.objectText())
            let reference = ReferenceJSON.parseObject(line)
            let foundation = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any]
            switch (reference, foundation) {
            case (.success(let entries), let object?):
                if let d = Self.foundationDifference(object, .object(entries)) {
                    return XCTFail("seed \(Self.seed &+ 2), line \(n): JSONSerialization read \(d)\n  input: \(describe(line))")
                }
            case (.success, nil):
                return XCTFail("seed \(Self.seed &+ 2), line \(n): JSONSerialization refuses what the reference accepts\n  input: \(describe(line))")
            case (.failure(let reason), _?):
                let guessesEncoding = line.prefix(4).contains(0) || line.starts(with: [0xFE, 0xFF]) || line.starts(with: [0xFF, 0xFE])
                guard [.trailingComma, .duplicateKey, .tooDeep, .leadingBOM, .numberOutOfRange].contains(reason) || guessesEncoding else {
                    return XCTFail("seed \(Self.seed &+ 2), line \(n): JSONSerialization accepts what the reference refuses (\(reason))\n  input: \(describe(line))")
                }
                leniencies[reason, default: 0] += 1
            case (.failure, nil):
                break
            }
        }
        XCTAssertEqual(leniencies.keys.sorted { "\($0)" < "\($1)" }, [.duplicateKey, .leadingBOM, .numberOutOfRange, .tooDeep, .trailingComma],
                       "each documented leniency occurs, so none of the allowances is dead")
    }

    /// Where a JSONSerialization result differs from the reference's reading, or nil.
    static func foundationDifference(_ any: Any, _ expected: ReferenceValue, at path: String = "$") -> String? {
        switch expected {
        case .null:
            return any is NSNull ? nil : "\(path): \(any) for null"
        case .bool(let b):
            return (any as? Bool) == b ? nil : "\(path): \(any) for \(b)"
        case .number(let text):
            guard let got = (any as? NSNumber)?.doubleValue else { return "\(path): \(any) for the number \(text)" }
            let want = Double(text)!
            let close = got == want || abs(got - want) <= 1e-14 * max(abs(got), abs(want)) || max(abs(got), abs(want)) < 1e-300
            return close ? nil : "\(path): \(got) for the number \(text)"
        case .string(let s):
            guard let got = any as? String, Self.sameIgnoringBOM(got, s) else {
                return "\(path): \(any) for the string \(s.debugDescription)"
            }
            return nil
        case .array(let items):
            guard let got = any as? [Any], got.count == items.count else { return "\(path): \(any) for an array of \(items.count)" }
            for (n, (x, y)) in zip(got, items).enumerated() {
                if let d = foundationDifference(x, y, at: "\(path)[\(n)]") { return d }
            }
            return nil
        case .object(let entries):
            guard let got = any as? [String: Any], got.count == entries.count else { return "\(path): \(any) for an object of \(entries.count)" }
            for entry in entries {
                guard let key = got.keys.first(where: { sameIgnoringBOM($0, entry.key) }) else {
                    return "\(path): no key \(entry.key.debugDescription)"
                }
                if let d = foundationDifference(got[key]!, entry.value, at: "\(path).\(key)") { return d }
            }
            return nil
        }
    }

    static func sameIgnoringBOM(_ a: String, _ b: String) -> Bool {
        a.unicodeScalars.filter { $0 != "\u{FEFF}" }.elementsEqual(b.unicodeScalars.filter { $0 != "\u{FEFF}" })
    }

    /// The oracle must catch a broken parser: each stand-in below has one planted defect, and
    /// checking the usual corpus against it must report a problem.
    func testTheOracleCatchesPlantedDefects() {
        let planted: [(String, JSONFuzzOracle.Parse)] = [
            ("accepts trailing commas", { bytes, keys in
                var fixed = bytes
                while let at = fixed.indices.dropLast().first(where: { fixed[$0] == UInt8(ascii: ",") && (fixed[$0 + 1] == UInt8(ascii: "}") || fixed[$0 + 1] == UInt8(ascii: "]")) }) {
                    fixed.remove(at: at)
                }
                return JSONFuzzOracle.parse(fixed, keeping: keys)
            }),
            ("skips UTF-8 validation", { bytes, keys in
                JSONFuzzOracle.parse(Array(String(decoding: bytes, as: UTF8.self).utf8), keeping: keys)
            }),
            ("loses the sign of -0.0", { bytes, keys in
                JSONFuzzOracle.parse(bytes, keeping: keys).map { object in
                    JSONObject(object.entries.map { ($0.key, $0.value == .double(0) ? .double(0) : $0.value) })
                }
            }),
            ("refuses the 256th level", { bytes, keys in
                var depth = 0
                var deepest = 0
                for b in bytes {
                    if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { depth += 1; deepest = max(deepest, depth) }
                    if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") { depth -= 1 }
                }
                if deepest == JSONParser.maximumDepth { return .failure(RecordsError.syntax("planted", column: 1)) }
                return JSONFuzzOracle.parse(bytes, keeping: keys)
            }),
            ("keeping: builds one key too many", { bytes, keys in
                guard let keys else { return JSONFuzzOracle.parse(bytes, keeping: nil) }
                return JSONFuzzOracle.parse(bytes, keeping: keys + ["id"])
            }),
            ("keeping: accepts any braced line", { bytes, keys in
                if keys != nil, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") { return .success(JSONObject()) }
                return JSONFuzzOracle.parse(bytes, keeping: keys)
            }),
        ]
        // A few lines that hold each planted defect's trigger, then the usual corpus.
        let edges = [#"{"a":1,}"#, #"{"a":[1,]}"#, #"{"a":-0.0}"#, #"{"id":1,"a":2}"#, #"{"a":"\#u{E9}"}"#,
                     "{\"a\":" + String(repeating: "[", count: JSONParser.maximumDepth - 1) + String(repeating: "]", count: JSONParser.maximumDepth - 1) + "}"]
            .map { Array($0.utf8) }
        for (defect, parse) in planted {
            var generator = JSONTextGenerator(seed: Self.seed &+ 3)
            var caught = false
            for n in 0..<(edges.count + 3000) where !caught {
                let line = n < edges.count ? edges[n] : n % 2 == 0 ? generator.objectText() : generator.mutate(generator.objectText())
                caught = JSONFuzzOracle.check(line, parse: parse) != nil
            }
            XCTAssertTrue(caught, "the oracle missed a parser that \(defect)")
        }
    }
}
