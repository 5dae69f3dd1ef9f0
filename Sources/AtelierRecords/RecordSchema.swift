/// The fields of one record type, and the validation every tool applies to them.
///
/// Validation normalises what it accepts (canonical enum spelling, lower-case hex, UTC instants)
/// and keeps fields it does not know untouched, so a record survives a round trip through any
/// tool with nothing lost.
public struct RecordSchema: Sendable {
    public let type: String
    /// The id prefix (`g` for garments), or nil for records without an id of their own.
    public let idPrefix: String?
    public let fields: [FieldSpec]
    /// Fields a new record must have.
    public let required: [String]
    /// Singular spellings accepted in queries (`season=winter` for `seasons`).
    public let aliases: [String: String]

    public init(type: String, idPrefix: String?, required: [String] = [], aliases: [String: String] = [:], fields: [FieldSpec]) {
        self.type = type
        self.idPrefix = idPrefix
        self.fields = fields
        self.required = required
        self.aliases = aliases
    }

    public func field(_ name: String) -> FieldSpec? { fields.first { $0.name == name } }

    /// The field a query name refers to, through the aliases.
    public func canonicalFieldName(_ name: String) -> String { field(name) == nil ? aliases[name] ?? name : name }

    /// Checks and normalises every known field of `record`; `null` is kept (it clears a field).
    public func validate(_ record: JSONObject) throws(FieldError) -> JSONObject {
        var out = JSONObject()
        for (key, value) in record {
            guard let spec = field(key), value != .null else {
                out.appendUnchecked(key, value)
                continue
            }
            out.appendUnchecked(key, try Self.normalize(value, as: spec.kind, field: key))
        }
        return out
    }

