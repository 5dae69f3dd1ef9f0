import AtelierRecords

/// Writes records as CSV with a header row, the inverse of `CSVRecordReader`: money and other
/// small objects become dotted columns (`price.amount`), lists of words are joined with `;`,
/// compositions read `cotton 80;elastane 20`, anything else nested is written as JSON.
public struct CSVRecordWriter {
    public private(set) var columns: [String]

    /// Columns from the records seen (in order of first appearance), or as given.
    public init(columns: [String]) { self.columns = columns }

    public init<S: Sequence>(inferringFrom records: S) where S.Element == JSONObject {
        var seen: [String] = []
        var set = Set<String>()
        for record in records {
            for name in Self.flatten(record).map(\.0) where set.insert(name).inserted { seen.append(name) }
        }
        columns = seen
    }

    public var header: String { CSV.row(columns) }

    /// The record's row; fields not in `columns` are left out.
    public func row(_ record: JSONObject) -> String {
        let cells = Dictionary(Self.flatten(record), uniquingKeysWith: { a, _ in a })
        return CSV.row(columns.map { cells[$0] ?? "" })
    }

    /// Fields not in `columns` (to warn about).
    public func missingColumns(_ record: JSONObject) -> [String] {
        Self.flatten(record).map(\.0).filter { !columns.contains($0) }
    }

    static func flatten(_ record: JSONObject) -> [(String, String)] {
        var out: [(String, String)] = []
        let schema = record["type"]?.string.flatMap { Schemas.byType[$0] }
        for (key, value) in record {
            let kind = schema?.field(key)?.kind
            switch value {
            case .null:
                continue
            case .object(let object) where isMoney(kind) || object.allSatisfy({ !isContainer($0.value) }) && object.count <= 4:
                for (k, v) in object { out.append(("\(key).\(k)", cell(v))) }
            case .array(let items) where isComposition(kind):
                let parts = items.compactMap { item -> String? in
                    guard case .object(let part) = item, let fabric = part["fabric"]?.string else { return nil }
                    return "\(fabric) \(part["percent"].map(cell) ?? "")"
                }
                out.append((key, parts.joined(separator: ";")))
            case .array(let items) where items.allSatisfy({ if case .string(let s) = $0 { return !s.contains(";") } else { return false } }):
                out.append((key, items.compactMap(\.string).joined(separator: ";")))
            default:
                out.append((key, cell(value)))
            }
        }
        return out
    }

    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .null: return ""
        default: return JSONWriter.string(value)
        }
    }

    static func isContainer(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: return true
        default: return false
        }
    }

    static func isMoney(_ kind: FieldKind?) -> Bool {
        if case .money? = kind { return true }
        return false
    }

    static func isComposition(_ kind: FieldKind?) -> Bool {
        if case .composition? = kind { return true }
        return false
    }
}
