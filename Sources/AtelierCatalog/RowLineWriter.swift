import AtelierRecords
import GRDB
import GRDBSQLite

/// Writes the NDJSON line of a statement's current row straight from SQLite's column values:
/// the bytes `JSONWriter` gives for the record `TableMapping.record(from:)` builds from that row,
/// without building it (no `Row`, no `DatabaseValue`, no `String`, no `JSONObject`).
///
/// It writes directly only what it can vouch for byte for byte: integers, doubles, text in valid
/// UTF-8, 0/1 booleans, money, and JSON columns whose text is already in `JSONWriter`'s form
/// (`CanonicalJSON`). A row holding anything else (a BLOB where the record would take one, JSON
/// text in another spelling, unknown fields in `extra`, text that is not valid UTF-8) is written
/// through the record instead, so a line is the same whichever way it goes.
struct RowLineWriter {
    private let table: TableMapping
    /// How each column's value becomes JSON, in select-list order.
    private let encodings: [Encoding]
    /// `,"field":` of each column, as bytes.
    private let keys: [[UInt8]]
    /// `{"type":"garment"`: every line starts with the record's type.
    private let opening: [UInt8]
    /// The position of `extra` in the select list.
    private let extraIndex: Int32

    private enum Encoding {
        /// A scalar as its SQL type says, except: an INTEGER in a fractional-number field is
        /// written as a double, a REAL in an integer field as an integer.
        case scalar(wantsDouble: Bool, wantsInteger: Bool)
        case bool
        case json
        case money
    }

    /// A writer for `table`'s rows as selected by `table.selectList`, or nil for a table with
    /// derived fields (an outfit's garments), which sit inside the record, not at its end.
    init?(_ table: TableMapping) {
        guard table.derived.isEmpty else { return nil }
        self.table = table
        encodings = table.columns.map { column in
            switch column.storage {
            case .bool: return .bool
            case .json: return .json
            case .money: return .money
            case .scalar:
                let integer: Bool
                if case .integer = column.field.kind { integer = true } else { integer = false }
                return .scalar(wantsDouble: column.field.kind.isNumeric && !integer, wantsInteger: integer)
            }
        }
        keys = table.columns.map { column in
            var key: [UInt8] = [UInt8(ascii: ",")]
            JSONWriter.appendString(column.field.name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
        var opening: [UInt8] = [UInt8(ascii: "{")]
        JSONWriter.appendString("type", to: &opening)
        opening.append(UInt8(ascii: ":"))
        JSONWriter.appendString(table.schema.type, to: &opening)
        self.opening = opening
        extraIndex = Int32(table.columns.reduce(0) { $0 + $1.names.count })
    }

    /// Appends the current row of `statement` (prepared from `table.selectList`) to `out`, as one
    /// line ending in a newline.
    func append(_ statement: SQLiteStatement, to out: inout [UInt8]) {
        let start = out.count
        if !appendDirectly(statement, to: &out) {
            out.removeLast(out.count - start)
            let record = table.record { DatabaseValue(sqliteStatement: statement, index: Int32($0)) }
            JSONWriter.append(record, to: &out)
        }
        out.append(0x0A)
    }

    /// Writes the record's JSON, or returns false (having written part of it) when a value is
    /// one it leaves to the record.
    func appendDirectly(_ statement: SQLiteStatement, to out: inout [UInt8]) -> Bool {
        guard sqlite3_column_type(statement, extraIndex) == SQLITE_NULL else { return false }
        out.append(contentsOf: opening)
        var index: Int32 = 0
        for (c, encoding) in encodings.enumerated() {
            let sqlType = sqlite3_column_type(statement, index)
            defer { index += 1 }
            // A NULL is no value: the field is left out (for money, a NULL amount).
            if sqlType == SQLITE_NULL {
                if case .money = encoding { index += 1 }
                continue
            }
            switch encoding {
            case .scalar(let wantsDouble, let wantsInteger):
                switch sqlType {
                case SQLITE_INTEGER:
                    out.append(contentsOf: keys[c])
                    let value = sqlite3_column_int64(statement, index)
                    if wantsDouble { JSONWriter.appendDouble(Double(value), to: &out) } else { JSONWriter.appendInteger(value, to: &out) }
                case SQLITE_FLOAT:
                    let value = sqlite3_column_double(statement, index)
                    out.append(contentsOf: keys[c])
                    if wantsInteger {
                        // The record converts with Int64(_:), which stops the program outside this range.
                        guard value > -9.2e18 && value < 9.2e18 else { return false }
                        JSONWriter.appendInteger(Int64(value), to: &out)
                    } else {
                        JSONWriter.appendDouble(value, to: &out)
                    }
                case SQLITE_TEXT:
                    out.append(contentsOf: keys[c])
                    guard let text = Self.text(statement, index) else { return false }
                    JSONWriter.appendString(utf8: text, to: &out)
                default:
                    continue  // a BLOB: the record has no such field
                }
            case .bool:
                guard sqlType == SQLITE_INTEGER else { return false }
                out.append(contentsOf: keys[c])
                out.append(contentsOf: sqlite3_column_int64(statement, index) != 0 ? Self.trueBytes : Self.falseBytes)
            case .json:
                guard sqlType == SQLITE_TEXT, let text = Self.text(statement, index), CanonicalJSON.isWriterOutput(text) else { return false }
                out.append(contentsOf: keys[c])
                out.append(contentsOf: text)
            case .money:
                defer { index += 1 }
                let amount: Double
                switch sqlType {
                case SQLITE_INTEGER: amount = Double(sqlite3_column_int64(statement, index))
                case SQLITE_FLOAT: amount = sqlite3_column_double(statement, index)
                default: continue  // not a number: the record has no price
                }
                out.append(contentsOf: keys[c])
                out.append(contentsOf: Self.amountKey)
                if amount.rounded() == amount && abs(amount) < 1e15 {
                    JSONWriter.appendInteger(Int64(amount), to: &out)
                } else {
                    JSONWriter.appendDouble(amount, to: &out)
                }
                out.append(contentsOf: Self.currencyKey)
                switch sqlite3_column_type(statement, index + 1) {
                case SQLITE_TEXT:
                    guard let currency = Self.text(statement, index + 1) else { return false }
                    JSONWriter.appendString(utf8: currency, to: &out)
                case SQLITE_BLOB:
                    return false
                default:
                    out.append(contentsOf: Self.defaultCurrency)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// A TEXT value's bytes as the record's `String` holds them: up to the first NUL (GRDB reads
    /// text as a C string), or nil when they are not valid UTF-8 (which the `String` repairs).
    private static func text(_ statement: SQLiteStatement, _ index: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard let start = sqlite3_column_text(statement, index) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, index))
        var end = 0
        var ascii = true
        while end < count {
            let b = start[end]
            if b == 0 { break }
            if b >= 0x80 { ascii = false }
            end += 1
        }
        let bytes = UnsafeBufferPointer(start: start, count: end)
        if !ascii && String(validating: bytes, as: UTF8.self) == nil { return nil }
        return bytes
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
    private static let amountKey = Array("{\"amount\":".utf8)
    private static let currencyKey = Array(",\"currency\":".utf8)
    /// What the record gives a price without a currency.
    private static let defaultCurrency = Array("\"EUR\"".utf8)
}
