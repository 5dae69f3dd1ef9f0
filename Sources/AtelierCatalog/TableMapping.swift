import AtelierRecords
import Foundation
import GRDB

/// How one record type maps onto its SQL table: which column holds each field and how its
/// values are encoded. Everything that moves records in and out of the catalog goes through
/// this one mapping, so import, query, export and restore cannot disagree.
struct TableMapping {
    enum Storage {
        /// TEXT, INTEGER or REAL, as the field's kind says.
        case scalar
        /// 0 or 1.
        case bool
        /// Compact JSON text (lists, objects).
        case json
        /// Two columns, `<name>_amount` and `<name>_currency`.
        case money
    }

    struct Column {
        let field: FieldSpec
        let storage: Storage
        /// SQL names, in select order: one, or two for money.
        let names: [String]
    }

    let schema: RecordSchema
    let table: String
    let columns: [Column]
    /// Extra fields computed by a subquery on output (an outfit's garments), as JSON.
    let derived: [(field: String, sql: String)]
    /// Order of plain listings.
    let defaultOrder: String

    init(schema: RecordSchema, table: String, derived: [(String, String)] = [], defaultOrder: String = "rowid") {
        self.schema = schema
        self.table = table
        self.derived = derived
        self.defaultOrder = defaultOrder
        columns = schema.fields.compactMap { spec in
            guard let column = spec.column else { return nil }
            switch spec.kind {
            case .money: return Column(field: spec, storage: .money, names: [column + "_amount", column + "_currency"])
            case .bool: return Column(field: spec, storage: .bool, names: [column])
            case .object, .any: return Column(field: spec, storage: .json, names: [column])
            case let kind where kind.isList: return Column(field: spec, storage: .json, names: [column])
            default: return Column(field: spec, storage: .scalar, names: [column])
            }
        }
        selectList = (columns.flatMap(\.names).map { "\(table).\($0)" } + ["\(table).extra"] + derived.map { $0.1 }).joined(separator: ", ")
        columnIndex = NameIndex(columns.map(\.field.name))
        notExtra = NameIndex(["type", "op"] + columns.map(\.field.name) + derived.map(\.0) + schema.computed.sorted())
        insertColumns = columns.flatMap(\.names) + ["extra"]
        precondition(insertColumns.count <= 64, "a fresh row's shape is a 64-bit set of columns")
        var position = 0
        insertPosition = columns.map { column in
            defer { position += column.names.count }
            return position
        }
        freshColumns = Self.freshColumns(of: columns, schema: schema, derived: !derived.isEmpty)
    }

    /// Where `FreshRow` looks (nil: this table's new records take the long way).
    let freshColumns: FreshColumns?

    /// The SQL columns an INSERT may set, in a fixed order: each column's one or two names,
    /// then `extra`. A fresh row's shape is a set of positions in this list.
    let insertColumns: [String]
    /// Per column of `columns`, the position of its first SQL name in `insertColumns`.
    let insertPosition: [Int]

    /// Each column's position in `columns`, by field name: one hash per field of a record
    /// instead of a search through the record per column (it runs for every imported line).
    private let columnIndex: NameIndex
    /// The keys that never travel in `extra` (see `isExtra`).
    private let notExtra: NameIndex

    func column(for field: String) -> Column? { columns.first { $0.field.name == field } }

    /// The select list, qualified by the table name, ending with `extra` and the derived fields.
    let selectList: String

    /// Builds the record from a row fetched with `selectList`.
    func record(from row: Row) -> JSONObject {
        record { row[$0] }
    }

