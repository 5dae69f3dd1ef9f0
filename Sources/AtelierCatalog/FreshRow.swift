import AtelierRecords
import GRDB

/// A new record's row, worked out on the parsing thread, so that storing it holds the write
/// lock only for what needs the writer: an id, the time, and SQLite's insert.
///
/// A record qualifies when it cannot be stored already (no id, no "op"), is complete (a new
/// one with its required fields) and implies nothing outside its own row (no photos to link,
/// no garment to point at). On a bulk import that is nearly every line, and the writer, which
/// otherwise looks fields up and copies the record a dozen times, becomes SQLite's insert.
struct FreshRow {
    /// The table, as its position in `Tables.all`.
    let table: Int
    /// The columns set, one bit per position in the table's `TableMapping.insertColumns`.
    let shape: UInt64
    /// Their values, in `insertColumns` order; those at the slots below are placeholders.
    let arguments: [DatabaseValue]
    let idSlot: Int
    let updatedSlot: Int?
    let createdSlot: Int?
    /// The words of open vocabularies the record uses and they do not know (`UnknownWord`).
    let unknownWords: [(vocabulary: Vocabulary, word: String)]

    /// Per table and shape, the one statement that inserts such rows.
    struct Key: Hashable {
        let table: Int
        let shape: UInt64
    }

    var key: Key { Key(table: table, shape: shape) }

    /// Fields whose value reaches beyond the record's own row (`CatalogWriter.storeLinks`): a
    /// record that gives one is stored the long way.
    static let linkingFields: [String: [String]] = ["garment": ["images"], "model": ["garment"]]

    /// The row of `record` (validated and normalised) in `table`, or nil when it does not qualify.
    init?(_ record: JSONObject, table index: Int) {
        let table = Tables.all[index]
        let schema = table.schema
        guard let fresh = table.freshColumns, record["op"] == nil else { return nil }
        var (given, extra) = table.split(record)
        guard given[fresh.id] == nil, !fresh.links.contains(where: { given[$0] != nil }),
              fresh.required.allSatisfy({ given[$0] != nil && given[$0] != .null })
        else { return nil }
        // The id and the times are the writer's (`CatalogWriter.insert`); a createdAt given is kept.
        let (idColumn, updatedColumn, createdColumn) = (fresh.id, fresh.updated, fresh.created)
        given[idColumn] = .null
        given[updatedColumn] = .null
        var createdIsNow = false
        if let createdColumn, given[createdColumn] == nil || given[createdColumn] == .null {
            given[createdColumn] = .null
            createdIsNow = true
        }
        var shape: UInt64 = 0
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(table.insertColumns.count)
        var slots: (id: Int, updated: Int?, created: Int?) = (0, nil, nil)
        for (column, spec) in table.columns.enumerated() {
            guard let value = given[column] else { continue }
            if column == idColumn { slots.id = arguments.count }
            if column == updatedColumn { slots.updated = arguments.count }
            if column == createdColumn && createdIsNow { slots.created = arguments.count }
            for offset in spec.names.indices { shape |= 1 << UInt64(table.insertPosition[column] + offset) }
            TableMapping.encode(value, as: spec.storage, into: &arguments)
        }
        shape |= 1 << UInt64(table.insertColumns.count - 1)
        arguments.append(extra.isEmpty ? .null : JSONWriter.string(extra).databaseValue)
        self.table = index
        self.shape = shape
        self.arguments = arguments
        (idSlot, updatedSlot, createdSlot) = slots
        unknownWords = Self.unknownWords(in: record, type: schema.type)
    }

    /// A garment's subcategory and fabrics that their open vocabularies do not know.
    private static func unknownWords(in record: JSONObject, type: String) -> [(vocabulary: Vocabulary, word: String)] {
        guard type == "garment" else { return [] }
        var found: [(vocabulary: Vocabulary, word: String)] = []
        if case .string(let sub)? = record["subcategory"], !Domain.subcategory.isKnownValue(sub) {
            found.append((Domain.subcategory, sub))
        }
        if case .array(let parts)? = record["composition"] {
            for case .object(let part) in parts {
                if case .string(let fabric)? = part["fabric"], !Domain.fabric.isKnownValue(fabric) { found.append((Domain.fabric, fabric)) }
            }
        }
        return found
    }
}

extension TableMapping {
    /// Where a fresh row's checks look, by position in `columns`, worked out once per table.
    struct FreshColumns {
        let id: Int
        let updated: Int
        let created: Int?
        /// Columns whose value makes the record a linking one (`FreshRow.linkingFields`).
        let links: [Int]
        let required: [Int]
    }

    /// nil for a table whose new records are never fresh rows (derived fields, no id of its
    /// own making, links not listed, a required field without a column).
    static func freshColumns(of columns: [Column], schema: RecordSchema, derived: Bool) -> FreshColumns? {
        func position(_ field: String) -> Int? { columns.firstIndex { $0.field.name == field } }
        guard !derived, schema.idPrefix != nil, let links = FreshRow.linkingFields[schema.type],
              let id = position("id"), let updated = position("updatedAt") else { return nil }
        let linkColumns = links.compactMap(position)
        let required = schema.required.compactMap(position)
        guard linkColumns.count == links.count, required.count == schema.required.count else { return nil }
        return FreshColumns(id: id, updated: updated, created: position("createdAt"), links: linkColumns, required: required)
    }
}
