import Foundation

/// Everything that can go wrong in AtelierCareLabels: the care networks not found, a network
/// file (`.atlnn`) that does not load, an input a network cannot take, or a network that does
/// not suit its use.
///
/// One enum for the library, so that the command line maps it to a message and an exit code in
/// one place (`CareLabelExitCodes.swift`). In the network cases `source` is the file's path (or
/// the name given to `Network(data:source:)`); every such message starts with it, so a damaged
/// file is named wherever the error ends up.
public enum CareLabelError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Finding the networks

    /// The care networks (`CareModels.files`) were found in none of the directories searched
    /// (`ATELIER_MODELS`, then the places an installation puts them).
    case modelsMissing(searched: [URL])

    // MARK: Network files and inputs

    /// The file could not be read at all (missing, a directory, no permission).
    case unreadable(source: String, reason: String)
    /// The first line is not `atelier-network <version>`: not a network file.
    case notANetwork(source: String)
    /// A network file of a format version this build does not read (made by a newer exporter).
    case unsupportedVersion(source: String, version: String)
    /// The JSON header line is missing, not JSON, or lacks or misstates a top-level field.
    case badHeader(source: String, reason: String)
    /// Layer `layer` (counted from 1) is malformed or does not fit the layer before it.
    case badLayer(source: String, layer: Int, reason: String)
    /// The tensor data after the header is not exactly as long as the layers need: the file is
    /// cut short, or something follows the last tensor.
    case dataLength(source: String, expectedBytes: Int, actualBytes: Int)
    /// Layer `layer`'s weights hold a value that is not a finite number (NaN or infinity).
    case badWeights(source: String, layer: Int, reason: String)
    /// An input of this shape cannot go through the network (wrong channel count, a size other
    /// than the fixed one, or too small for a layer's kernel).
    case inputShape(source: String, reason: String)
    /// The network loads but does not suit what the caller uses it for (a classifier naming a
    /// class the caller does not know, a detector whose `meta` lacks a field it needs).
    case invalid(source: String, reason: String)

    /// The sentence a tool shows after its own prefix.
    public var description: String {
        switch self {
        case .modelsMissing(let searched):
            return "the care-symbol networks (\(CareModels.files.joined(separator: ", "))) are not in "
                + searched.map(\.path).joined(separator: ", ") + "; set ATELIER_MODELS to their directory, or run 'make train-care'"
        case .unreadable(let source, let reason):
            return "\(source): cannot read the network file: \(reason)"
        case .notANetwork(let source):
            return "\(source): not an Atelier network file (the first line must be \"atelier-network 1\")"
        case .unsupportedVersion(let source, let version):
            return "\(source): network file format version \(version) is not supported (this build reads version 1)"
        case .badHeader(let source, let reason):
            return "\(source): bad network header: \(reason)"
        case .badLayer(let source, let layer, let reason):
            return "\(source): layer \(layer): \(reason)"
        case .dataLength(let source, let expected, let actual):
            if actual < expected {
                return "\(source): the file is cut short: the layers need \(expected) bytes of weights, only \(actual) follow the header"
            }
            return "\(source): \(actual - expected) unexpected bytes after the last tensor (the layers need \(expected) bytes of weights, \(actual) follow the header)"
        case .badWeights(let source, let layer, let reason):
            return "\(source): layer \(layer): \(reason)"
        case .inputShape(let source, let reason), .invalid(let source, let reason):
            return "\(source): \(reason)"
        }
    }
}
