import AtelierRecords
import Foundation

/// Reads CSV with a header row as records: each row becomes one record of the type named in its
/// `type` column (or the default type), dotted headers (`price.amount`) become nested fields,
/// and cells are converted to what the record type's fields hold — numbers, booleans, lists
/// separated by `;` (or written as JSON), compositions like `cotton 80;elastane 20`.
/// Empty cells leave the field out.
///
/// Quoted fields come back byte for byte, line breaks (LF or CRLF) and blank lines in them
/// included. A row is bounded like a line (`LineReader.maximumLineBytes`, 8 MiB by default): a
/// stray quote would otherwise swallow the rest of the file into one field.
public final class CSVRecordReader {
    let reader: LineReader
    let defaultType: String

    public init(reader: LineReader, defaultType: String) {
        self.reader = reader
        self.defaultType = defaultType
    }

    /// Hands each row's record, or what is wrong with it, to `handle` with the row's first line
    /// number. Throws, ending the input, for what spoils every row after it: a bad header, text
    /// that is not UTF-8, a row past the size bound.
    public func forEachRecord(_ handle: (Result<JSONObject, RecordsError>, Int) throws(RecordsError) -> Void) throws {
        var header: [String]? = nil
        var row = CSVRowScanner()
        var rowLine = 0
        let source = reader.source
        let maximumRowBytes = reader.maximumLineBytes
        do throws(LineReaderError<RecordsError>) {
            try reader.forEachRawLine { (bytes, number) throws(RecordsError) in
                guard String(validating: bytes, as: UTF8.self) != nil else {
                    throw RecordsError.input(.data, source: source, line: number, message: "not valid UTF-8 text")
                }
                // The CR of a CRLF is the line break's, unless a quoted field goes on past it.
                let hasCR = bytes.last == 0x0D
                let content = hasCR ? UnsafeRawBufferPointer(rebasing: bytes.dropLast()) : bytes
                if !row.hasStarted {
                    // Blank lines between rows are skipped, as between NDJSON records.
                    if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
                    rowLine = number
                }
                do throws(RecordsError) {
                    try row.scan(content, line: number)
                } catch {
                    row.discardRow()
                    try handle(.failure(error.at(source, line: rowLine)), rowLine)
                    return
                }
                if row.isInsideQuotes {
                    row.continueQuotedField(after: hasCR ? [0x0D, 0x0A] : [0x0A])
                    guard row.rowBytes <= maximumRowBytes else {
                        throw RecordsError.input(.data, source: source, line: row.quoteLine,
                            message: "the quoted field that opens on this line runs past \(Self.describe(bytes: maximumRowBytes)); is its closing quote missing?")
                    }
                    return
                }
                let fields = row.finishRow()
                guard let columns = header else {
                    header = try Self.columnNames(fields, source: source, line: rowLine)
                    return
                }
                guard fields.count == columns.count else {
                    try handle(.failure(RecordsError.input(.data, source: source, line: rowLine,
                        message: "row has \(fields.count) fields but the header has \(columns.count)")), rowLine)
                    return
                }
                try handle(.success(Self.record(columns: columns, fields: fields, defaultType: defaultType)), rowLine)
            }
        } catch {
            throw error.inputError
        }
        if row.isInsideQuotes {
            try handle(.failure(RecordsError.input(.data, source: source, line: rowLine,
                message: "unterminated quoted field: the quote opened on line \(row.quoteLine) is never closed")), rowLine)
        }
    }

    /// `8 MiB`, or `1000 bytes` for a bound that is no whole number of MiB.
    static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }

    /// The header's names, trimmed and without a byte-order mark, each a field name or a dotted
    /// path of them (`price.amount`). A name with an empty component (`.`, `..`, `a.`, `a..b`)
    /// names no field, and is refused here rather than guessed at on every row.
    static func columnNames(_ fields: [String], source: String, line: Int) throws(RecordsError) -> [String] {
        var names = fields.map { $0.trimmingCharacters(in: .whitespaces) }
        if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
        for (n, name) in names.enumerated() {
            if name.isEmpty {
                throw RecordsError.input(.data, source: source, line: line, message: "header column \(n + 1) has no name")
            }
            if name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).contains(where: \.isEmpty) {
                throw RecordsError.input(.data, source: source, line: line,
                    message: "header column \(n + 1) (\"\(name)\") is not a field name: a dotted name needs a name on each side of every dot, as in price.amount")
            }
            // Two columns for one field would leave the record to whichever comes last, as a
            // duplicate key in an NDJSON object would: refuse both the same way.
            for (m, earlier) in names[..<n].enumerated() {
                if earlier == name {
                    throw RecordsError.input(.data, source: source, line: line,
                        message: "header column \(n + 1) (\"\(name)\") repeats column \(m + 1); name each field once")
                }
                let (inner, outer) = earlier.count < name.count ? (name, earlier) : (earlier, name)
                if inner.hasPrefix(outer + ".") {
                    throw RecordsError.input(.data, source: source, line: line,
                        message: "header columns \(m + 1) (\"\(earlier)\") and \(n + 1) (\"\(name)\") both set \"\(outer)\"; keep one of them")
                }
            }
        }
        return names
    }
}
