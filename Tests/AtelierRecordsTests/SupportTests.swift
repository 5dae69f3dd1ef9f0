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
        try LineReader(path: path).forEachLine { (line: UnsafeRawBufferPointer, number: Int) throws(InputError) in seen.append((number, line.count)) }
        XCTAssertEqual(seen.map(\.0), [1, 4, 5])
        XCTAssertEqual(seen.map(\.1), [1, 3 << 20, 4])
        let small = LineReader(fd: open(path, O_RDONLY), source: "x", closeWhenDone: true, maximumLineBytes: 1 << 20)
        XCTAssertThrowsError(try small.forEachLine { (_: UnsafeRawBufferPointer, _: Int) throws(InputError) in }) { error in
            guard case .input(let e)? = error as? LineReaderError<InputError> else { return XCTFail("\(error)") }
            XCTAssertEqual(e.line, 4)
            XCTAssertTrue(e.message.contains("longer than 1 MiB"))
        }
        XCTAssertThrowsError(try LineReader(path: "/nonexistent/x")) { XCTAssertEqual(($0 as? InputError)?.kind, .missing) }
    }
}
