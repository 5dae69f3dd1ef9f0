import XCTest
@testable import AtelierRecords

final class SupportTests: XCTestCase {
    func testDaysRoundTripAndValidate() {
        XCTAssertEqual(ISODate.parseDay("1970-01-01"), 0)
        XCTAssertEqual(ISODate.formatDay(ISODate.parseDay("2024-02-29")!), "2024-02-29")
        XCTAssertNil(ISODate.parseDay("2023-02-29"))
        XCTAssertNil(ISODate.parseDay("2026-13-01"))
        XCTAssertNil(ISODate.parseDay("26-11-21"))
        XCTAssertEqual(ISODate.normalizeInstant("2026-11-21T23:30:00-01:00"), "2026-11-22T00:30:00Z")
        XCTAssertEqual(ISODate.normalizeInstant("2026-11-21T10:15:00.250Z"), "2026-11-21T10:15:00.250Z")
        XCTAssertNil(ISODate.normalizeInstant("2026-11-21T10:15:00"), "no zone is ambiguous")
    }

    func testIdsAreSortableUniqueAndReproducibleFromASeed() {
        var generator = RecordIDGenerator()
        let ids = (0..<1000).map { _ in generator.next("g") }
        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(Set(ids).count, ids.count)
        XCTAssertTrue(ids.allSatisfy { $0.count == 28 && RecordIDGenerator.isValid($0, prefix: "g") })
        var a = RecordIDGenerator(seed: 7), b = RecordIDGenerator(seed: 7)
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        XCTAssertEqual(a.next("o", at: date), b.next("o", at: date))
        XCTAssertFalse(RecordIDGenerator.isValid("o_abc", prefix: "g"))
        XCTAssertFalse(RecordIDGenerator.isValid("g_../x", prefix: "g"))
    }

    func testLineReaderSplitsAcrossChunksAndBoundsLineLength() throws {
        let path = NSTemporaryDirectory() + "lines-\(getpid()).ndjson"
        defer { unlink(path) }
        let long = String(repeating: "x", count: 3 << 20)
        try ("a\r\n\n  \n\(long)\nlast").write(toFile: path, atomically: true, encoding: .utf8)
        var seen: [(Int, Int)] = []
        try LineReader(path: path).forEachLine { (line: UnsafeRawBufferPointer, number: Int) throws(RecordsError) in seen.append((number, line.count)) }
        XCTAssertEqual(seen.map(\.0), [1, 4, 5])
        XCTAssertEqual(seen.map(\.1), [1, 3 << 20, 4])
        let small = LineReader(fd: open(path, O_RDONLY), source: "x", closeWhenDone: true, maximumLineBytes: 1 << 20)
        XCTAssertThrowsError(try small.forEachLine { (_: UnsafeRawBufferPointer, _: Int) throws(RecordsError) in }) { error in
            guard case .input(let e)? = error as? LineReaderError<RecordsError> else { return XCTFail("\(error)") }
            XCTAssertEqual(e.line, 4)
            XCTAssertTrue(e.reason.contains("longer than 1 MiB"))
        }
        XCTAssertThrowsError(try LineReader(path: "/nonexistent/x")) { guard case .input(.missing, _, _, _, _)? = $0 as? RecordsError else { return XCTFail("\($0)") } }
    }

    /// Regression: `LineReader` checked the bound when it found a `\n`, or when its buffer was
    /// full, so a last line without `\n` that fit the 1 MiB buffer was delivered whatever the
    /// bound.
    func testLineBoundAppliesToTheLastLineWithoutANewline() {
        let outcome = ParserFuzzLineReaderTests.read(Array("abcdef".utf8), chunks: [6], maximum: 2)
        XCTAssertEqual(outcome.error, 1, "a 6-byte line with a 2-byte bound, got \(outcome)")
        XCTAssertEqual(ParserFuzzLineReaderTests.read(Array("ab\nabc".utf8), chunks: [6], maximum: 2).error, 2)
        XCTAssertEqual(ParserFuzzLineReaderTests.read(Array("ab\nab".utf8), chunks: [6], maximum: 2).lines, [[0x61, 0x62], [0x61, 0x62]])
    }

    /// Regression: `ISODate.normalizeInstant` could move an instant out of years 0000–9999 with
    /// its offset, and wrote what is then no instant (`-001-…`, `10000-…`), which the catalog
    /// stored and later refused (a backup holding it would not restore).
    func testNormalisedInstantsStayInstants() {
        XCTAssertNil(ISODate.normalizeInstant("0000-01-01T00:00:00+01:00"))
        XCTAssertNil(ISODate.normalizeInstant("9999-12-31T23:59:59-01:00"))
        XCTAssertEqual(ISODate.normalizeInstant("0000-01-01T01:00:00+01:00"), "0000-01-01T00:00:00Z")
        XCTAssertEqual(ISODate.normalizeInstant("9999-12-31T22:59:59.5-01:00"), "9999-12-31T23:59:59.5Z")
    }
}