    /// The record a freshly inserted row holds, worked out from the validated record and the
    /// values bound for it, with the columns' defaults (`defaults`, by SQL name), instead of
    /// reading the row back. Scalars decode exactly as `record(from:)` decodes them; JSON
    /// columns and unknown fields are the validated values themselves, which is what parsing
    /// their stored JSON would give. For tables without derived fields.
    func insertedRecord(_ validated: JSONObject, bound: InsertedColumns, arguments: [DatabaseValue], defaults: [String: DatabaseValue]) -> JSONObject {
        precondition(derived.isEmpty)
        var out = JSONObject()
        out.appendUnchecked("type", .string(schema.type))
        let slots = bound.slots
        func value(_ slot: Int?, _ name: String) -> DatabaseValue {
            if let slot { return arguments[slot] }
            return defaults[name] ?? .null
        }
        for (index, column) in columns.enumerated() {
            let decoded: JSONValue?
            if column.storage == .json {
                decoded = validated[column.field.name].flatMap { $0 == .null ? nil : $0 }
            } else {
                let (first, second) = slots[index]
                decoded = decode(column, value(first, column.names[0]), column.names.count > 1 ? value(second, column.names[1]) : .null)
            }
            if let decoded { out.appendUnchecked(column.field.name, decoded) }
        }
        for (key, value) in validated where isExtra(key) && !out.contains(key) { out.appendUnchecked(key, value) }
        return out
    }

    /// Where each column's value sits among an INSERT's arguments, worked out once per table
    /// and column list: per column of the mapping, the argument positions of its one or two SQL
    /// columns (nil: not bound, so the column's default).
    struct InsertedColumns {
        let slots: [(Int?, Int?)]

        init(_ columns: [String], of mapping: TableMapping) {
            let argumentIndex = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            slots = mapping.columns.map { column in
                (argumentIndex[column.names[0]], column.names.count > 1 ? argumentIndex[column.names[1]] : nil)
            }
        }
    }

    /// Whether a field travels in the `extra` column: unknown ones, and known ones without a
    /// column of their own (an image's camera); a derived field lives in its link table.
    /// Computed fields (`RecordSchema.computed`) are neither: they are never stored.
    func isExtra(_ key: String) -> Bool {
        !notExtra.contains(key)
    }

    /// Builds the record from the values of the select list, by position.
    func record(_ value: (Int) -> DatabaseValue) -> JSONObject {
        var out = JSONObject()
        out.appendUnchecked("type", .string(schema.type))
        var index = 0
        var pending: [(String, JSONValue)] = []
        for column in columns {
            defer { index += column.names.count }
            let decoded = decode(column, value(index), column.names.count > 1 ? value(index + 1) : .null)
            guard let decoded else { continue }
            out.appendUnchecked(column.field.name, decoded)
        }
        if let extra = String.fromDatabaseValue(value(index)), case .object(let fields)? = try? JSONParser.parse(extra) {
            for (k, v) in fields { pending.append((k, v)) }
        }
        index += 1
        for (field, _) in derived {
            if let text = String.fromDatabaseValue(value(index)), let value = try? JSONParser.parse(text), value != .array([]) {
                // Derived fields sit where the schema puts them, not at the end.
                out = insert(field, value, into: out)
            }
            index += 1
        }
        for (k, v) in pending where out[k] == nil { out[k] = v }
        return out
    }

    private func insert(_ field: String, _ value: JSONValue, into object: JSONObject) -> JSONObject {
        let order = schema.fields.map(\.name)
        guard let position = order.firstIndex(of: field) else { var o = object; o[field] = value; return o }
        var out = JSONObject()
        var placed = false
        for (k, v) in object {
            if !placed, let p = order.firstIndex(of: k), p > position {
                out[field] = value
                placed = true
            }
            out[k] = v
        }
        if !placed { out[field] = value }
        return out
    }

