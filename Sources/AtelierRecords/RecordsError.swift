import Glibc

/// Everything that can go wrong in the record layer, each case carrying what a person needs to
/// fix it: which input and line, which field, which `--where` condition, which file.
///
/// Problems found inside one line (`syntax`, `field`) do not yet know which input and line they
/// came from; the reader that does turns them into `input` with `at(_:line:)`. `description` is
/// the message a tool prints after its name, and `sysexit` (ExitCodedError+Records.swift) its
/// exit code.
public enum RecordsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of input problem an `input` is, which decides its exit code.
    public enum InputKind: Sendable, Equatable {
        /// The bytes are not what the format says (malformed JSON, a bad field): exit 65.
        case data
        /// The input cannot be opened: exit 66.
        case missing
        /// Reading failed part-way: exit 74.
        case io
    }

    // MARK: Inputs

    /// A problem with an input, located: which input (`stdin`, a file name), which line and
    /// column (bytes from 1) when known. Printed as
    /// `stdin:17: field "price.amount" must be a number, got "12,50"`.
    case input(InputKind, source: String, line: Int? = nil, column: Int? = nil, message: String)

    /// A line that is not valid JSON: what is wrong, and at which byte of the line (`column`,
    /// from 1).
    case syntax(_ message: String, column: Int)

    /// A field whose value does not fit its schema or vocabulary (a number that is text, a care
    /// code that does not exist), before it is known which input and line it came from.
    case field(_ message: String)

    // MARK: Expressions on the command line

    /// A `--where` condition that cannot be understood (no operator, an unknown field…).
    case filter(_ message: String)

    /// A `--where name~PATTERN` pattern that is not a regular expression in ICU's syntax (an
    /// unclosed group, a quantifier with nothing to repeat, a reversed range…). `offset` counts
    /// Unicode scalars from 0.
    case regexSyntax(pattern: String, offset: Int, reason: String)

    /// A pattern that uses a construct (a backreference, a lookaround…) that no matcher with a
    /// linear time bound can run, or that this one does not implement.
    case regexUnsupported(pattern: String, construct: String, reason: String)

    /// A pattern that would compile to more than `limit` instructions (usually through large
    /// `{m,n}` counts), more than a matcher should hold for one condition.
    case regexTooLarge(pattern: String, limit: Int)

    // MARK: Files that must be regular files (RegularFile)

    /// `open` failed: `code` is its errno (`ENOENT` for a missing file).
    case cannotOpen(path: String, code: Int32)

    /// The name is a FIFO, a device, a socket or a directory.
    case notARegularFile(path: String)

    /// Reading failed part-way (`code` is errno), or the file shrank while being read (`code` 0).
    case cannotRead(path: String, code: Int32)

    public var description: String {
        switch self {
        case let .input(_, source, line, column, message):
            var location = source
            if let line { location += ":\(line)" }
            if let column { location += ":\(column)" }
            return "\(location): \(message)"
        case let .syntax(message, column): return "\(message) at column \(column)"
        case let .field(message), let .filter(message): return message
        case let .regexSyntax(pattern, offset, reason):
            return "invalid regular expression \"\(pattern)\": \(reason) at character \(offset + 1)"
        case let .regexUnsupported(pattern, construct, reason):
            return "regular expression \"\(pattern)\" uses \(construct), which \(reason); rewrite the pattern without it"
        case let .regexTooLarge(pattern, limit):
            return "regular expression \"\(pattern)\" is too large (more than \(limit) states once its repetitions are expanded); use smaller {m,n} counts"
        case let .cannotOpen(path, _), let .notARegularFile(path), let .cannotRead(path, _):
            return "\(path): \(reason)"
        }
    }

    /// What went wrong, without where: an input problem's or a field's message, a file's
    /// reason without its path (callers put the path first, as `tool: path: …`).
    public var reason: String {
        switch self {
        case let .input(_, _, _, _, message), let .syntax(message, _), let .field(message), let .filter(message): return message
        case let .cannotOpen(_, code): return "cannot read: \(String(cString: strerror(code)))"
        case .notARegularFile: return "not a regular file"
        case let .cannotRead(_, code): return code == 0 ? "the file shrank while being read" : "cannot read: \(String(cString: strerror(code)))"
        case .regexSyntax, .regexUnsupported, .regexTooLarge: return description
        }
    }

    /// The input an `input` problem is in (`stdin`, a file name).
    public var source: String? {
        if case let .input(_, source, _, _, _) = self { return source }
        return nil
    }

    /// The line of its input an `input` problem is on, when known.
    public var line: Int? {
        if case let .input(_, _, line, _, _) = self { return line }
        return nil
    }

    /// The byte of the line where a syntax error (or an input problem placed from one) is.
    public var column: Int? {
        switch self {
        case let .syntax(_, column): return column
        case let .input(_, _, _, column, _): return column
        default: return nil
        }
    }

    /// A problem found inside one line (`syntax`, `field`), placed at that line of a named
    /// input as bad data; an error that already has its place (or is not about a line) as it is.
    public func at(_ source: String, line: Int) -> RecordsError {
        switch self {
        case let .syntax(message, column): return .input(.data, source: source, line: line, column: column, message: message)
        case let .field(message): return .input(.data, source: source, line: line, message: message)
        default: return self
        }
    }
}
