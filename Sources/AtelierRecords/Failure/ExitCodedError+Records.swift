// The exit codes of the record layer's errors (DESIGN.md "Exit codes"): bad input data 65, a
// missing input 66, an unreadable one 74, a bad expression on the command line 64.

extension InputError: ExitCodedError {
    public var sysexit: Sysexit {
        switch kind {
        case .data: return .dataError
        case .missing: return .noInput
        case .io: return .ioError
        }
    }
}

extension LineReaderError: ExitCodedError, CustomStringConvertible {
    /// The error inside: reading failed, or the line's handler refused the line.
    public var underlying: Error {
        switch self {
        case .input(let inner): return inner
        case .body(let inner): return inner
        }
    }

    public var description: String { "\(underlying)" }

    public var sysexit: Sysexit { (underlying as? ExitCodedError)?.sysexit ?? .software }
}

extension FilterError: ExitCodedError {
    public var sysexit: Sysexit { .usage }
}

extension FieldError: ExitCodedError {
    public var sysexit: Sysexit { .dataError }
}

extension JSONSyntaxError: ExitCodedError {
    public var sysexit: Sysexit { .dataError }
}

extension RegexError: ExitCodedError {
    /// A pattern comes from the command line (`--where name~…`), so a bad one is a usage error.
    public var sysexit: Sysexit { .usage }
}

extension RegularFile.Failure: ExitCodedError {
    /// Missing or unreadable 66, a FIFO or device 65, a read cut short 74.
    public var sysexit: Sysexit {
        switch self {
        case .cannotOpen: return .noInput
        case .notARegularFile: return .dataError
        case .cannotRead: return .ioError
        }
    }
}
