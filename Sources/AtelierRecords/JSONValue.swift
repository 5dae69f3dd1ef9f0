/// A JSON value as Atelier's tools pass it around: numbers keep the integer/fraction distinction
/// so that counts stay integers, and objects keep their key order so that a record passed
/// through a filter comes out as it went in.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// An integer too large for 64 bits, kept as its decimal digits (an optional `-` and no
    /// leading zero) so that an id or a serial number written as a number passes through a tool
    /// unchanged, as jq 1.7 keeps it, rather than rounded to the nearest double.
    case bigInteger(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var object: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The value as a number, whether it was written as an integer or not.
    public var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .bigInteger(let digits): return Double(digits)
        default: return nil
        }
    }

    /// The value as an integer, accepting a double only when it has no fractional part.
    public var integer: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }

    public var isNull: Bool { self == .null }

    /// The JSON type name used in error messages ("a number", "a string", …).
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double, .bigInteger: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

/// A JSON object that remembers the order of its keys.
///
/// Records have a few dozen keys at most, so a linear scan over a contiguous array beats hashing
/// and keeps insertion order for free.
public struct JSONObject: Equatable, Sendable, Sequence {
    public private(set) var entries: [(key: String, value: JSONValue)]

    public init() { entries = [] }

    public init(_ pairs: [(String, JSONValue)]) {
        entries = []
        entries.reserveCapacity(pairs.count)
        for (k, v) in pairs { self[k] = v }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get {
            for entry in entries where entry.key == key { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append((key, newValue))
            }
        }
    }

    /// Appends without looking for an existing key: for code that knows the key is new (a
    /// parser that has checked, a builder going through distinct columns). Setting through the
    /// subscript searches the keys first, which is quadratic over a whole record.
    public mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        entries.append((key, value))
    }

    public func contains(_ key: String) -> Bool { entries.contains { $0.key == key } }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        entries.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.entries.count == rhs.entries.count else { return false }
        for (a, b) in zip(lhs.entries, rhs.entries) where a.key != b.key || a.value != b.value {
            return false
        }
        return true
    }

    /// Follows a dotted path (`price.amount`) through nested objects.
    public func value(atPath path: [String]) -> JSONValue? {
        guard let first = path.first, let head = self[first] else { return nil }
        if path.count == 1 { return head }
        guard case .object(let inner) = head else { return nil }
        return inner.value(atPath: Array(path.dropFirst()))
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
