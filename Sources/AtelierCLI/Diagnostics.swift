import AtelierRecords
import ArgumentParser
import Foundation

/// A failure with its message and exit code, for errors the tools raise themselves (a usage
/// mistake a flag parser cannot see, an output that already exists). Libraries' errors are
/// never rewrapped in one: they carry their own exit code (`ExitCodedError`).
public struct ToolFailure: ExitCodedError {
    public var message: String
    public var status: Sysexit
    public init(_ message: String, _ status: Sysexit) {
        self.message = message
        self.status = status
    }
    public var description: String { message }
    public var sysexit: Sysexit { status }

    /// `error` with what it concerns put before its message (`"shirt.ply: "`), keeping the exit
    /// code its library gave it.
    public init(_ context: String, wrapping error: Error) {
        let (message, status) = Diagnostics.describe(error)
        self.init(context + (message ?? "\(error)"), status)
    }

    /// The message for a full disk while writing `path`.
    public static func outOfSpace(writing path: String) -> ToolFailure {
        ToolFailure(OutOfSpace.message(writing: path), .cannotCreate)
    }
}

/// The one place where errors become a message on stderr and an exit code.
public enum Diagnostics {
    /// The tool's name, as messages start with it.
    nonisolated(unsafe) public static var tool = (CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent }) ?? "atelier"

    /// Prints `tool: message` on stderr.
    public static func warn(_ message: String) {
        FileHandle.standardError.write(Data("\(tool): \(message)\n".utf8))
    }

    /// Prints `tool: message` on stderr when it is a terminal (chatter a script does not want).
    public static func note(_ message: String) {
        if isatty(2) == 1 { warn(message) }
    }

    /// Maps any error to its exit code, printing its message (nothing for a closed pipe).
    public static func exitCode(for error: Error) -> ExitCode {
        let (message, status) = describe(error)
        if let message { warn(message) }
        return ExitCode(status.rawValue)
    }

    /// The message and exit code of any error: every library's error type says its own
    /// (`ExitCodedError`), so this is the only mapping there is. A closed pipe is a quiet end.
    static func describe(_ error: Error) -> (String?, Sysexit) {
        switch error {
        case OutputError.closed: return (nil, .ok)
        case let e as ExitCode: return (nil, Sysexit(rawValue: e.rawValue) ?? .software)
        case let e as ExitCodedError: return (e.description, e.sysexit)
        default:
            // Foundation's and the system's own errors: a full disk still reads as one.
            if OutOfSpace.isOutOfSpace(error) { return (OutOfSpace.message(writing: "a file"), .cannotCreate) }
            return ("\(error)", .software)
        }
    }

    /// Ignore SIGPIPE so a closed pipe shows up as EPIPE, handled as a quiet end.
    public static func prepareProcess() {
        signal(SIGPIPE, SIG_IGN)
    }
}

extension ParsableCommand {
    /// The tools' entry point: parse, run, and end with the right exit code. Usage errors read
    /// like every other message (`atl-query: unknown view "garmnets"; did you mean …`) followed
    /// by a pointer to --help, rather than ArgumentParser's "Error:" and full usage block.
    public static func runAsTool() -> Never {
        Diagnostics.prepareProcess()
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch let code as ExitCode {
            // The command has already said what went wrong.
            Foundation.exit(code.rawValue)
        } catch {
            guard exitCode(for: error) != .success else {
                // --help, --version, completion scripts: as ArgumentParser prints them, but
                // with the examples kept whole.
                print(cleanExitMessage(for: error))
                Foundation.exit(0)
            }
            // ArgumentParser lists allowed values one per line; one line reads better in a log.
            let text = message(for: error)
                .replacingOccurrences(of: ". Please provide one of the following:\n  - ", with: "; expected one of: ")
                .replacingOccurrences(of: "\n  - ", with: ", ")
            Diagnostics.warn("\(text)\nTry '\(Diagnostics.tool) --help' for the options and examples.")
            Foundation.exit(Sysexit.usage.rawValue)
        }
    }
}
