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
    /// Fields worked out when records are read (a garment's `readyToWash`), never stored:
    /// importing a record drops them.
    public let computed: Set<String>

    public init(type: String, idPrefix: String?, required: [String] = [], computed: Set<String> = [], aliases: [String: String] = [:], fields: [FieldSpec]) {
        self.type = type
        self.idPrefix = idPrefix
        self.fields = fields
        self.required = required
        self.computed = computed
        self.aliases = aliases
        fieldIndex = NameIndex(fields.map(\.name))
    }

    /// Each field's position in `fields`, by name (looked up for every field of every record).
    private let fieldIndex: NameIndex

    public func field(_ name: String) -> FieldSpec? { fieldIndex.position(of: name).map { fields[$0] } }

    /// The field a query name refers to, through the aliases.
    public func canonicalFieldName(_ name: String) -> String { field(name) == nil ? aliases[name] ?? name : name }

    /// Checks and normalises every known field of `record`; `null` is kept (it clears a field).
    public func validate(_ record: JSONObject) throws(RecordsError) -> JSONObject {
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

    /// Normalises one value of a given kind; `field` names it in the error. Each kind's
    /// checks are a method of `FieldValue` (RecordSchema+FieldValue.swift).
    public static func normalize(_ value: JSONValue, as kind: FieldKind, field: String) throws(RecordsError) -> JSONValue {
        let given = FieldValue(value: value, field: field)
        switch kind {
        case .any: return value
        case .object: return try given.object()
        case .text: return .string(try given.text())
        case .bool: return try given.bool()
        case .integer(let minimum): return .int(try given.integer(atLeast: minimum))
        case .number(let minimum): return try given.number(atLeast: minimum)
        case .day: return .string(try given.day())
        case .instant: return .string(try given.instant())
        case .word(let vocabulary): return .string(try given.word(in: vocabulary))
        case .words(let vocabulary): return .array(try given.words(in: vocabulary))
        case .texts: return .array(try given.texts())
        case .id(let prefix): return .string(try given.id(prefix: prefix))
        case .ids(let prefix): return .array(try given.distinctItems { item throws(RecordsError) in try normalize(item, as: .id(prefix: prefix), field: field) })
        case .imageID: return .string(try given.imageID())
        case .imageIDs: return .array(try given.distinctItems { item throws(RecordsError) in try normalize(item, as: .imageID, field: field) })
        case .hexColor: return .string(try given.hexColor())
        case .hash64: return .string(try given.hash64())
        case .hash64List: return .string(try given.hash64List())
        case .money: return .object(try given.money())
        case .composition: return .array(try given.composition())
        case .careReadings: return .array(try given.careReadings())
        case .notices: return .array(try given.notices())
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
