// The exit codes of the record layer's errors (DESIGN.md "Exit codes"): bad input data 65, a
// missing input 66, an unreadable one 74, a bad expression on the command line 64.

extension RecordsError: ExitCodedError {
    public var sysexit: Sysexit {
        switch self {
        case .input(.data, _, _, _, _), .syntax, .field: return .dataError
        case .input(.missing, _, _, _, _): return .noInput
        case .input(.io, _, _, _, _): return .ioError
        // A condition comes from the command line (`--where name~…`): a bad one is a usage error.
        case .filter, .regexSyntax, .regexUnsupported, .regexTooLarge: return .usage
        // Missing or unreadable 66, a FIFO or device 65, a read cut short 74.
        case .cannotOpen: return .noInput
        case .notARegularFile: return .dataError
        case .cannotRead: return .ioError
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
