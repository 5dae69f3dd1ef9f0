import AtelierRecords
import GRDB

/// Turns a `CatalogQuery` into SQL where that is exact and fast (conditions and sorts on plain
/// columns, so the indexes serve them), and leaves the rest (regular expressions, nested or
/// unknown fields) to the same in-memory evaluation `atl-query -` uses, so both agree.
struct QueryPlan {
    var sql: String
    var arguments: [DatabaseValue]
    /// Conditions SQL could not express, applied to the decoded records.
    var residualFilters: [FieldFilter]
    /// Non-empty when the order must be applied in memory.
    var residualSort: [SortKey]
    /// Applied in memory when anything else is.
    var residualLimit: Int?
    /// Things the user probably got wrong (an unknown field name).
    var warnings: [String]
    /// The SQL conditions alone (joined with AND), nil when there are none.
    var condition: String?
    var conditionArguments: [DatabaseValue]

    init(_ query: CatalogQuery, table: TableMapping) throws {
        let schema = table.schema
        var conditions: [String] = []
        arguments = []
        residualFilters = []
        warnings = []
        for filter in query.filters {
            let filter = try filter.canonicalized(for: schema)
            if let (sql, args) = Self.compile(filter, table: table) {
                conditions.append(sql)
                arguments += args
            } else {
                residualFilters.append(filter)
                if let warning = Self.unknownField(filter.path[0], schema, "only records with such an extra field can match") {
                    warnings.append(warning)
                }
            }
        }
        for path in query.fields ?? [] {
            if let warning = Self.unknownField(path[0], schema, "only records with such an extra field show it") { warnings.append(warning) }
        }
        var orderTerms: [String] = []
        var sortInSQL = true
        for key in query.sort {
            if let warning = Self.unknownField(key.path[0], schema, "records without it sort last") { warnings.append(warning) }
            guard let column = Self.sortColumn(key, table: table) else { sortInSQL = false; break }
            orderTerms.append("\(table.table).\(column) \(key.descending ? "DESC" : "ASC") NULLS LAST")
        }
        if !sortInSQL { orderTerms = [] }
        residualSort = sortInSQL ? [] : query.sort
        orderTerms.append(table.defaultOrder.split(separator: ",").map { $0.contains(".") ? String($0) : "\(table.table).\($0.trimmingCharacters(in: .whitespaces))" }.joined(separator: ", "))
        sql = "SELECT \(table.selectList) FROM \(table.table)"
        condition = conditions.isEmpty ? nil : conditions.joined(separator: " AND ")
        conditionArguments = arguments
        if let condition { sql += " WHERE " + condition }
        sql += " ORDER BY " + orderTerms.joined(separator: ", ")
        if residualFilters.isEmpty && residualSort.isEmpty && !query.availableOnly, let limit = query.limit {
            sql += " LIMIT \(limit)"
            residualLimit = nil
        } else {
            residualLimit = query.limit
        }
    }

    /// A warning when `name` is not one of the type's fields (probably a typo), else nil.
    private static func unknownField(_ name: String, _ schema: RecordSchema, _ consequence: String) -> String? {
        guard schema.field(name) == nil, name != "type", name != "id" else { return nil }
        let suggestion = Vocabulary("field", schema.fields.map(\.name)).suggestion(for: name)
        return "\(schema.type) records have no field \"\(name)\"" + (suggestion.map { " (did you mean \"\($0)\"?)" } ?? "") + "; \(consequence)"
    }

    private static func sortColumn(_ key: SortKey, table: TableMapping) -> String? {
        guard let column = table.column(for: key.path[0]) else { return nil }
        switch column.storage {
        case .scalar, .bool: return key.path.count == 1 ? column.names[0] : nil
        case .money:
            if key.path.count == 2 { return key.path[1] == "amount" ? column.names[0] : (key.path[1] == "currency" ? column.names[1] : nil) }
            return nil
        case .json: return nil
        }
    }

    /// SQL for one condition, or nil to evaluate it in memory.
    static func compile(_ filter: FieldFilter, table: TableMapping) -> (String, [DatabaseValue])? {
        guard let column = table.column(for: filter.path[0]) else { return nil }
        if filter.op == .matches || filter.op == .notMatches {
            // Text columns hold exactly the string the filter would test (see RegexpFunction).
            guard filter.path.count == 1, column.storage == .scalar, column.field.kind.isPlainText else { return nil }
            let name = "\(table.table).\(column.names[0])"
            return (filter.op == .matches ? "\(name) REGEXP ?" : "NOT coalesce(\(name) REGEXP ?, 0)", [filter.operand.databaseValue])
        }
        let kind = column.field.kind
        var name: String
        var numeric = kind.isNumeric
        switch column.storage {
        case .scalar, .bool:
            guard filter.path.count == 1 else { return nil }
            name = "\(table.table).\(column.names[0])"
        case .money:
            guard filter.path.count == 2 else { return nil }
            switch filter.path[1] {
            case "amount": name = "\(table.table).\(column.names[0])"; numeric = true
            case "currency": name = "\(table.table).\(column.names[1])"; numeric = false
            default: return nil
            }
        case .json:
            // Lists of plain values: "any element" via json_each.
            guard filter.path.count == 1, kind.isList, [.equal, .has, .notEqual].contains(filter.op) else { return nil }
            if case .composition = kind { return nil }
            if case .careReadings = kind { return nil }
            if case .notices = kind { return nil }
            let exists = "EXISTS (SELECT 1 FROM json_each(\(table.table).\(column.names[0])) WHERE value = ?)"
            return (filter.op == .notEqual ? "NOT " + exists : exists, [filter.operand.databaseValue])
        }
        let operand: DatabaseValue
        if column.storage == .bool {
            guard filter.operand == "true" || filter.operand == "false" else {
                return filter.op == .notEqual ? ("1", []) : ("0", [])
            }
            operand = (filter.operand == "true" ? 1 : 0 as Int64).databaseValue
        } else if numeric {
            guard let n = filter.numericOperand else { return filter.op == .notEqual ? ("1", []) : ("0", []) }
            operand = n.databaseValue
        } else {
            operand = filter.operand.databaseValue
        }
        switch filter.op {
        case .equal, .has: return ("\(name) = ?", [operand])
        case .notEqual: return ("NOT coalesce(\(name) = ?, 0)", [operand])
        case .less: return ("\(name) < ?", [operand])
        case .lessOrEqual: return ("\(name) <= ?", [operand])
        case .greater: return ("\(name) > ?", [operand])
        case .greaterOrEqual: return ("\(name) >= ?", [operand])
        case .matches, .notMatches: return nil
        }
    }
}

extension TableMapping.Storage: Equatable {}

extension FieldKind {
    /// Stored as the very text a record carries (no normalisation a regular expression could see).
    var isPlainText: Bool {
        switch self {
        case .text, .day, .instant, .word, .id, .imageID, .hexColor, .hash64, .hash64List: return true
        default: return false
        }
    }
}
