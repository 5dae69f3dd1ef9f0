import Foundation
@testable import AtelierFormats
@testable import AtelierRecords

// libFuzzer harness for CSV (build and run with `fuzz/run.sh csv SECONDS`).
//
// Every input is a CSV file. The bytes go to `CSV.split` as one logical row (what it returns,
// `CSV.row` must write back so that `CSV.split` reads the same), then through a pipe to
// `CSVRecordReader` with the garment schema, so header handling, dotted columns and every cell
// conversion run; each record must have a type, and the writer and the schema's validation
// must take it. A disagreement aborts; AddressSanitizer and Swift's traps catch the rest.

let ignoringSIGPIPE: Bool = { signal(SIGPIPE, SIG_IGN); return true }()

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    FileHandle.standardError.write(Data("CSV fuzz: \(message)\n  input: \(String(decoding: bytes, as: UTF8.self).debugDescription)\n".utf8))
    abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    precondition(ignoringSIGPIPE)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let text = String(validating: bytes, as: UTF8.self), let fields = (try? CSV.split(text)) ?? nil {
        let row = CSV.row(fields)
        let again = (try? CSV.split(String(decoding: row.utf8.dropLast(2), as: UTF8.self))) ?? nil
        // Byte for byte: String's == is canonical equivalence, blind to some changes.
        if again.map({ $0.map { Array($0.utf8) } }) != fields.map({ Array($0.utf8) }) { fail("CSV.split read \(fields), CSV.row wrote \(row.debugDescription), which splits as \(String(describing: again))", bytes) }
    }
    let outcome = CSVFuzz.read(bytes, defaultType: "garment")
    if let error = outcome.thrown as? RecordsError, error.line == nil { fail("an error without a line: \(error)", bytes) }
    for (result, line) in outcome.records {
        guard line >= 1 else { fail("record at line \(line)", bytes) }
        guard case .success(let record) = result else { continue }
        // A `type.x` column makes the type an object, which the importer then refuses ("field
        // "type" must be a string"); a record with no type at all would be a bug.
        guard let type = record["type"] else { fail("a record without a type: \(JSONWriter.string(record))", bytes) }
        let writer = CSVRecordWriter(inferringFrom: [record])
        _ = writer.header + writer.row(record)
        _ = try? Schemas.byType[type.string ?? ""]?.validate(record)
    }
    return 0
}
