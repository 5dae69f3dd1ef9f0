import AtelierRecords
import Foundation

/// RFC 4180 CSV: splitting a logical row into fields and quoting fields on the way out.
public enum CSV {
    /// Splits one logical row (which may contain quoted newlines) into its fields.
    /// Returns nil when a quote is still open, i.e. the row continues on the next line.
    public static func split(_ row: String) throws(FieldError) -> [String]? {
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var afterQuote = false
        let bytes = Array(row.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(b)
                        i += 1
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    field.append(b)
                }
            } else if b == UInt8(ascii: ",") {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                afterQuote = false
            } else if b == UInt8(ascii: "\"") && field.isEmpty && !afterQuote {
                inQuotes = true
            } else if afterQuote {
                throw FieldError("unexpected text after a closing quote in field \(fields.count + 1)")
            } else {
                field.append(b)
            }
            i += 1
        }
        if inQuotes { return nil }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }

    /// One field, quoted when it must be.
    public static func quote(_ field: String) -> String {
        let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || field.first == " " || field.last == " "
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A row with CRLF line ending, as RFC 4180 has it.
    public static func row(_ fields: [String]) -> String {
        fields.map(quote).joined(separator: ",") + "\r\n"
    }
}

