/// The size of a network's input or output: channels × height × width.
public struct TensorShape: Hashable, Sendable, CustomStringConvertible {
    public var channels: Int
    public var height: Int
    public var width: Int

    public init(channels: Int, height: Int, width: Int) {
        self.channels = channels
        self.height = height
        self.width = width
    }

    /// How many values a tensor of this shape holds.
    public var count: Int { channels * height * width }

    /// `C×H×W`, as error messages print it.
    public var description: String { "\(channels)×\(height)×\(width)" }
}

/// A channels × height × width block of `Float`s, stored contiguously in C, H, W order (the
/// value at channel `c`, row `y`, column `x` is `values[(c * height + y) * width + x]`).
///
/// A network's input is an image or a crop of one, with values in [0, 1] (`Network.run`
/// applies the network's normalisation); its output is what the last layer produced, for a
/// classifier one score per class as `classes.count × 1 × 1`.
public struct Tensor: Equatable, Sendable {
    public let shape: TensorShape
    /// The values in C, H, W order; always `shape.count` of them.
    public private(set) var values: [Float]

    /// A tensor of the given shape holding `values` in C, H, W order.
    /// - Precondition: every dimension is positive and `values.count == shape.count`.
    public init(shape: TensorShape, values: [Float]) {
        precondition(shape.channels > 0 && shape.height > 0 && shape.width > 0, "tensor shape \(shape) must be positive")
        precondition(values.count == shape.count, "a \(shape) tensor holds \(shape.count) values, not \(values.count)")
        self.shape = shape
        self.values = values
    }

    /// A tensor of the given shape with every value `value` (zero by default).
    public init(shape: TensorShape, repeating value: Float = 0) {
        self.init(shape: shape, values: [Float](repeating: value, count: shape.count))
    }

    /// A tensor of the given size holding `values` in C, H, W order.
    public init(channels: Int, height: Int, width: Int, values: [Float]) {
        self.init(shape: TensorShape(channels: channels, height: height, width: width), values: values)
    }

    public var channels: Int { shape.channels }
    public var height: Int { shape.height }
    public var width: Int { shape.width }

    /// The value at channel `c`, row `y`, column `x`.
    public subscript(c: Int, y: Int, x: Int) -> Float {
        get { values[(c * shape.height + y) * shape.width + x] }
        set { values[(c * shape.height + y) * shape.width + x] = newValue }
    }

    /// Index of the largest value (the winning class of a classifier's output); the first one
    /// on a tie.
    public var argmax: Int {
        var best = 0
        for i in values.indices where values[i] > values[best] { best = i }
        return best
    }

    /// Gives the storage to `body` to fill or change in place, without copying it.
    public mutating func withUnsafeMutableBufferPointer<R>(_ body: (inout UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        try values.withUnsafeMutableBufferPointer(body)
    }
}
