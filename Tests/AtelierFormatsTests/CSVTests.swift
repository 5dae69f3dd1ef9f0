import AtelierRecords
import Foundation
import AtelierTestSupport
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
        try CSVRecordReader(reader: LineReader(path: path), defaultType: "garment").forEachRecord { (result, _) throws(RecordsError) in
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
        var errors: [RecordsError] = []
        try CSVRecordReader(reader: LineReader(path: path), defaultType: "garment").forEachRecord { (result, _) throws(RecordsError) in
            if case .failure(let e) = result { errors.append(e) }
        }
        XCTAssertEqual(errors.map(\.line), [3])
        XCTAssertEqual(errors.first?.reason, "row has 3 fields but the header has 2")
    }

    /// Regression: a header naming one field twice (`name,category,name`) was accepted and the
    /// last column won, where NDJSON refuses a duplicate key; so was a column inside another
    /// (`price` and `price.amount`).
    func testCSVHeaderWithARepeatedColumnIsRefused() throws {
        for (header, words) in [("name,category,name", "repeats column 1"), ("price,category,price.amount", "both set \"price\""),
                                ("price.amount,price", "both set \"price\""), (" name ,name", "repeats column 1")] {
            let outcome = CSVFuzz.read(Array("\(header)\nA,top,B\n".utf8), defaultType: "garment")
            let error = outcome.thrown as? RecordsError
            XCTAssertEqual(error?.line, 1, header)
            XCTAssertTrue(error?.reason.contains(words) ?? false, "\(header): \(String(describing: outcome.thrown))")
            XCTAssertTrue(outcome.records.isEmpty, header)
        }
        let good = CSVFuzz.read(Array("price.amount,price.currency\n1,EUR\n".utf8), defaultType: "garment")
        XCTAssertNil(good.thrown)
        XCTAssertEqual(good.records.count, 1)
    }

    /// Regression: `CSV.quote` doubled quotes with `replacingOccurrences(of: "\"", …)`, which
    /// matches whole Characters: a `"` joined by a following combining mark (or after a
    /// prepended mark) was left single, so the row was malformed. `atl-export --format csv` of a
    /// garment named `x"\u{301},=HYPERLINK(…)` read back in Python's csv module (and
    /// spreadsheets) with an extra cell `=HYPERLINK(…)`: cell injection.
    func testCSVQuoteDoublesAQuoteJoinedByACombiningMark() {
        for fields in [["x\"\u{301},=HYPERLINK(\"http://e.x\")", "top"], ["\u{600}\"", "a"], [" \u{301}", "\u{301} "]] {
            let line = String(decoding: CSV.row(fields).utf8.dropLast(2), as: UTF8.self)
            XCTAssertEqual(((try? CSV.split(line)) ?? nil)?.map { Array($0.utf8) }, fields.map { Array($0.utf8) }, line.debugDescription)
        }
        XCTAssertEqual(CSV.quote(" \u{301}"), "\" \u{301}\"", "a leading space is found on bytes too")
    }

    /// Regression: `CSVRecordReader.record` split a header name on `.` and took `path[0]`: a
    /// name made of dots only (`.`, `..`, ` . `) had no components, and the first row with a
    /// value in that column trapped. `atl-import --format csv` on `id,.\n1,x\n` crashed. Such a
    /// header is now a data error naming the input, the line and the column.
    func testCSVHeaderOfOnlyDotsDoesNotCrash() throws {
        try assertNoCrash("a CSV header named \".\"") {
            for header in [".", "..", " . ", "a.", ".a", "a..b"] {
                let outcome = CSVFuzz.read(Array("id,\(header)\n1,x\n".utf8), defaultType: "garment")
                let error = outcome.thrown as? RecordsError
                XCTAssertEqual(error?.line, 1, header)
                XCTAssertEqual(error?.source, "fuzz", header)
                XCTAssertTrue(error?.reason.contains("header column 2") ?? false, "\(String(describing: error))")
            }
            XCTAssertEqual(try CSVFuzz.read(Array("id,a.b.c\n1,x\n".utf8), defaultType: "garment").records.first?.record.get()["a"],
                           ["b": ["c": "x"]], "dotted names still nest")
        }
    }

    /// Regression: `CSVRecordReader.forEachRecord` kept a quoted field that spans lines as one
    /// growing String, joined each new line to it and split the whole of it again: quadratic
    /// time, and no bound on its size. One stray `"` near the top of a 400 kB file took 7.5 s in
    /// a release build (800 kB: 21 s); a few MB effectively hung `atl-import`.
    func testCSVWithAnUnclosedQuoteReadsInLinearTime() throws {
        try assertNoCrash("a 400 kB CSV with an unclosed quote", timeoutSeconds: 3) {
            let text = "name,notes\nx,\"" + String(repeating: String(repeating: "a", count: 99) + "\n", count: 4000)
            let outcome = CSVFuzz.read(Array(text.utf8), defaultType: "garment")
            XCTAssertEqual(outcome.records.count, 1)
            XCTAssertEqual(outcome.records.first.map { "\($0.record)" }?.contains("the quote opened on line 2 is never closed"), true)
        }
    }

    /// The bound that goes with it: a row may not grow past the line bound (8 MiB by default),
    /// and the error names the line where the quote opened.
    func testAQuotedFieldPastTheBoundIsAnErrorAtItsQuote() throws {
        let text = "name,notes\nx,y\nx,\"" + String(repeating: String(repeating: "a", count: 99) + "\n", count: 40)
        let (readEnd, waitForWriter) = feedThroughPipe(Array(text.utf8))
        defer { waitForWriter() }
        let reader = CSVRecordReader(reader: LineReader(fd: readEnd, source: "notes.csv", closeWhenDone: true, maximumLineBytes: 1000),
                                     defaultType: "garment")
        var records = 0
        XCTAssertThrowsError(try reader.forEachRecord { (result, _) throws(RecordsError) in _ = try result.get(); records += 1 }) { error in
            XCTAssertEqual("\(error)", "notes.csv:3: the quoted field that opens on this line runs past 1000 bytes; is its closing quote missing?")
        }
        XCTAssertEqual(records, 1)
    }

    /// Regression: `LineReader` skips blank lines, and `CSVRecordReader` read quoted fields
    /// through it line by line: an empty (or spaces-only) line inside a quoted field vanished.
    func testCSVKeepsBlankLinesInsideQuotedFields() {
        XCTAssertEqual(CSVParserFuzzTests.readCell("para 1\n\npara 2"), "para 1\n\npara 2")
        XCTAssertEqual(CSVParserFuzzTests.readCell("a\n   \nb"), "a\n   \nb")
        XCTAssertEqual(CSVParserFuzzTests.readCell("\n\n"), "\n\n")
    }

    /// Regression: `LineReader` drops the `\r` before each `\n`, so a CRLF inside a quoted field
    /// (RFC 4180 allows one) came back as LF.
    func testCSVKeepsCRLFInsideQuotedFields() {
        XCTAssertEqual(CSVParserFuzzTests.readCell("line 1\r\nline 2").map { Array($0.utf8) }, Array("line 1\r\nline 2".utf8))
        XCTAssertEqual(CSVParserFuzzTests.readCell("a\r\n\r\nb\n").map { Array($0.utf8) }, Array("a\r\n\r\nb\n".utf8))
        XCTAssertEqual(CSVParserFuzzTests.readCell("ends in CR\r").map { Array($0.utf8) }, Array("ends in CR\r".utf8))
    }
}
