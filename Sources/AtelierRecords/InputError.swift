/// A problem with an input, located: which input, which line and column, which field.
///
/// Its `description` is the message a tool prints after its name:
/// `stdin:17: field "price.amount" must be a number, got "12,50"`.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The bytes are not what the format says (malformed JSON, bad field): exit 65.
        case data
        /// The input cannot be opened: exit 66.
        case missing
        /// Reading failed part-way: exit 74.
        case io
    }

    public var kind: Kind
    public var source: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(_ kind: Kind, source: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.kind = kind
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        var location = source
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