    /// Normalises one value of a given kind; `field` names it in the error.
    public static func normalize(_ value: JSONValue, as kind: FieldKind, field: String) throws(FieldError) -> JSONValue {
        func fail(_ expected: String) -> FieldError {
            FieldError("field \"\(field)\" must be \(expected), got \(preview(value))")
        }
        func string() throws(FieldError) -> String {
            guard case .string(let s) = value else { throw fail("a string") }
            return s
        }
        func list() throws(FieldError) -> [JSONValue] {
            guard case .array(let items) = value else { throw fail("a list") }
            return items
        }
        switch kind {
        case .any:
            return value
        case .object:
            guard case .object = value else { throw fail("an object") }
            return value
        case .text:
            let s = try string()
            // SQLite's C strings would end at the NUL and store a shorter text than was printed.
            guard !s.utf8.contains(0) else {
                throw FieldError("field \"\(field)\" contains a NUL character (\\u0000), which a text field cannot hold")
            }
            return .string(s)
        case .bool:
            guard case .bool = value else { throw fail("true or false") }
            return value
        case .integer(let minimum):
            guard let i = value.integer else { throw fail("a whole number") }
            if let minimum, i < minimum { throw FieldError("field \"\(field)\" must be at least \(minimum), got \(i)") }
            return .int(i)
        case .number(let minimum):
            guard let d = value.number else { throw fail("a number") }
            if let minimum, d < minimum { throw FieldError("field \"\(field)\" must be at least \(minimum), got \(d)") }
            // A catalog column holds a double; only fields the schema does not know keep digits.
            if case .bigInteger = value { return .double(d) }
            return value
        case .day:
            let s = try string()
            guard ISODate.parseDay(s) != nil else { throw fail("a date like 2026-11-21") }
            return .string(s)
        case .instant:
            let s = try string()
            if ISODate.parseDay(s) != nil { return .string(s + "T00:00:00Z") }
            guard let normalized = ISODate.normalizeInstant(s) else { throw fail("a time like 2026-11-21T10:15:00Z") }
            return .string(normalized)
        case .word(let vocabulary):
            do {
                return .string(try vocabulary.canonical(try string()))
            } catch {
                throw FieldError("field \"\(field)\": \(error.message)")
            }
        case .words(let vocabulary):
            var out: [JSONValue] = []
            for item in try list() {
                guard case .string(let s) = item else { throw FieldError("field \"\(field)\" must be a list of strings, got \(preview(item)) in it") }
                let canonical: String
                do { canonical = try vocabulary.canonical(s) } catch { throw FieldError("field \"\(field)\": \(error.message)") }
                if !out.contains(.string(canonical)) { out.append(.string(canonical)) }
            }
            return .array(out)
        case .texts:
            var out: [JSONValue] = []
            for item in try list() {
                guard case .string(let s) = item else { throw FieldError("field \"\(field)\" must be a list of strings, got \(preview(item)) in it") }
                if !out.contains(.string(s)) { out.append(.string(s)) }
            }
            return .array(out)
        case .id(let prefix):
            let s = try string()
            guard RecordIDGenerator.isValid(s, prefix: prefix) else { throw fail("an id like \(prefix)_01jd…") }
            return .string(s)
        case .ids(let prefix):
            var out: [JSONValue] = []
            for item in try list() {
                let normalized = try normalize(item, as: .id(prefix: prefix), field: field)
                if !out.contains(normalized) { out.append(normalized) }
            }
            return .array(out)
        case .imageID:
            let s = try string().lowercased()
            guard isImageID(s) else { throw fail("an image id like sha256:<64 hex digits>") }
            return .string(s)
        case .imageIDs:
            var out: [JSONValue] = []
            for item in try list() {
                let normalized = try normalize(item, as: .imageID, field: field)
                if !out.contains(normalized) { out.append(normalized) }
            }
            return .array(out)
        case .hexColor:
            var s = try string().lowercased()
            if !s.hasPrefix("#") { s = "#" + s }
            guard s.utf8.count == 7, s.utf8.dropFirst().allSatisfy(isHexDigit) else { throw fail("a colour like #1a2b3c") }
            return .string(s)
        case .hash64:
            let s = try string().lowercased()
            guard s.utf8.count == 16, s.utf8.allSatisfy(isHexDigit) else { throw fail("16 hex digits") }
            return .string(s)
        case .money:
            guard case .object(let money) = value else { throw fail("an object like {\"amount\": 49.9, \"currency\": \"EUR\"}") }
            var out = JSONObject()
            guard let amount = money["amount"] else { throw FieldError("field \"\(field).amount\" is missing") }
            guard let number = amount.number else { throw FieldError("field \"\(field).amount\" must be a number, got \(preview(amount))") }
            guard number >= 0 else { throw FieldError("field \"\(field).amount\" must not be negative, got \(number)") }
            out["amount"] = amount
            let currency = money["currency"]?.string?.uppercased() ?? "EUR"
            guard currency.utf8.count == 3, currency.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else {
                throw FieldError("field \"\(field).currency\" must be a three-letter ISO 4217 code like \"EUR\", got \(preview(money["currency"] ?? .null))")
            }
            out["currency"] = .string(currency)
            for (k, v) in money where k != "amount" && k != "currency" { out[k] = v }
            return .object(out)
        case .composition:
            var out: [JSONValue] = []
            var total = 0.0
            for item in try list() {
                guard case .object(let part) = item else { throw fail("a list like [{\"fabric\": \"cotton\", \"percent\": 95}]") }
                guard case .string(let fabricName)? = part["fabric"] else { throw FieldError("field \"\(field)\": each part needs a \"fabric\" name") }
                let fabric: String
                do { fabric = try Domain.fabric.canonical(fabricName) } catch { throw FieldError("field \"\(field)\": \(error.message)") }
                guard let percentValue = part["percent"], let percent = percentValue.number, percent > 0, percent <= 100 else {
                    throw FieldError("field \"\(field)\": \"percent\" of \(fabric) must be a number in (0, 100], got \(preview(part["percent"] ?? .null))")
                }
                total += percent
                var normalized = part
                normalized["fabric"] = .string(fabric)
                out.append(.object(normalized))
            }
            if total > 100.5 { throw FieldError("field \"\(field)\": percentages add up to \(total), more than 100") }
            return .array(out)
        case .careReadings:
            var out: [JSONValue] = []
            for item in try list() {
                switch item {
                case .string(let code):
                    do { out.append(["code": .string(try Domain.careSymbol.canonical(code))]) } catch { throw FieldError("field \"\(field)\": \(error.message)") }
                case .object(var reading):
                    guard case .string(let code)? = reading["code"] else { throw FieldError("field \"\(field)\": each symbol needs a \"code\"") }
                    do { reading["code"] = .string(try Domain.careSymbol.canonical(code)) } catch { throw FieldError("field \"\(field)\": \(error.message)") }
                    if let confidence = reading["confidence"], confidence.number.map({ $0 < 0 || $0 > 1 }) ?? true {
                        throw FieldError("field \"\(field)\": confidence must be a number from 0 to 1, got \(preview(confidence))")
                    }
                    out.append(.object(reading))
                default:
                    throw fail("a list of symbol codes or {code, confidence, box} objects")
                }
            }
            return .array(out)
        }
    }

    public static func isImageID(_ s: String) -> Bool {
        s.hasPrefix("sha256:") && s.utf8.count == 71 && s.utf8.dropFirst(7).allSatisfy(isHexDigit)
    }

    static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
    }

    /// A short rendering of a value for error messages.
    public static func preview(_ value: JSONValue) -> String {
        let text = JSONWriter.string(value)
        return text.count > 40 ? String(text.prefix(37)) + "…" : text
    }
}
