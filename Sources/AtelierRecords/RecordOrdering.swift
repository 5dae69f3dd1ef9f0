/// A `--sort` key: a field path, ascending or (with a leading `-`) descending.
public struct SortKey: Sendable, CustomStringConvertible {
    public let path: [String]
    public let descending: Bool

    public init(path: [String], descending: Bool) {
        self.path = path
        self.descending = descending
    }

    /// Parses `wearCount` or `-wearCount`.
    public static func parse(_ text: String) throws(RecordsError) -> SortKey {
        var field = Substring(text.trimmingCharacters(in: .whitespaces))
        var descending = false
        if field.hasPrefix("-") { descending = true; field = field.dropFirst() } else if field.hasPrefix("+") { field = field.dropFirst() }
        guard field.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }), let path = parseFieldPath(field) else {
            throw RecordsError.filter("expected a field to sort by, like 'wearCount' or '-wearCount', got \"\(text)\"")
        }
        return SortKey(path: path, descending: descending)
    }

    public var field: String { path.joined(separator: ".") }
    public var description: String { (descending ? "-" : "") + field }

    /// Orders two records by this key. Missing values sort last either way, as SQL's NULLS LAST.
    public func compare(_ a: JSONObject, _ b: JSONObject) -> Int {
        let x = a.value(atPath: path).flatMap { $0.isNull ? nil : $0 }
        let y = b.value(atPath: path).flatMap { $0.isNull ? nil : $0 }
        switch (x, y) {
        case (nil, nil): return 0
        case (nil, _): return 1
        case (_, nil): return -1
        case (let x?, let y?):
            let c = Self.compareValues(x, y)
            return descending ? -c : c
        }
    }

    static func rank(_ v: JSONValue) -> Int {
        switch v {
        case .null: return 0
        case .bool: return 1
        case .int, .double, .bigInteger: return 2
        case .string: return 3
        case .array: return 4
        case .object: return 5
        }
    }

    static func compareValues(_ x: JSONValue, _ y: JSONValue) -> Int {
        if let a = x.number, let b = y.number { return a < b ? -1 : (a > b ? 1 : 0) }
        if case .string(let a) = x, case .string(let b) = y { return a < b ? -1 : (a > b ? 1 : 0) }
        if case .bool(let a) = x, case .bool(let b) = y { return a == b ? 0 : (a ? 1 : -1) }
        let (rx, ry) = (rank(x), rank(y))
        if rx != ry { return rx < ry ? -1 : 1 }
        let (sx, sy) = (JSONWriter.string(x), JSONWriter.string(y))
        return sx < sy ? -1 : (sx > sy ? 1 : 0)
    }
}

/// Sorts records by several keys, the first deciding first; equal records keep their order.
public func sortRecords(_ records: inout [JSONObject], by keys: [SortKey]) {
    guard !keys.isEmpty else { return }
    let indexed = records.enumerated().map { ($0.offset, $0.element) }
    records = indexed.sorted { l, r in
        for key in keys {
            let c = key.compare(l.1, r.1)
            if c != 0 { return c < 0 }
        }
        return l.0 < r.0
    }.map(\.1)
}

/// The components of a dotted field path (`price.amount`), or nil when one is empty (``, `.`,
/// `a..b`, `a.`): such a path names no field, and is refused rather than matching nothing.
public func parseFieldPath<S: StringProtocol>(_ text: S) -> [String]? {
    let components = text.split(separator: ".", omittingEmptySubsequences: false)
    guard !components.contains(where: \.isEmpty) else { return nil }
    return components.map { String($0) }
}

/// Parses a `--fields` (or `--columns`) list: comma-separated field paths (`id,name,price.amount`).
public func parseFieldList(_ text: String, option: String = "--fields") throws(RecordsError) -> [[String]] {
    var paths: [[String]] = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
        let name = item.trimmingCharacters(in: .whitespaces)
        guard let path = parseFieldPath(name) else {
            throw RecordsError.filter("in \(option) '\(text)': \(name.isEmpty ? "an empty name" : "\"\(name)\"") is not a field; list names like id,name,price.amount")
        }
        paths.append(path)
    }
    return paths
}

/// Keeps only the named fields (dotted paths allowed) of a record, plus its `type`.
public func projectRecord(_ record: JSONObject, fields: [[String]]) -> JSONObject {
    var out = JSONObject()
    if let type = record["type"] { out["type"] = type }
    for path in fields {
        guard let value = record.value(atPath: path) else { continue }
        out = setValue(value, atPath: path[...], in: out)
    }
    return out
}

private func setValue(_ value: JSONValue, atPath path: ArraySlice<String>, in object: JSONObject) -> JSONObject {
    var object = object
    guard let key = path.first else { return object }
    if path.count == 1 {
        object[key] = value
    } else {
        let inner = object[key]?.object ?? JSONObject()
        object[key] = .object(setValue(value, atPath: path.dropFirst(), in: inner))
    }
    return object
}
