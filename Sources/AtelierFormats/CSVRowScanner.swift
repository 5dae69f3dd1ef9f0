import AtelierRecords

/// Splits RFC 4180 rows into fields, byte by byte, a physical line at a time.
///
/// A quoted field may run over several lines: the scanner keeps its state between lines and the
/// field takes each line break exactly as the input had it (`\n` or `\r\n`), so every byte of a
/// row is looked at once, however many lines it spans, and blank lines inside quotes survive.
/// It works on UTF-8 bytes: the structural characters `,` and `"` are ASCII, and never part of
/// a multi-byte sequence, so a combining mark after a quote cannot hide it.
struct CSVRowScanner {
    private(set) var fields: [String] = []
    private var field: [UInt8] = []
    private var afterQuote = false
    /// Whether the row ends inside a quoted field, so it continues on the next line.
    private(set) var isInsideQuotes = false
    /// The line (as given to `scan`) where the open quoted field started.
    private(set) var quoteLine = 0
    /// Bytes taken into the current row so far, line breaks inside quotes included.
    private(set) var rowBytes = 0
    /// Whether a row is under way (something was scanned since the last `finishRow`).
    private(set) var hasStarted = false

    /// Scans one piece of the current row: a whole row, or a physical line without its line
    /// break. Throws on text after a closing quote (`"a"b`).
    mutating func scan<Bytes: Collection<UInt8>>(_ bytes: Bytes, line: Int = 0) throws(RecordsError) {
        hasStarted = true
        rowBytes += bytes.count
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            let next = bytes.index(after: i)
            if isInsideQuotes {
                if b != UInt8(ascii: "\"") {
                    field.append(b)
                } else if next != bytes.endIndex && bytes[next] == UInt8(ascii: "\"") {
                    field.append(b)  // "" is one quote
                    i = bytes.index(after: next)
                    continue
                } else {
                    // A quote last in a piece closes the field: a line break follows it.
                    isInsideQuotes = false
                    afterQuote = true
                }
            } else if b == UInt8(ascii: ",") {
                endField()
            } else if b == UInt8(ascii: "\"") && field.isEmpty && !afterQuote {
                isInsideQuotes = true
                quoteLine = line
            } else if afterQuote {
                throw RecordsError.field("unexpected text after a closing quote in field \(fields.count + 1)")
            } else {
                field.append(b)
            }
            i = next
        }
    }

    /// Inside a quoted field, the line break that ended the last piece is data.
    mutating func continueQuotedField(after lineBreak: [UInt8]) {
        field.append(contentsOf: lineBreak)
        rowBytes += lineBreak.count
    }

    /// The fields of the row scanned (not inside quotes), and a fresh start for the next row.
    mutating func finishRow() -> [String] {
        endField()
        defer { self = CSVRowScanner() }
        return fields
    }

    /// Drops the row under way (after an error in it).
    mutating func discardRow() {
        self = CSVRowScanner()
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        afterQuote = false
    }
}
