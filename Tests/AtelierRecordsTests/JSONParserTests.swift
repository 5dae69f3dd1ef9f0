import XCTest
@testable import AtelierRecords

final class JSONParserTests: XCTestCase {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    func syntaxError(_ text: String) -> RecordsError? {
        do { _ = try JSONParser.parse(text); return nil } catch { return error }
    }

    func testParsesEveryKindOfValue() throws {
        let value = try parse(#"{"s":"a\"b\\c\n\u00e9\ud83d\ude00","i":-42,"d":1.5e2,"t":true,"f":false,"n":null,"a":[1,[2]],"o":{"k":"v"}}"#)
        guard case .object(let o) = value else { return XCTFail("not an object") }
        XCTAssertEqual(o.keys, ["s", "i", "d", "t", "f", "n", "a", "o"])
        XCTAssertEqual(o["s"], .string("a\"b\\c\né😀"))
        XCTAssertEqual(o["i"], .int(-42))
        XCTAssertEqual(o["d"], .double(150))
        XCTAssertEqual(o["t"], .bool(true))
        XCTAssertEqual(o["n"], .null)
        XCTAssertEqual(o["a"], .array([.int(1), .array([.int(2)])]))
        XCTAssertEqual(o["o"], .object(["k": "v"]))
    }

    func testWriterRoundTripsWhatTheParserReads() throws {
        let text = #"{"name":"Tab\there","q":"\"","ctl":"\u0001","price":{"amount":12.5,"currency":"EUR"},"n":[0,-1,12.0,1e-7],"u":"é"}"#
        let value = try parse(text)
        let written = JSONWriter.string(value)
        XCTAssertEqual(try parse(written), value)
        XCTAssertTrue(written.contains(#""ctl":"\u0001""#))
        XCTAssertTrue(written.contains(#""amount":12.5"#))
    }

    /// Regression: an integer past 64 bits in a field no schema knows came out as a double
    /// (`123456789012345678901234567890` → `1.2345678901234568e+29`), losing its digits.
    func testBigIntegersKeepTheirDigits() throws {
        let text = #"{"a":123456789012345678901234567890,"b":-99999999999999999999,"c":9223372036854775807,"d":-9223372036854775808,"e":9223372036854775808}"#
        let value = try parse(text)
        XCTAssertEqual(JSONWriter.string(value), text)
        guard case .object(let o) = value else { return XCTFail("not an object") }
        XCTAssertEqual(o["a"], .bigInteger("123456789012345678901234567890"))
        XCTAssertEqual(o["c"], .int(.max))
        XCTAssertEqual(o["d"], .int(.min))
        XCTAssertEqual(o["e"]?.number, 9223372036854775808)
        XCTAssertNil(o["a"]?.integer, "too large for a count")
        XCTAssertEqual(o["a"]?.kindDescription, "a number")
    }

    func testErrorsNameTheColumn() {
        XCTAssertEqual(syntaxError(#"{"a":1,}"#)?.column, 8)
        XCTAssertEqual(syntaxError(#"{"a" 1}"#)?.column, 6)
        XCTAssertEqual(syntaxError(#"{"a":tru}"#)?.column, 6)
        XCTAssertEqual(syntaxError(#"{"a":01}"#)?.reason, "invalid number (leading zero)")
        XCTAssertEqual(syntaxError(#"{"a":1} x"#)?.column, 9)
        XCTAssertNotNil(syntaxError(#"{"a":"unterminated}"#))
        XCTAssertNotNil(syntaxError("{\"a\":\"raw\nnewline\"}"))
        XCTAssertNotNil(syntaxError(#"{"a":"\ud800"}"#), "lone surrogate")
        XCTAssertEqual(syntaxError(#"{"a":1,"a":2}"#)?.reason, "duplicate key \"a\"")
    }

    /// Duplicate keys are found wherever they are: among a record's many keys (where a filter
    /// spares most comparisons), past the size where a hash set takes over, between keys the
    /// filter cannot tell apart, and between keys Swift finds equal though their bytes differ
    /// (the Kelvin sign is "K"; "é" precomposed or not).
    func testFindsDuplicateKeysAmongManyAndAcrossSpellings() {
        let keys = (0 ..< 100).map { "field\($0)" }
        for count in [2, 20, 63, 64, 65, 100] {
            for duplicate in [0, count / 2, count - 1] {
                let fields = (keys.prefix(count) + [keys[duplicate]]).map { "\"\($0)\":1" }.joined(separator: ",")
                XCTAssertEqual(syntaxError("{\(fields)}")?.reason, "duplicate key \"\(keys[duplicate])\"", "\(count) keys")
                let unique = keys.prefix(count).map { "\"\($0)\":1" }.joined(separator: ",")
                XCTAssertNil(syntaxError("{\(unique)}"), "\(count) keys, none twice")
            }
        }
        // Same length, first and last byte: one filter bit, told apart by the comparison.
        XCTAssertNil(syntaxError(#"{"axb":1,"ayb":2,"azb":3}"#))
        XCTAssertNotNil(syntaxError(#"{"axb":1,"ayb":2,"axb":3}"#))
        XCTAssertEqual(syntaxError("{\"a\":1,\"K\":2,\"b\":3,\"\u{212A}\":4}")?.reason, "duplicate key \"\u{212A}\"")
        XCTAssertEqual(syntaxError("{\"\u{212A}\":1,\"a\":2,\"K\":3}")?.reason, "duplicate key \"K\"")
        XCTAssertNotNil(syntaxError("{\"caf\u{E9}\":1,\"x\":2,\"cafe\u{301}\":3}"))
        XCTAssertNil(syntaxError(#"{"":1,"a":2}"#))
        XCTAssertNotNil(syntaxError(#"{"":1,"a":2,"":3}"#))
    }

    func testRejectsInvalidUTF8() {
        var bytes = Array(#"{"a":"x"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        XCTAssertThrowsError(try bytes.withUnsafeMutableBytes { try JSONParser.parseObject(UnsafeRawBufferPointer($0)) }) { error in
            XCTAssertEqual((error as? RecordsError)?.reason, "invalid UTF-8 in a string")
        }
        // Also in a value that is skipped rather than built.
        XCTAssertThrowsError(try bytes.withUnsafeMutableBytes { try JSONParser.parseObject(UnsafeRawBufferPointer($0), keeping: JSONParser.KeySet(["b"])) })
    }

    func testBoundsNestingDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertTrue(syntaxError(deep)?.reason.contains("nesting") ?? false)
    }

    func testKeepingOnlySomeKeysStillValidates() throws {
        var line = Array(#"{"type":"garment","big":{"x":[1,2,{"y":"z"}]},"category":"top"}"#.utf8)
        let object = try line.withUnsafeMutableBytes { try JSONParser.parseObject(UnsafeRawBufferPointer($0), keeping: JSONParser.KeySet(["category"])) }
        XCTAssertEqual(object.keys, ["category"])
        var bad = Array(#"{"big":{"x":[1,2,}],"category":"top"}"#.utf8)
        XCTAssertThrowsError(try bad.withUnsafeMutableBytes { try JSONParser.parseObject(UnsafeRawBufferPointer($0), keeping: JSONParser.KeySet(["category"])) })
    }

    func testLargeObjectsCheckDuplicatesInLinearTime() throws {
        let keys = (0..<50_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        guard case .object(let o) = try parse("{\(keys)}") else { return XCTFail() }
        XCTAssertEqual(o.count, 50_000)
        XCTAssertNotNil(syntaxError("{\(keys),\"k7\":1}"))
    }

    func kept(_ bytes: [UInt8], _ keys: [String] = ["type"]) -> Result<JSONObject, RecordsError> {
        JSONFuzzOracle.parse(bytes, keeping: keys)
    }

    /// Regression: `parseObject(_:keeping:)` checked the UTF-8 of the keys it built, but not of
    /// those it skipped, a top-level key it did not keep or any key inside a skipped value, and
    /// so accepted lines the full parse refuses.
    func testKeepingModeRefusesInvalidUTF8InSkippedKeys() {
        XCTAssertThrowsError(try kept([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]).get(), #"{"\xFF":1}"#)
        XCTAssertThrowsError(try kept(Array(#"{"b":{""#.utf8) + [0xC0, 0xAF] + Array(#"":1}}"#.utf8)).get(), #"{"b":{"\xC0\xAF":1}}"#)
        XCTAssertThrowsError(try kept(Array(#"{"b":[{""#.utf8) + [0xED, 0xA0, 0x80] + Array(#"":1}]}"#.utf8)).get(), "a surrogate, in an array")
        XCTAssertNoThrow(try kept(Array(#"{"b":{"é":1,"😀":2},"type":"x"}"#.utf8)).get(), "valid UTF-8 in skipped keys")
    }

    /// Regression: `parseObject(_:keeping:)` refused duplicate keys among those it built only: a
    /// line the full parse refuses was accepted when the duplicates were skipped. Keys compare
    /// as the full parse compares them, as Swift Strings: escapes decoded, and canonically
    /// equivalent spellings equal (`"\u212A"`, the Kelvin sign, is `K`).
    func testKeepingModeRefusesDuplicateSkippedKeys() {
        for line in [#"{"a":1,"a":2}"#, #"{"type":"x","b":{"k":1,"k":2}}"#, #"{"b":[{"k":1,"k":2}],"type":"x"}"#,
                     #"{"a":1,"\u0061":2}"#, #"{"K":1,"\u212A":2}"#, "{\"K\":1,\"\u{212A}\":2}", "{\"é\":1,\"e\u{301}\":2}",
                     #"{"type":"x","type":"y"}"#] {
            XCTAssertThrowsError(try kept(Array(line.utf8)).get(), line)
        }
        // Past the byte-compared fast path (32 keys an object), and with keys that share their
        // length and ends, so that the hash filter lets them through to the byte comparison.
        let many = (0..<40).map { #""k\#($0)x":\#($0)"# }.joined(separator: ",")
        XCTAssertNoThrow(try kept(Array("{\(many),\"type\":1}".utf8)).get())
        XCTAssertThrowsError(try kept(Array("{\(many),\"k7x\":1}".utf8)).get())
        XCTAssertThrowsError(try kept(Array("{\"b\":{\(many),\"k39x\":1}}".utf8)).get())
        let similar = (0..<10).map { #""abcdefgh\#($0)ijklmnop":\#($0)"# }.joined(separator: ",")
        XCTAssertNoThrow(try kept(Array("{\(similar)}".utf8)).get())
        XCTAssertThrowsError(try kept(Array("{\(similar),\"abcdefgh3ijklmnop\":0}".utf8)).get())
        XCTAssertNoThrow(try kept(Array(#"{"a":{"k":1},"b":{"k":2},"k":3}"#.utf8)).get(), "the same key in sibling objects")
    }
}
