import AtelierCatalog
import AtelierRecords
import AtelierTransfer
import ArgumentParser
import Foundation

/// The sysexits codes Atelier's tools use (DESIGN.md, atelier(7)).
public enum Sysexit: Int32, Sendable {
    case ok = 0
    case noMatch = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case cannotCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
}

/// A failure with its message and exit code, for errors the tools raise themselves.
public struct ToolFailure: Error, CustomStringConvertible {
    public var message: String
    public var status: Sysexit
    public init(_ message: String, _ status: Sysexit) {
        self.message = message
        self.status = status
    }
    public var description: String { message }
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

    static func describe(_ error: Error) -> (String?, Sysexit) {
        if let full = DiskFull.failure(for: error) { return (full.message, full.status) }
        switch error {
        case let e as ToolFailure: return (e.message, e.status)
        case let e as InputError:
            switch e.kind {
            case .data: return (e.description, .dataError)
            case .missing: return (e.description, .noInput)
            case .io: return (e.description, .ioError)
            }
        case let e as LineReaderError<InputError>:
            switch e {
            case .input(let inner), .body(let inner): return describe(inner)
            }
        case let e as OutputError:
            switch e {
            case .closed: return (nil, .ok)
            case .failed(let reason, let destination): return ("cannot write to \(destination): \(reason)", .ioError)
            case .noSpace: return (nil, .cannotCreate)  // answered by DiskFull above
            }
        case let e as FilterError: return (e.message, .usage)
        case let e as FieldError: return (e.message, .dataError)
        case let e as CatalogError:
            switch e {
            case .notFound, .missingInput: return (e.description, .noInput)
            case .notACatalog, .newerSchema, .invalidRecord, .badArchive: return (e.description, .dataError)
            case .busy: return (e.description, .tempFail)
            case .cannotWrite: return (e.description, .cannotCreate)
            case .database: return (e.description, .software)
            }
        case let e as TransferError: return (e.description, transferStatus(e))
        case let e as TransportError:
            switch e {
            case .badAddress: return (e.description, .usage)
            case .unresolved, .cannotConnect, .cannotListen: return (e.description, .unavailable)
            case .timedOut: return (e.description, .tempFail)
            case .broken: return (e.description, .ioError)
            }
        case let e as BatchDirectoryError:
            switch e {
            case .checksumMismatch: return (e.description, .dataError)
            case .cannotWrite, .wouldOverwrite, .isADirectory, .notADirectory, .notARegularFile, .noSpace, .diskFull: return (e.description, .cannotCreate)
            }
        case let e as RegularFile.Failure: return (e.description, status(for: e))
        case let e as LocalBatchError:
            switch e {
            case .cannotRead: return (e.description, .noInput)
            case .duplicateName: return (e.description, .usage)
            case .notARegularFile, .changed, .notAsRecorded: return (e.description, .dataError)
            }
        case let e as DiscoveryError:
            if case .noSuchInterface = e { return (e.description, .usage) }
            return (e.description, .unavailable)
        case let e as ExitCode: return (nil, Sysexit(rawValue: e.rawValue) ?? .software)
        default: return ("\(error)", .software)
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

extension Diagnostics {
    /// A file that must be regular: missing or unreadable 66, a FIFO or device 65, a read cut
    /// short 74.
    static func status(for failure: RegularFile.Failure) -> Sysexit {
        switch failure {
        case .cannotOpen: return .noInput
        case .notARegularFile: return .dataError
        case .cannotRead: return .ioError
        }
    }

    /// Exit codes of the transfer protocol's errors (docs/transfer-protocol.md, "Exit codes").
    static func transferStatus(_ error: TransferError) -> Sysexit {
        switch error {
        case .wrongCode, .weakPeerKey: return .noPermission
        case .invalidPairingCode, .unknownPairingWord: return .usage
        case .malformedHandshake, .unsupportedVersion, .receiverBusy: return .unavailable
        case .authenticationFailed, .truncatedStream, .dataAfterClose, .frameTooLarge, .frameTooSmall, .malformedMessage, .unexpectedMessage: return .ioError
        case .unsafePath, .invalidManifest: return .dataError
        case .peerAborted(let reason, _):
            switch reason {
            case .wrongCode: return .noPermission
            case .diskFull, .refusedOverwrite: return .cannotCreate
            case .badManifest: return .dataError
            default: return .unavailable
            }
        case .handshakeOutOfOrder, .channelClosed, .nonceExhausted: return .software
        }
    }
}
