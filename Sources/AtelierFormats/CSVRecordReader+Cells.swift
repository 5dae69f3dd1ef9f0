import AtelierRecords
import Foundation

// From cells to field values: dotted columns become nested objects, and each cell becomes what
// the record type's field holds.
extension CSVRecordReader {
    /// The record of one row. Never traps, whatever the names: a name's dotted path always has
    /// a first component (`"."` gives empty ones, which `forEachRecord` refuses in a header).
    static func record(columns: [String], fields: [String], defaultType: String) -> JSONObject {
        var record = JSONObject()
        let typeIndex = columns.firstIndex(of: "type")
        let type = typeIndex.map { fields[$0] }.flatMap { $0.isEmpty ? nil : $0 } ?? defaultType
        record["type"] = .string(type)
        let schema = Schemas.byType[type]
        for (name, cell) in zip(columns, fields) where name != "type" && !cell.isEmpty {
            let path = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
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
