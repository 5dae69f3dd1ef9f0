import XCTest
@testable import AtelierRecords

final class JSONParserTests: XCTestCase {
    func parse(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    func syntaxError(_ text: String) -> JSONSyntaxError? {
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

    func testErrorsNameTheColumn() {
        XCTAssertEqual(syntaxError(#"{"a":1,}"#)?.column, 8)
        XCTAssertEqual(syntaxError(#"{"a" 1}"#)?.column, 6)
        XCTAssertEqual(syntaxError(#"{"a":tru}"#)?.column, 6)
        XCTAssertEqual(syntaxError(#"{"a":01}"#)?.message, "invalid number (leading zero)")
        XCTAssertEqual(syntaxError(#"{"a":1} x"#)?.column, 9)
        XCTAssertNotNil(syntaxError(#"{"a":"unterminated}"#))
        XCTAssertNotNil(syntaxError("{\"a\":\"raw\nnewline\"}"))
        XCTAssertNotNil(syntaxError(#"{"a":"\ud800"}"#), "lone surrogate")
        XCTAssertEqual(syntaxError(#"{"a":1,"a":2}"#)?.message, "duplicate key \"a\"")
    }

    func testRejectsInvalidUTF8() {
        var bytes = Array(#"{"a":"x"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        XCTAssertThrowsError(try bytes.withUnsafeMutableBytes { try JSONParser.parseObject(UnsafeRawBufferPointer($0)) }) { error in
            XCTAssertEqual((error as? JSONSyntaxError)?.message, "invalid UTF-8 in a string")
        }
        // Also in a value that is skipped rather than built.
        XCTAssertThrowsError(try bytes.withUnsafeMutableBytes { try JSONParser.parseObject(UnsafeRawBufferPointer($0), keeping: JSONParser.KeySet(["b"])) })
    }

    func testBoundsNestingDepth() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        XCTAssertTrue(syntaxError(deep)?.message.contains("nesting") ?? false)
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
}
