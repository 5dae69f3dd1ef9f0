/// Why a line is not valid JSON, and where: `column` counts bytes from 1.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var column: Int

    public init(_ message: String, column: Int) {
        self.message = message
        self.column = column
    }

    /// The message and its column, for a caller that has no line to place it at.
    public var description: String { "\(message) at column \(column)" }
}

extension JSONSyntaxError {
    /// The same error as bad input data, placed at a line of a named input.
    public func at(_ source: String, line: Int) -> InputError {
        InputError(.data, source: source, line: line, column: column, message: message)
    }
}
