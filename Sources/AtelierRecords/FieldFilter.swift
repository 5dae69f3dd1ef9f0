import Foundation

/// One `--where` condition: `field OP value`, evaluated on a record.
///
/// Operators: `=`, `!=`, `<`, `<=`, `>`, `>=`, `~` (regular expression, see `RegularExpression`:
/// ICU's syntax, matched in linear time), `!~`, and `has` for
/// lists. A path may go through lists (`composition.fabric`), and then a condition holds when any
/// element satisfies it; `!=` and `!~` are the exact negations of `=` and `~`. Numbers compare as
/// numbers, everything else as text, so ISO dates compare in time order; `today`, `yesterday`
/// and `today-30d` (d, w, m, y) stand for dates.
public struct FieldFilter: Sendable, CustomStringConvertible {
    /// The comparisons a condition can make, spelled as on the command line.
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">"
        case greaterOrEqual = ">=", matches = "~", notMatches = "!~", has = "has"
    }

    public let path: [String]
    public let op: Operator
    /// The operand as text, with relative dates resolved and surrounding quotes removed.
    public let operand: String
    public let numericOperand: Double?
    private let regex: RegularExpression?

    public var field: String { path.joined(separator: ".") }
    /// The condition as `parse` reads it back: the operand is quoted whenever, written bare, it
    /// would read back as something else.
    public var description: String {
        let written = Self.readsBackDifferently(operand, after: op) ? Self.quoted(operand) : operand
        return op == .has ? "\(field) has \(written)" : "\(field)\(op.rawValue)\(written)"
    }

    public init(path: [String], op: Operator, operand: String) throws(RecordsError) {
        self.path = path
        self.op = op
        self.operand = operand
        self.numericOperand = Double(operand).flatMap { $0.isFinite ? $0 : nil }
        if op == .matches || op == .notMatches {
            do throws(RecordsError) {
                regex = try RegularExpression(operand)
            } catch {
                throw RecordsError.filter(error.description)
            }
        } else {
            regex = nil
        }
    }

    /// Parses `field=value`, `field has value` and the like.
    public static func parse(_ expression: String, today: Int = ISODate.today()) throws(RecordsError) -> FieldFilter {
        let text = expression.trimmingCharacters(in: .whitespaces)
        let fieldEnd = text.firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") } ?? text.endIndex
        let fieldText = String(text[..<fieldEnd])
        guard !fieldText.isEmpty, !fieldText.hasPrefix("."), !fieldText.hasSuffix("."), !fieldText.contains("..") else {
            throw RecordsError.filter("expected a field name at the start of \"\(expression)\" (e.g. 'category=top')")
        }
        // From here on the expression is read scalar by scalar: operators and quotes are ASCII,
        // and a mark Unicode joins to one of them (`'\u{301}`) must not hide it.
        var rest = text.unicodeScalars[fieldEnd...].drop { $0 == " " }
        let op: Operator
        if rest.starts(with: "has ".unicodeScalars) || rest.elementsEqual("has".unicodeScalars) {
            op = .has
            rest = rest.dropFirst(3)
        } else if let found = [Operator.notEqual, .lessOrEqual, .greaterOrEqual, .notMatches, .equal, .less, .greater, .matches]
            .first(where: { rest.starts(with: $0.rawValue.unicodeScalars) })
        {
            op = found
            rest = rest.dropFirst(found.rawValue.unicodeScalars.count)
        } else {
            throw RecordsError.filter("expected an operator (=, !=, <, <=, >, >=, ~, !~, has) after \"\(fieldText)\" in \"\(expression)\"")
        }
        var operand = String(Substring(rest.drop { $0 == " " }))
        // `price>>3` or `name=<x`: almost certainly a slip, not a value that starts with an operator.
        if op != .matches && op != .notMatches, let first = operand.unicodeScalars.first, Self.operatorScalars.contains(first) {
            throw RecordsError.filter("unexpected \"\(first)\" after \"\(fieldText)\(op.rawValue)\" in \"\(expression)\"; quote a value that starts with it ('\(fieldText)\(op.rawValue)\"\(operand)\"')")
        }
        if let unquoted = Self.unquoted(operand) { operand = unquoted }
        if op != .matches && op != .notMatches, ISODate.parseDay(operand) == nil {
            do throws(RecordsError) {
                if let day = try ISODate.resolveDay(operand, today: today) { operand = ISODate.formatDay(day) }
            } catch {
                throw RecordsError.filter("in \"\(expression)\": \(error.reason)")
            }
        }
        return try FieldFilter(path: fieldText.split(separator: ".").map(String.init), op: op, operand: operand)
    }

    /// What may not start an operand written bare (but for `~` and `!~`, whose regular
    /// expressions may start with anything).
    static let operatorScalars = "<>=!~".unicodeScalars

    /// `text` without the one pair of matching quotes (`'` or `"`) around it, or nil when it has none.
    static func unquoted(_ text: String) -> String? {
        let scalars = text.unicodeScalars
        guard scalars.count >= 2, let q = scalars.first, q == "'" || q == "\"", scalars.last == q else { return nil }
        return String(Substring(scalars.dropFirst().dropLast()))
    }

    /// `text` in quotes that `unquoted` takes off again (only the outer pair is ever removed,
    /// so quotes inside need no escaping).
    static func quoted(_ text: String) -> String {
        text.unicodeScalars.contains("'") ? "\"" + text + "\"" : "'" + text + "'"
    }

    /// Whether `parse` would read `operand`, written bare after `op`, as something else: it
    /// drops spaces before the operand and whitespace after it, takes quotes off, and refuses a
    /// leading operator character (or joins it to the operator: `<` then `=3` reads as `<=3`).
    static func readsBackDifferently(_ operand: String, after op: Operator) -> Bool {
        let scalars = operand.unicodeScalars
        guard let first = scalars.first, let last = scalars.last else { return false }
        if CharacterSet.whitespaces.contains(first) || CharacterSet.whitespaces.contains(last) { return true }
        if unquoted(operand) != nil { return true }
        return op != .matches && op != .notMatches && operatorScalars.contains(first)
    }

    /// Whether the record satisfies the condition.
    public func matches(_ record: JSONObject) -> Bool {
        var values: [JSONValue] = []
        Self.collect(path[...], in: .object(record), into: &values)
        switch op {
        case .notEqual: return !values.contains { holds(.equal, $0) }
        case .notMatches: return !values.contains { holds(.matches, $0) }
        default: return values.contains { holds(op, $0) }
        }
    }

    /// The values at `path`, looking through lists at every step.
    static func collect(_ path: ArraySlice<String>, in value: JSONValue, into out: inout [JSONValue]) {
        switch value {
        case .array(let items):
            for item in items { collect(path, in: item, into: &out) }
        case .object(let object):
            guard let key = path.first else { out.append(value); return }
            if let next = object[key] { collect(path.dropFirst(), in: next, into: &out) }
        default:
            if path.isEmpty { out.append(value) }
        }
    }

    private func holds(_ op: Operator, _ value: JSONValue) -> Bool {
        switch op {
        case .matches:
            guard let regex else { return false }
            let text: String
            switch value {
            case .string(let s): text = s
            case .int, .double, .bool: text = JSONWriter.string(value)
            default: return false
            }
            return regex.matches(text)
        case .equal, .has:
            return compare(value).map { $0 == 0 } ?? false
        case .less: return compare(value).map { $0 < 0 } ?? false
        case .lessOrEqual: return compare(value).map { $0 <= 0 } ?? false
        case .greater: return compare(value).map { $0 > 0 } ?? false
        case .greaterOrEqual: return compare(value).map { $0 >= 0 } ?? false
        case .notEqual, .notMatches: return false
        }
    }

    /// -1, 0 or 1 comparing `value` with the operand; nil when they cannot be compared.
    private func compare(_ value: JSONValue) -> Int? {
        switch value {
        case .int, .double, .bigInteger:
            guard let n = value.number, let operand = numericOperand else { return nil }
            return n < operand ? -1 : (n > operand ? 1 : 0)
        case .string(let s):
            return s < operand ? -1 : (s > operand ? 1 : 0)
        case .bool(let b):
            guard operand == "true" || operand == "false" else { return nil }
            return b == (operand == "true") ? 0 : nil
        case .null:
            return operand == "null" ? 0 : nil
        default:
            return nil
        }
    }
}
