/// A single-channel image of `Float` samples, rows top to bottom without padding, in one
/// allocation whose address never moves, so the scale-space loops can hold raw pointers into it
/// (no bounds checks, no reference counting per sample) and share it between threads.
///
/// Sample (x, y) is centred at (x, y) in the plane's own grid (the feature code keeps integer
/// sample centres internally and converts to COLMAP's pixel-corner convention only on output).
///
/// A plane is written only while it is being made, each worker filling its own rows, and is
/// read-only afterwards: that is what makes the `@unchecked Sendable` sound.
final class FloatPlane: @unchecked Sendable {
    let width: Int
    let height: Int
    let base: UnsafeMutablePointer<Float>

    /// A plane whose samples the caller must all write before reading any.
    init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a plane has at least one sample")
        self.width = width
        self.height = height
        base = .allocate(capacity: width * height)
    }

    /// A plane holding `samples`, row by row.
    convenience init(width: Int, height: Int, samples: [Float]) {
        precondition(samples.count == width * height, "sample buffer does not match the size")
        self.init(width: width, height: height)
        samples.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
    }

    deinit { base.deallocate() }

    var count: Int { width * height }

    /// The first sample of row `y`.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<Float> { base + y &* width }

    @inline(__always)
    subscript(x: Int, y: Int) -> Float { base[y &* width &+ x] }

    /// The samples as an array (for tests and debugging; the hot loops use `base`).
    var samples: [Float] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
