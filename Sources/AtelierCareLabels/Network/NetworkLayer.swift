/// What a convolution or dense layer applies to each output after adding its bias.
public enum Activation: String, Sendable, CaseIterable {
    case none, relu, sigmoid
}

/// A convolution: `outChannels` filters of `kernel × kernel` over the input, with symmetric
/// zero padding of `pad` pixels and step `stride`. Depthwise (`groups` = channels in the file)
/// filters each channel on its own, with one `kernel × kernel` filter per channel.
struct ConvolutionLayer: Sendable {
    let inChannels: Int
    let outChannels: Int
    let kernel: Int
    let stride: Int
    let pad: Int
    let isDepthwise: Bool
    let activation: Activation
    /// [out][in / groups][kernel][kernel], row-major: for a full convolution, the GEMM's
    /// `outChannels × (inChannels · kernel²)` left matrix as it stands.
    let weights: [Float]
    let bias: [Float]

    /// Columns of the weight matrix: the values one output pixel is a dot product over.
    var patchSize: Int { (isDepthwise ? 1 : inChannels) * kernel * kernel }

    var weightCount: Int { outChannels * patchSize }

    /// floor((size + 2·pad − kernel) / stride) + 1, or nil when the padded input is smaller
    /// than the kernel.
    func outputSize(_ size: Int) -> Int? {
        let span = size + 2 * pad - kernel
        return span < 0 ? nil : span / stride + 1
    }

    /// Whether the im2col matrix would be the input itself: a 1×1 kernel, step 1, no padding.
    var isPointwise: Bool { kernel == 1 && stride == 1 && pad == 0 && !isDepthwise }
}

/// A fully connected layer over the input flattened in C, H, W order.
struct DenseLayer: Sendable {
    let inFeatures: Int
    let outFeatures: Int
    let activation: Activation
    /// [out][in], row-major.
    let weights: [Float]
    let bias: [Float]
}

/// One step of a network, in file order.
enum NetworkLayer: Sendable {
    case convolution(ConvolutionLayer)
    /// Maximum over `size × size` windows with step `size`; a remainder row or column is dropped.
    case maxPool(size: Int)
    /// Mean over each channel's whole plane: C×H×W → C×1×1.
    case globalAveragePool
    case dense(DenseLayer)

    /// The `op` name of the file format.
    var op: String {
        switch self {
        case .convolution: return "conv"
        case .maxPool: return "maxpool"
        case .globalAveragePool: return "globalavgpool"
        case .dense: return "dense"
        }
    }

    var parameterCount: Int {
        switch self {
        case .convolution(let conv): return conv.weights.count + conv.bias.count
        case .dense(let dense): return dense.weights.count + dense.bias.count
        case .maxPool, .globalAveragePool: return 0
        }
    }

    /// The shape this layer makes of `input`, or why it cannot take it.
    func outputShape(for input: TensorShape) -> Result<TensorShape, ShapeMismatch> {
        switch self {
        case .convolution(let conv):
            guard input.channels == conv.inChannels else {
                return .failure(ShapeMismatch("expects \(conv.inChannels) channels, gets \(input.channels)"))
            }
            guard let height = conv.outputSize(input.height), let width = conv.outputSize(input.width) else {
                return .failure(ShapeMismatch("a \(input.height)×\(input.width) input is smaller than its \(conv.kernel)×\(conv.kernel) kernel with padding \(conv.pad)"))
            }
            return .success(TensorShape(channels: conv.outChannels, height: height, width: width))
        case .maxPool(let size):
            guard input.height >= size, input.width >= size else {
                return .failure(ShapeMismatch("a \(input.height)×\(input.width) input is smaller than its \(size)×\(size) window"))
            }
            return .success(TensorShape(channels: input.channels, height: input.height / size, width: input.width / size))
        case .globalAveragePool:
            return .success(TensorShape(channels: input.channels, height: 1, width: 1))
        case .dense(let dense):
            guard input.count == dense.inFeatures else {
                return .failure(ShapeMismatch("expects \(dense.inFeatures) inputs, gets \(input) = \(input.count)"))
            }
            return .success(TensorShape(channels: dense.outFeatures, height: 1, width: 1))
        }
    }
}

/// Why a layer cannot take an input of some shape (wrapped into a `CareLabelError` by the caller,
/// which knows the file and the layer).
struct ShapeMismatch: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
