import Foundation

/// What can go wrong below the protocol: addresses, sockets, timeouts.
public enum TransportError: Error, Equatable, CustomStringConvertible {
    /// `HOST:PORT` (or `[v6]:PORT`) did not parse.
    case badAddress(String)
    /// The name did not resolve.
    case unresolved(host: String, reason: String)
    /// Nothing accepted the connection (refused, unreachable).
    case cannotConnect(address: String, reason: String)
    /// `bind`/`listen` failed (port in use, no such address).
    case cannotListen(address: String, reason: String)
    /// No byte moved for the given number of seconds.
    case timedOut(what: String, seconds: Double)
    /// The connection broke (reset, closed early).
    case broken(reason: String)

    public var description: String {
        switch self {
        case .badAddress(let text): return "\(text.debugDescription) is not HOST:PORT"
        case .unresolved(let host, let reason): return "cannot resolve \(host): \(reason)"
        case .cannotConnect(let address, let reason): return "cannot connect to \(address): \(reason)"
        case .cannotListen(let address, let reason): return "cannot listen on \(address): \(reason)"
        case .timedOut(let what, let seconds): return "timed out after \(Self.format(seconds)) s \(what)"
        case .broken(let reason): return "the connection broke: \(reason)"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }

    /// The text of `errno` now.
    static func errnoText() -> String { String(cString: strerror(errno)) }
}
