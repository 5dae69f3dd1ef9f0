import AtelierCLI
import ArgumentParser
import AtelierTransfer
import Foundation

/// Options `atl-send` and `atl-recv` share: the pairing code, discovery and patience.
public struct TransferOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The pairing code both sides use, such as 7-crane-orbit (default: make one up and show it).", valueName: "code"))
    package var code: String?

    @Option(name: .long, help: ArgumentHelp("The network interface (name or address) for discovery over multicast DNS.", valueName: "interface"))
    package var interface: String?

    @Option(name: .long, help: ArgumentHelp("Give up if no byte moves for this many seconds.", valueName: "seconds"))
    package var timeout: Double = 30

    public init() {}

    public func validate() throws {
        if let code { _ = try Self.parse(code) }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    /// The code given, or a new one.
    package func pairingCode() throws -> (code: PairingCode, generated: Bool) {
        if let code { return (try Self.parse(code), false) }
        return (PairingCode.generate(), true)
    }

    package static func parse(_ text: String) throws -> PairingCode {
        do { return try PairingCode(parsing: text) } catch { throw ValidationError("--code: \(error)") }
    }

    package var interfaces: InterfaceSelection { interface.map { InterfaceSelection($0) } ?? .automatic }
}

/// `12M`, `500k`, `1.5G` (bytes per second, decimal units) for `--limit-rate`.
package struct ByteRate: ExpressibleByArgument {
    package let bytesPerSecond: Double

    package init?(argument: String) {
        let units: [Character: Double] = ["k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9]
        var text = argument
        var scale = 1.0
        if let last = text.last, let unit = units[last] {
            scale = unit
            text.removeLast()
        }
        guard let value = Double(text), value > 0, value.isFinite else { return nil }
        bytesPerSecond = value * scale
    }
}
