import AtelierRecords
import Foundation

/// RFC 4180 CSV: splitting a logical row into fields and quoting fields on the way out.
///
/// Both work on UTF-8 bytes, never on Characters: `,`, `"`, CR and LF are ASCII, but a Character
/// can join a `"` to a combining mark after it (`"\u{301}`), and a Character-wise search then
/// misses the quote. A quote left undoubled ends the field early, and what follows becomes a
/// cell of its own in a spreadsheet: injection.
public enum CSV {
    /// Splits one logical row (which may contain quoted newlines) into its fields.
    /// Returns nil when a quote is still open, i.e. the row continues on the next line.
    public static func split(_ row: String) throws(RecordsError) -> [String]? {
        var scanner = CSVRowScanner()
        try scanner.scan(row.utf8)
        return scanner.isInsideQuotes ? nil : scanner.finishRow()
    }

    /// One field, quoted when it must be: when it holds a comma, a quote, CR or LF, or starts or
    /// ends with a space (which readers may trim).
    public static func quote(_ field: String) -> String {
        let bytes = field.utf8
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ")
        guard needsQuotes else { return field }
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(bytes.count + 8)
        for b in bytes {
            out.append(b)
            if b == UInt8(ascii: "\"") { out.append(b) }
        }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    /// A row with CRLF line ending, as RFC 4180 has it.
    public static func row(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",") + "\r\n"
    }
}
