/// What a record field holds, and so how it is validated, stored and compared.
public indirect enum FieldKind: Sendable {
    case text
    case integer(minimum: Int64?)
    case number(minimum: Double?)
    case bool
    /// A calendar day, `YYYY-MM-DD`.
    case day
    /// An instant, normalised to UTC `…Z`.
    case instant
    case word(Vocabulary)
    case words(Vocabulary)
    case texts
    /// A record id with the given prefix (`g`, `o`…).
    case id(prefix: String)
    case ids(prefix: String)
    /// `sha256:` and 64 lower-case hex digits.
    case imageID
    case imageIDs
    /// `#rrggbb`.
    case hexColor
    /// A 64-bit hash as 16 hex digits (perceptual hashes).
    case hash64
    /// 64-bit hashes run together, 16 hex digits each, in one string (a photo's window pHashes).
    case hash64List
    /// `{amount, currency}` with an ISO 4217 code.
    case money
    /// `[{fabric, percent}]`, percentages adding up to at most 100.
    case composition
    /// `[{code, confidence, box}]` from the care-label reader.
    case careReadings
    /// Notices about a record: plain strings, or `{kind, message, garments}` objects (a laundry
    /// load's warnings, with the garments each concerns).
    case notices
    /// Any JSON object, kept as it is.
    case object
    /// Any JSON value, kept as it is.
    case any

    /// Whether values are lists, so `has` applies and `=` means "any element equals".
    public var isList: Bool {
        switch self {
        case .words, .texts, .ids, .imageIDs, .composition, .careReadings, .notices: return true
        default: return false
        }
    }

    /// Whether stored values compare as numbers.
    public var isNumeric: Bool {
        switch self {
        case .integer, .number: return true
        default: return false
        }
    }
}

/// One field of a record type: its JSON name, kind, and where the catalog keeps it.
public struct FieldSpec: Sendable {
    public let name: String
    public let kind: FieldKind
    /// The SQL column; nil when the catalog derives the field or keeps it elsewhere.
    public let column: String?

    public init(_ name: String, _ kind: FieldKind, column: String? = nil) {
        self.name = name
        self.kind = kind
        self.column = column
    }
}
