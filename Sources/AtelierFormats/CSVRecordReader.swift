import AtelierRecords
import Foundation

/// Reads CSV with a header row as records: each row becomes one record of the type named in its
/// `type` column (or the default type), dotted headers (`price.amount`) become nested fields,
/// and cells are converted to what the record type's fields hold — numbers, booleans, lists
/// separated by `;` (or written as JSON), compositions like `cotton 80;elastane 20`.
/// Empty cells leave the field out.
public final class CSVRecordReader {
    let reader: LineReader
    let defaultType: String

    public init(reader: LineReader, defaultType: String) {
        self.reader = reader
        self.defaultType = defaultType
    }

    /// Hands each row's record, or what is wrong with it, to `handle` with its line number.
    public func forEachRecord(_ handle: (Result<JSONObject, InputError>, Int) throws(InputError) -> Void) throws {
        var header: [String]? = nil
        var pending = ""
        var pendingLine = 0
        let source = reader.source
        do throws(LineReaderError<InputError>) {
            try reader.forEachLine { (bytes, number) throws(InputError) in
                guard var text = String(validating: bytes, as: UTF8.self) else {
                    throw InputError(.data, source: source, line: number, message: "not valid UTF-8 text")
                }
                if pending.isEmpty { pendingLine = number } else { text = pending + "\n" + text }
                let fields: [String]
                do throws(FieldError) {
                    guard let split = try CSV.split(text) else { pending = text; return }
                    fields = split
                } catch {
                    pending = ""
                    try handle(.failure(InputError(.data, source: source, line: pendingLine, message: error.message)), pendingLine)
                    return
                }
                pending = ""
                guard let columns = header else {
                    var names = fields.map { $0.trimmingCharacters(in: .whitespaces) }
                    if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
                    if let empty = names.firstIndex(of: "") {
                        throw InputError(.data, source: source, line: number, message: "header column \(empty + 1) has no name")
                    }
                    header = names
                    return
                }
                guard fields.count == columns.count else {
                    try handle(.failure(InputError(.data, source: source, line: pendingLine,
                        message: "row has \(fields.count) fields but the header has \(columns.count)")), pendingLine)
                    return
                }
                try handle(.success(Self.record(columns: columns, fields: fields, defaultType: defaultType)), pendingLine)
            }
        } catch {
            switch error {
            case .input(let e), .body(let e): throw e
            }
        }
        if !pending.isEmpty {
            try handle(.failure(InputError(.data, source: source, line: pendingLine, message: "unterminated quoted field")), pendingLine)
        }
    }

    static func record(columns: [String], fields: [String], defaultType: String) -> JSONObject {
        var record = JSONObject()
        let typeIndex = columns.firstIndex(of: "type")
        let type = typeIndex.map { fields[$0] }.flatMap { $0.isEmpty ? nil : $0 } ?? defaultType
        record["type"] = .string(type)
        let schema = Schemas.byType[type]
        for (name, cell) in zip(columns, fields) where name != "type" && !cell.isEmpty {
            let path = name.split(separator: ".").map(String.init)
            let kind = schema?.field(path[0])?.kind
            let value: JSONValue
            if case .money? = kind, path.count == 2 {
                value = path[1] == "amount" ? number(cell) : .string(cell)
            } else if path.count == 1, let kind {
                value = convert(cell, kind)
            } else {
                value = .string(cell)
            }
            record = setting(value, at: path[...], in: record)
        }
        return record
    }

    private static func setting(_ value: JSONValue, at path: ArraySlice<String>, in object: JSONObject) -> JSONObject {
        var object = object
        let key = path.first!
        if path.count == 1 {
            object[key] = value
        } else {
            object[key] = .object(setting(value, at: path.dropFirst(), in: object[key]?.object ?? JSONObject()))
        }
        return object
    }

    static func number(_ cell: String) -> JSONValue {
        let trimmed = cell.trimmingCharacters(in: .whitespaces)
        if let i = Int64(trimmed) { return .int(i) }
        if let d = Double(trimmed), d.isFinite { return .double(d) }
        return .string(cell)
    }

    static func convert(_ cell: String, _ kind: FieldKind) -> JSONValue {
        let trimmed = cell.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("[") || trimmed.hasPrefix("{"), let json = try? JSONParser.parse(trimmed) { return json }
        switch kind {
        case .integer, .number:
            return number(trimmed)
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return .string(cell)
            }
        case .money:
            // "49.90 EUR", "EUR 49.90" or "49.90"
            let parts = trimmed.split(separator: " ").map(String.init)
            var money = JSONObject()
            for part in parts {
                if case .string = number(part) { money["currency"] = .string(part) } else { money["amount"] = number(part) }
            }
            return money["amount"] == nil ? .string(cell) : .object(money)
        case .composition:
            // "cotton 80;elastane 20" or "80% cotton; 20% elastane"
            var parts: [JSONValue] = []
            for item in trimmed.split(separator: ";") {
                let words = item.replacingOccurrences(of: "%", with: " ").split(separator: " ").map(String.init)
                var part = JSONObject()
                for word in words {
                    if case .string = number(word) { part["fabric"] = .string(word) } else { part["percent"] = number(word) }
                }
                parts.append(.object(part))
            }
            return .array(parts)
        case let k where k.isList:
            return .array(trimmed.split(separator: ";").map { .string($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 != .string("") })
        default:
            return .string(cell)
        }
    }
}
