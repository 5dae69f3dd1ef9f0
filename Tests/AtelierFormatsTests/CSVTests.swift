import AtelierRecords
import XCTest
@testable import AtelierFormats

final class CSVTests: XCTestCase {
    func testSplitAndQuoteFollowRFC4180() throws {
        XCTAssertEqual(try CSV.split(#"a,"b,c","d ""q""",,e"#), ["a", "b,c", #"d "q""#, "", "e"])
        XCTAssertNil(try CSV.split(#"a,"open"#), "an open quote continues on the next line")
        XCTAssertThrowsError(try CSV.split(#""a"b,c"#))
        XCTAssertEqual(CSV.row(["plain", "with,comma", "with \"quote\"", "line\nbreak"]), "plain,\"with,comma\",\"with \"\"quote\"\"\",\"line\nbreak\"\r\n")
    }

    func testRecordsSurviveAWriteAndReadBack() throws {
        let records: [JSONObject] = [
            ["type": "garment", "id": "g_1", "name": "Coat, camel", "category": "outerwear", "seasons": ["autumn", "winter"],
             "price": ["amount": 420, "currency": "EUR"], "composition": [["fabric": "wool", "percent": 90], ["fabric": "cashmere", "percent": 10]],
             "wearCount": 12, "notes": "say \"hi\"\nsecond line"],
            ["type": "garment", "id": "g_2", "name": "Tee", "category": "top", "wearCount": 0],
        ]
        let writer = CSVRecordWriter(inferringFrom: records)
        XCTAssertEqual(writer.columns, ["type", "id", "name", "category", "seasons", "price.amount", "price.currency", "composition", "wearCount", "notes"])
        let text = writer.header + records.map(writer.row).joined()
        let path = NSTemporaryDirectory() + "csv-\(getpid()).csv"
        defer { unlink(path) }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var back: [JSONObject] = []
        try CSVRecordReader(reader: LineReader(path: path), defaultType: "garment").forEachRecord { (result, _) throws(InputError) in
            back.append(try result.get())
        }
        XCTAssertEqual(back.count, 2)
        XCTAssertEqual(back[0]["name"], "Coat, camel")
        XCTAssertEqual(back[0]["seasons"], ["autumn", "winter"])
        XCTAssertEqual(back[0]["price"], ["amount": 420, "currency": "EUR"])
        XCTAssertEqual(back[0]["composition"], [["fabric": "wool", "percent": 90], ["fabric": "cashmere", "percent": 10]])
        XCTAssertEqual(back[0]["notes"], "say \"hi\"\nsecond line")
        XCTAssertEqual(back[1]["wearCount"], 0)
        XCTAssertNil(back[1]["seasons"], "empty cells leave the field out")
    }

    func testRowsWithTheWrongNumberOfFieldsAreReported() throws {
        let path = NSTemporaryDirectory() + "bad-\(getpid()).csv"
        defer { unlink(path) }
        try "name,category\nA,top\nB,top,extra\n".write(toFile: path, atomically: true, encoding: .utf8)
        var errors: [InputError] = []
        try CSVRecordReader(reader: LineReader(path: path), defaultType: "garment").forEachRecord { (result, _) throws(InputError) in
            if case .failure(let e) = result { errors.append(e) }
        }
        XCTAssertEqual(errors.map(\.line), [3])
        XCTAssertEqual(errors.first?.message, "row has 3 fields but the header has 2")
    }

    func testArchiveMemberNamesCannotEscape() {
        for bad in ["../x", "/etc/passwd", "a/../../b", "a//b", "a\\b", "", "a/./b", "x\u{1}"] {
            XCTAssertFalse(BackupArchive.Reader.isSafeMemberName(bad), bad)
        }
        XCTAssertTrue(BackupArchive.Reader.isSafeMemberName("images/ab/cdef.jpg"))
    }
}
