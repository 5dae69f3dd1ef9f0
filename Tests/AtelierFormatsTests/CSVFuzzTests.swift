import AtelierRecords
import AtelierTestSupport
import Foundation
import XCTest
@testable import AtelierFormats

/// Seeded fuzzing of CSV (RFC 4180): random tables with quotes, commas, CR, LF, CRLF, embedded
/// newlines and blank lines, and marks that join a quote, survive `CSV.row` and `CSV.split`,
/// and `CSV.row` and `CSVRecordReader`, byte for byte; random mutations of CSV files give
/// records or located errors, never a crash.
/// (Named `CSVParserFuzzTests` so that `--filter ParserFuzz` selects it.)
final class CSVParserFuzzTests: XCTestCase {
    static let seed: UInt64 = 0xC5F_F022_2026

    /// The one cell of a one-row, two-column table, as the reader gives it back.
    static func readCell(_ cell: String) -> String? {
        let outcome = CSVFuzz.read(Array((CSV.row(["k", "v"]) + CSV.row(["1", cell])).utf8), defaultType: "fuzz")
        return (try? outcome.records.first?.record.get())?["v"]?.string
    }

    func testSplitReadsBackWhatRowWrites() throws {
        var random = SplitMix64(seed: Self.seed)
        for n in 0..<3000 {
            let fields = (0..<(1 + random.below(6))).map { _ in CSVFuzz.cell(&random) }
            let row = CSV.row(fields)
            XCTAssertTrue(row.utf8.elementsEqual(row.utf8.dropLast(2) + [0x0D, 0x0A]), "rows end with CRLF")
            let line = String(decoding: row.utf8.dropLast(2), as: UTF8.self)
            guard let back = try CSV.split(line) else { return XCTFail("case \(n): \(line.debugDescription) left a quote open") }
            if back.map({ Array($0.utf8) }) != fields.map({ Array($0.utf8) }) { return XCTFail("seed \(Self.seed), case \(n): \(fields) → \(line.debugDescription) → \(back)") }
        }
    }

    func testRandomTablesSurviveTheWriterAndTheRecordReader() {
        var random = SplitMix64(seed: Self.seed &+ 1)
        for n in 0..<300 {
            let columns = (0..<(1 + random.below(5))).map { "c\($0)" }
            let rows = (0..<random.below(6)).map { _ in columns.map { _ in CSVFuzz.cell(&random) } }
            let text = CSV.row(columns) + rows.map(CSV.row).joined()
            let outcome = CSVFuzz.read(Array(text.utf8), defaultType: "fuzz")
            XCTAssertNil(outcome.thrown, "case \(n)")
            // A row written as a blank line (one column, empty or only tabs) is skipped, as the
            // reader skips blank lines; every other row is a record, numbered by its first line.
            var want: [(JSONObject, Int)] = []
            var line = 2
            for row in rows {
                let physical = CSV.row(row)
                if !physical.utf8.dropLast(2).allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                    var record: JSONObject = ["type": "fuzz"]
                    for (name, cell) in zip(columns, row) where !cell.isEmpty { record[name] = .string(cell) }
                    want.append((record, line))
                }
                line += physical.utf8.count(where: { $0 == 0x0A })
            }
            let got = outcome.records.map { ((try? $0.record.get()) ?? ["error": .string("\($0.record)")], $0.line) }
            if got.count != want.count || zip(got, want).contains(where: { !Self.same($0.0, $1.0) || $0.1 != $1.1 }) {
                return XCTFail("seed \(Self.seed &+ 1), case \(n):\n  text: \(text.debugDescription)\n  got:  \(got.map { "\($1): \(JSONWriter.string($0))" })\n  want: \(want.map { "\($1): \(JSONWriter.string($0))" })")
            }
        }
    }

    /// Equal record values, strings compared scalar by scalar.
    static func same(_ a: JSONObject, _ b: JSONObject) -> Bool {
        a.count == b.count && zip(a.entries, b.entries).allSatisfy { x, y in
            x.key == y.key && (x.value.string.map { s in y.value.string.map { s.unicodeScalars.elementsEqual($0.unicodeScalars) } ?? false } ?? (x.value == y.value))
        }
    }

    func testMutatedCSVGivesRecordsOrLocatedErrors() {
        var random = SplitMix64(seed: Self.seed &+ 2)
        var failures = 0
        for n in 0..<800 {
            let columns = (0..<(1 + random.below(6))).map { _ in random.pick(CSVFuzz.garmentColumns) }
            let rows = (0..<random.below(5)).map { _ in columns.map { _ in CSVFuzz.cell(&random) } }
            let bytes = CSVFuzz.mutate(Array((CSV.row(columns) + rows.map(CSV.row).joined()).utf8), &random)
            let outcome = CSVFuzz.read(bytes, defaultType: "garment")
            let lines = bytes.count(where: { $0 == 0x0A }) + 1
            for (result, line) in outcome.records {
                XCTAssertTrue((1...lines).contains(line), "case \(n): line \(line) of \(lines)")
                switch result {
                // (A `type.x` column makes the type an object, which the importer refuses.)
                case .success(let record): XCTAssertNotNil(record["type"], "case \(n): every record has a type")
                case .failure(let error): failures += 1; XCTAssertEqual(error.line, line, "case \(n): errors name their line")
                }
            }
            if let error = outcome.thrown as? RecordsError { XCTAssertNotNil(error.line, "case \(n): \(error)") }
        }
        XCTAssertGreaterThan(failures, 50, "mutations should produce some row errors")
    }

    func testRandomCellsConvertForEveryGarmentField() {
        var random = SplitMix64(seed: Self.seed &+ 3)
        let names = Schemas.byType["garment"]!.fields.map(\.name)
        for _ in 0..<3000 {
            let columns = (0..<(1 + random.below(4))).map { _ in random.pick(names + ["price.amount", "price.currency"]) }
            let fields = columns.map { _ in CSVFuzz.cell(&random) }
            let record = CSVRecordReader.record(columns: columns, fields: fields, defaultType: "garment")
            XCTAssertNotNil(record["type"]?.string)
            _ = try? Schemas.byType["garment"]!.validate(record)  // the import's next step: no trap either
            // What the reader made, the writer can write.
            let writer = CSVRecordWriter(inferringFrom: [record])
            XCTAssertTrue(writer.row(record).hasSuffix("\r\n"))
        }
    }
}
