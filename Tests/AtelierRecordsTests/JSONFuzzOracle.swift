import Foundation
@testable import AtelierRecords

// Part of the JSON fuzzing support, shared with fuzz/run.sh (see ParserFuzzSupport.swift).

/// Compares `JSONParser` with `ReferenceJSON` on one line, in every mode.
enum JSONFuzzOracle {
    /// The `keeping:` sets tried on every line: nothing, one key, the usual pair, and keys that
    /// only match when bytes are compared exactly.
    static let keepSets: [[String]] = [[], ["type"], ["type", "id"], ["a", "é", "😀"], ["b", "price", "", "\u{0}"]]

    typealias Parse = ([UInt8], [String]?) -> Result<JSONObject, RecordsError>

    /// What is wrong with how `JSONParser` (or a stand-in, to test the oracle) reads `bytes`.
    static func check(_ bytes: [UInt8], parse: Parse = JSONFuzzOracle.parse) -> String? {
        let full = parse(bytes, nil)
        if let problem = compare(full, ReferenceJSON.parseObject(bytes), mode: "parseObject", bytes) { return problem }
        for keys in keepSets {
            var rules = ReferenceJSON.Rules()
            rules.keeping = Set(keys.map { Array($0.utf8) })
            let kept = parse(bytes, keys)
            let mode = "parseObject(keeping: \(keys))"
            if let problem = compare(kept, ReferenceJSON.parseObject(bytes, rules), mode: mode, bytes) { return problem }
            // The contract itself, stated without the reference: same verdict as the full parse,
            // and the kept keys hold what the full parse built.
            switch (kept, full) {
            case (.success(let k), .success(let f)):
                let filtered = JSONObject(f.entries.filter { entry in keys.contains { Array($0.utf8) == Array(entry.key.utf8) } }.map { ($0.key, $0.value) })
                if let d = difference(.object(k), .object(filtered)) { return "\(mode) differs from the full parse: \(d)\n  input: \(describe(bytes))" }
            case (.failure, .failure): break
            default:
                return "\(mode) \(verdict(kept)) but parseObject \(verdict(full))\n  input: \(describe(bytes))"
            }
        }
        // What the parser reads, the writer writes back the same.
        if case .success(let object) = full {
            let written = Array(JSONWriter.string(object).utf8)
            let again = parse(written, nil)
            guard case .success(let reread) = again else { return "the writer's output does not parse (\(verdict(again))): \(describe(written))" }
            if let d = difference(.object(reread), .object(object), signOfZeroMatters: false) {
                return "writer round trip changed a value: \(d)\n  written: \(describe(written))"
            }
        }
        return nil
    }

    static func parse(_ bytes: [UInt8], keeping keys: [String]?) -> Result<JSONObject, RecordsError> {
        bytes.withUnsafeBytes { buffer in
            do throws(RecordsError) {
                return .success(try JSONParser.parseObject(buffer, keeping: keys.map { JSONParser.KeySet($0) }))
            } catch {
                return .failure(error)
            }
        }
    }

    static func compare(_ actual: Result<JSONObject, RecordsError>, _ expected: Result<[(key: String, value: ReferenceValue)], ReferenceJSON.Failure>,
                        mode: String, _ bytes: [UInt8]) -> String? {
        switch (actual, expected) {
        case (.success(let object), .success(let entries)):
            guard let d = difference(.object(object), .object(entries)) else { return nil }
            return "\(mode) built a different value: \(d)\n  input: \(describe(bytes))"
        case (.failure, .failure):
            return nil
        case (.success, .failure(let reason)):
            return "\(mode) accepted what the reference refuses (\(reason))\n  input: \(describe(bytes))"
        case (.failure(let error), .success):
            return "\(mode) refused what the reference accepts (\(error.reason), column \(error.column.map(String.init) ?? "?"))\n  input: \(describe(bytes))"
        }
    }

    static func verdict(_ result: Result<JSONObject, RecordsError>) -> String {
        switch result {
        case .success: return "accepts"
        case .failure(let e): return "refuses (\(e.reason), column \(e.column.map(String.init) ?? "?"))"
        }
    }

    /// What a number literal must become: an integer when it is written as one and fits in 64
    /// bits, its digits when it is written as an integer and does not, else the correctly
    /// rounded double.
    static func expectedNumber(_ text: String) -> JSONValue {
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return Int64(text).map { .int($0) } ?? .bigInteger(text) }
        return .double(Double(text)!)
    }

    /// Where `actual` and `expected` differ, or nil. Strings and keys compare scalar by scalar
    /// (not by canonical equivalence), doubles bit by bit (so -0.0 is not 0.0).
    static func difference(_ actual: JSONValue, _ expected: ReferenceValue, at path: String = "$") -> String? {
        switch (actual, expected) {
        case (.null, .null): return nil
        case (.bool(let a), .bool(let b)) where a == b: return nil
        case (_, .number(let text)):
            switch (actual, expectedNumber(text)) {
            case (.int(let a), .int(let b)) where a == b: return nil
            case (.bigInteger(let a), .bigInteger(let b)) where a == b: return nil
            case (.double(let a), .double(let b)) where a.bitPattern == b.bitPattern: return nil
            case (_, let want): return "\(path): \(actual) for the literal \(text), expected \(want)"
            }
        case (.string(let a), .string(let b)) where a.unicodeScalars.elementsEqual(b.unicodeScalars): return nil
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (n, (x, y)) in zip(a, b).enumerated() { if let d = difference(x, y, at: "\(path)[\(n)]") { return d } }
            return nil
        case (.object(let a), .object(let b)) where a.count == b.count:
            for (x, y) in zip(a.entries, b) {
                guard x.key.unicodeScalars.elementsEqual(y.key.unicodeScalars) else {
                    return "\(path): key \(x.key.debugDescription) where \(y.key.debugDescription) was expected"
                }
                if let d = difference(x.value, y.value, at: "\(path).\(x.key)") { return d }
            }
            return nil
        default:
            return "\(path): \(actual) but expected \(expected)"
        }
    }

    /// Exact equality of two parsed values (the writer round trip), -0.0 and 0.0 equal unless
    /// `signOfZeroMatters`.
    static func difference(_ a: JSONValue, _ b: JSONValue, at path: String = "$", signOfZeroMatters: Bool = true) -> String? {
        switch (a, b) {
        case (.double(let x), .double(let y)) where signOfZeroMatters ? x.bitPattern == y.bitPattern : x == y: return nil
        case (.string(let x), .string(let y)) where x.unicodeScalars.elementsEqual(y.unicodeScalars): return nil
        case (.array(let x), .array(let y)) where x.count == y.count:
            for (n, (p, q)) in zip(x, y).enumerated() {
                if let d = difference(p, q, at: "\(path)[\(n)]", signOfZeroMatters: signOfZeroMatters) { return d }
            }
            return nil
        case (.object(let x), .object(let y)) where x.count == y.count:
            for (p, q) in zip(x.entries, y.entries) {
                guard p.key.unicodeScalars.elementsEqual(q.key.unicodeScalars) else { return "\(path): key \(p.key.debugDescription) vs \(q.key.debugDescription)" }
                if let d = difference(p.value, q.value, at: "\(path).\(p.key)", signOfZeroMatters: signOfZeroMatters) { return d }
            }
            return nil
        case (.null, .null): return nil
        case (.bool(let x), .bool(let y)) where x == y: return nil
        case (.bigInteger(let x), .bigInteger(let y)) where x == y: return nil
        case (.int(let x), .int(let y)) where x == y: return nil
        default: return "\(path): \(a) vs \(b)"
        }
    }
}