    private func decode(_ column: Column, _ dbValue: DatabaseValue, _ second: DatabaseValue) -> JSONValue? {
        if dbValue.isNull { return nil }
        switch column.storage {
        case .bool:
            return .bool((Int64.fromDatabaseValue(dbValue) ?? 0) != 0)
        case .json:
            guard let text = String.fromDatabaseValue(dbValue) else { return nil }
            return try? JSONParser.parse(text)
        case .money:
            guard let amount = Double.fromDatabaseValue(dbValue) else { return nil }
            let currency = String.fromDatabaseValue(second) ?? "EUR"
            let number: JSONValue = amount.rounded() == amount && abs(amount) < 1e15 ? .int(Int64(amount)) : .double(amount)
            return ["amount": number, "currency": .string(currency)]
        case .scalar:
            switch dbValue.storage {
            case .int64(let i): return column.field.kind.isNumeric && !isInteger(column.field.kind) ? .double(Double(i)) : .int(i)
            case .double(let d): return isInteger(column.field.kind) ? .int(Int64(d)) : .double(d)
            case .string(let s): return .string(s)
            case .blob, .null: return nil
            }
        }
    }

    private func isInteger(_ kind: FieldKind) -> Bool {
        if case .integer = kind { return true }
        return false
    }

    /// The SQL columns and values of a record's stored fields, and its other fields as `extra`.
    struct Bindings {
        var names: [String]
        var values: [DatabaseValue]
        var extra: DatabaseValue?
    }

    func bindings(for record: JSONObject) -> Bindings {
        let (given, extra) = split(record)
        var names: [String] = []
        var values: [DatabaseValue] = []
        names.reserveCapacity(columns.count + 2)
        values.reserveCapacity(columns.count + 2)
        for (index, column) in columns.enumerated() {
            guard let value = given[index] else { continue }
            names += column.names
            Self.encode(value, as: column.storage, into: &values)
        }
        return Bindings(names: names, values: values, extra: extra.isEmpty ? nil : JSONWriter.string(extra).databaseValue)
    }

    /// One pass over the record: each field to its column's slot, or (unknown fields) to `extra`.
    func split(_ record: JSONObject) -> (given: [JSONValue?], extra: JSONObject) {
        var given = [JSONValue?](repeating: nil, count: columns.count)
        var extra = JSONObject()
        for (key, value) in record {
            if let index = columnIndex.position(of: key) {
                given[index] = value
            } else if isExtra(key) {
                extra.appendUnchecked(key, value)
            }
        }
        return (given, extra)
    }

    /// Appends a field's SQL value (two for money) as its column stores it.
    static func encode(_ value: JSONValue, as storage: Storage, into values: inout [DatabaseValue]) {
        switch storage {
        case .money:
            if case .object(let money) = value {
                values.append(money["amount"]?.number.map { $0.databaseValue } ?? .null)
                values.append(money["currency"]?.string.map { $0.databaseValue } ?? .null)
            } else {
                values += [.null, .null]
            }
        case .bool:
            values.append(value.bool.map { ($0 ? 1 : 0 as Int64).databaseValue } ?? .null)
        case .json:
            values.append(value == .null ? .null : JSONWriter.string(value).databaseValue)
        case .scalar:
            switch value {
            case .string(let s): values.append(s.databaseValue)
            case .int(let i): values.append(i.databaseValue)
            case .double(let d): values.append(d.databaseValue)
            case .bool(let b): values.append((b ? 1 : 0 as Int64).databaseValue)
            default: values.append(.null)
            }
        }
    }
}

/// The tables of the catalog, one mapping per stored record type.
enum Tables {
    static let garments = TableMapping(schema: Schemas.garment, table: "garments")
    static let outfits = TableMapping(
        schema: Schemas.outfit, table: "outfits",
        derived: [("garments", "(SELECT json_group_array(garment_id) FROM (SELECT garment_id FROM outfit_garments WHERE outfit_id = outfits.id ORDER BY position))")])
    static let wear = TableMapping(schema: Schemas.wear, table: "wear_log", defaultOrder: "wear_log.date, wear_log.id")
    static let laundry = TableMapping(schema: Schemas.laundry, table: "laundry")
    static let images = TableMapping(schema: Schemas.image, table: "images")
    static let models = TableMapping(schema: Schemas.model, table: "models")

    static let all = [garments, outfits, wear, laundry, images, models]

    static func mapping(forType type: String) -> TableMapping? { all.first { $0.schema.type == type } }
}
