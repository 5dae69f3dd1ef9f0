import AtelierRecords
import COpenBLAS
import Foundation

/// A small convolutional network (a care-symbol classifier, or a fully convolutional one that
/// takes any image size) loaded from an `.atlnn` file, run on the CPU.
///
/// Trained in Python/JAX and exported by its own script (see `NetworkFile` for the format).
/// Convolutions are im2col + OpenBLAS `sgemm` (1×1 ones need no im2col, depthwise ones are
/// direct loops), with bias and activation in one pass over each output. A network is
/// immutable and `Sendable`: threads may share one and call `run` at once; each call has its
/// own scratch memory. OpenBLAS runs on one thread (see `setBLASThreadCount`), so parallelism
/// is the caller's (one image, or one process, per core).
public struct Network: Sendable {
    /// `input ↦ (input − mean) / std`, applied by `run` to inputs in [0, 1].
    public struct Normalization: Equatable, Sendable {
        public var mean: Float
        public var std: Float

        public init(mean: Float, std: Float) {
            self.mean = mean
            self.std = std
        }
    }

    /// Where the network came from (its path), as error messages name it.
    public let source: String
    /// The network's own name (`"care-classifier"`).
    public let name: String
    /// Channels of an input image (1 for the grey crops the classifiers read).
    public let inputChannels: Int
    /// The fixed input height, or nil when any height is accepted (fully convolutional).
    public let inputHeight: Int?
    /// The fixed input width, or nil when any width is accepted (fully convolutional).
    public let inputWidth: Int?
    /// What `run` does to the input first, if anything.
    public let normalization: Normalization?
    /// One name per output channel (care-symbol codes for a classifier); empty when the file
    /// names none.
    public let classes: [String]
    /// The file's free-form `meta` object (training run, date, accuracy…), as written.
    public let meta: JSONObject

    let layers: [NetworkLayer]

    /// Loads a network file.
    /// - Throws: `CareLabelError` naming the file and what is wrong with it.
    public init(contentsOf url: URL) throws(CareLabelError) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw .unreadable(source: url.path, reason: (error as NSError).localizedDescription)
        }
        try self.init(data: data, source: url.path)
    }

    /// Reads a network from the bytes of an `.atlnn` file; `source` names it in errors.
    /// - Throws: `CareLabelError` naming `source` and what is wrong; never traps, whatever the bytes.
    public init(data: Data, source: String = "network") throws(CareLabelError) {
        Self.useOneBLASThreadByDefault()
        let result: Result<NetworkFile.Contents, CareLabelError> = data.withUnsafeBytes { bytes in
            do throws(CareLabelError) {
                return .success(try NetworkFile.read(bytes, source: source))
            } catch {
                return .failure(error)
            }
        }
        let contents = try result.get()
        self.source = source
        name = contents.name
        inputChannels = contents.input.channels
        inputHeight = contents.input.height
        inputWidth = contents.input.width
        normalization = contents.normalization
        classes = contents.classes
        meta = contents.meta
        layers = contents.layers
        if let height = inputHeight, let width = inputWidth {
            do {
                _ = try shapes(for: TensorShape(channels: inputChannels, height: height, width: width))
            } catch {
                guard case .inputShape(_, let reason) = error else { throw error }
                throw .badHeader(source: source, reason: reason)
            }
        }
    }

    /// Number of weights and biases over all layers.
    public var parameterCount: Int { layers.reduce(0) { $0 + $1.parameterCount } }

    /// One line per layer (`conv 1→16 3×3 /1 pad 1 relu`), for `--verbose` output and tests.
    public var layerSummary: [String] {
        layers.map { layer in
            switch layer {
            case .convolution(let c):
                let kind = c.isDepthwise ? "depthwise conv \(c.inChannels)" : "conv \(c.inChannels)→\(c.outChannels)"
                return "\(kind) \(c.kernel)×\(c.kernel) /\(c.stride) pad \(c.pad) \(c.activation.rawValue)"
            case .maxPool(let size): return "maxpool \(size)×\(size)"
            case .globalAveragePool: return "globalavgpool"
            case .dense(let d): return "dense \(d.inFeatures)→\(d.outFeatures) \(d.activation.rawValue)"
            }
        }
    }

    /// The shape `run` returns for an input of `input`'s shape.
    /// - Throws: `CareLabelError.inputShape` when the network cannot take it: wrong channel
    ///   count, not the fixed size, or too small for some layer. Check a size before `run` when
    ///   the network is fully convolutional and images come from users.
    public func outputShape(for input: TensorShape) throws(CareLabelError) -> TensorShape {
        try shapes(for: input).last!
    }

    /// The shapes of the input and of every layer's output, in order.
    func shapes(for input: TensorShape) throws(CareLabelError) -> [TensorShape] {
        guard input.channels == inputChannels, input.height > 0, input.width > 0,
              inputHeight.map({ $0 == input.height }) ?? true, inputWidth.map({ $0 == input.width }) ?? true
        else {
            let expected = "\(inputChannels)×\(inputHeight.map(String.init) ?? "H")×\(inputWidth.map(String.init) ?? "W")"
            throw .inputShape(source: source, reason: "the network takes \(expected) inputs, not \(input)")
        }
        var shapes = [input]
        shapes.reserveCapacity(layers.count + 1)
        for (index, layer) in layers.enumerated() {
            func refuse(_ reason: String) -> CareLabelError {
                .inputShape(source: source, reason: "a \(input) input cannot go through layer \(index + 1) (\(layer.op)): \(reason)")
            }
            switch layer.outputShape(for: shapes[index]) {
            case .success(let shape):
                // A 16 KB file can ask for terabytes: a wide layer on a large fixed input.
                var largest = shape.count
                if case .convolution(let conv) = layer, !conv.isPointwise, !conv.isDepthwise {
                    largest = max(largest, conv.patchSize * shape.width)
                }
                guard largest <= Self.maxBufferFloats else {
                    throw refuse("it needs a buffer of \(largest) values, more than the \(Self.maxBufferFloats) allowed")
                }
                shapes.append(shape)
            case .failure(let mismatch):
                throw refuse(mismatch.reason)
            }
        }
        return shapes
    }

    /// The most floats one activation (or one im2col row band) may take: 1 GiB.
    static let maxBufferFloats = 1 << 28
}

extension Network {
    private static let oneThreadByDefault: Void = openblas_set_num_threads(1)

    /// Sets OpenBLAS to one thread the first time a network is made: Atelier's tools run one
    /// process (or one image) per core, where OpenBLAS's own threads would only compete.
    static func useOneBLASThreadByDefault() { Self.oneThreadByDefault }

    /// Sets how many threads OpenBLAS uses for the whole process (1 unless changed here); worth
    /// raising only when a single large image is all there is to do.
    public static func setBLASThreadCount(_ count: Int) {
        useOneBLASThreadByDefault()
        openblas_set_num_threads(Int32(clamping: max(1, count)))
    }

    /// How many threads OpenBLAS uses.
    public static var blasThreadCount: Int {
        useOneBLASThreadByDefault()
        return Int(openblas_get_num_threads())
    }
}
