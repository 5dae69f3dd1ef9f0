import AtelierRecords
import CResample
import Dispatch
import Foundation

/// Resampling filters for `Image.resized` (Pillow's; `Image.resampled(_:width:height:)` averages
/// areas exactly instead).
public enum ResampleFilter: Sendable, Hashable {
    /// The mean of the source pixels whose centres each output pixel covers: exact area
    /// averaging at whole-number ratios.
    case box
    case bilinear
    /// Lanczos with three lobes: the sharpest of the usual choices, for thumbnails.
    case lanczos3

    var support: Double {
        switch self {
        case .box: return 0.5
        case .bilinear: return 1
        case .lanczos3: return 3
        }
    }

    func weight(_ x: Double) -> Double {
        switch self {
        case .box:
            return x > -0.5 && x <= 0.5 ? 1 : 0
        case .bilinear:
            let a = abs(x)
            return a < 1 ? 1 - a : 0
        case .lanczos3:
            if x == 0 { return 1 }
            guard x > -3 && x < 3 else { return 0 }
            let px = Double.pi * x
            return 3 * sin(px) * sin(px / 3) / (px * px)
        }
    }
}

extension Image {
    /// The image at `width`×`height`, resampled with `filter` as two separable passes.
    ///
    /// When shrinking, the filter is stretched over the source pixels each output pixel covers
    /// (as Pillow and ImageMagick do), so detail averages out instead of aliasing. Rows are
    /// spread over the cores.
    public func resized(width newWidth: Int, height newHeight: Int, filter: ResampleFilter = .lanczos3) -> Image {
        precondition(newWidth > 0 && newHeight > 0)
        if newWidth == width && newHeight == height { return self }
        var current = self
        if newWidth != width {
            current = current.resampledHorizontally(to: newWidth, filter: filter)
        }
        if newHeight != height {
            current = current.resampledVertically(to: newHeight, filter: filter)
        }
        return current
    }

    /// The image scaled so its longer side is `side` pixels (never enlarged).
    public func fitted(within side: Int, filter: ResampleFilter = .lanczos3) -> Image {
        let longer = max(width, height)
        guard longer > side else { return self }
        let scale = Double(side) / Double(longer)
        return resized(width: max(1, Int((Double(width) * scale).rounded())),
                       height: max(1, Int((Double(height) * scale).rounded())), filter: filter)
    }

    private func resampledHorizontally(to newWidth: Int, filter: ResampleFilter) -> Image {
        let (kernel, fixedPoint) = ResampleKernel.shared(inputSize: width, outputSize: newWidth, filter: filter)
        let (c, w, h) = (channels, width, height)
        let out = [UInt8](unsafeUninitializedCapacity: newWidth * h * c) { target, initialized in
            pixels.withUnsafeBufferPointer { source in
                kernel.withPasses(fixedPoint) { pass in
                    let job = ResampleRows(source: SharedBuffer(buffer: source), target: SharedPointer(base: target.baseAddress!),
                                           kernel: pass, inputWidth: w, outputWidth: newWidth, channels: c)
                    Self.forEachBand(rows: h, work: w * h) { y in job.row(y) }
                }
            }
            initialized = newWidth * h * c
        }
        return Image(width: newWidth, height: height, channels: channels, pixels: out)
    }

    /// The vertical pass, row by row: each output row is a weighted sum of whole input rows, so
    /// the inner loop runs over contiguous samples. The sums and their rounding are those of the
    /// horizontal pass (Pillow's `ImagingResampleVertical`).
    private func resampledVertically(to newHeight: Int, filter: ResampleFilter) -> Image {
        let (kernel, fixedPoint) = ResampleKernel.shared(inputSize: height, outputSize: newHeight, filter: filter)
        let rowLength = width * channels
        let out = [UInt8](unsafeUninitializedCapacity: newHeight * rowLength) { target, initialized in
            pixels.withUnsafeBufferPointer { source in
                kernel.withPasses(fixedPoint) { pass in
                    let job = ResampleColumns(source: SharedBuffer(buffer: source), target: SharedPointer(base: target.baseAddress!),
                                              kernel: pass, rowLength: rowLength)
                    Self.forEachBand(rows: newHeight, work: width * height) { y in job.row(y) }
                }
            }
            initialized = newHeight * rowLength
        }
        return Image(width: width, height: newHeight, channels: channels, pixels: out)
    }

    /// Calls `body` for each of `rows`, spread over the cores in interleaved bands when the image
    /// (`work` pixels) is large enough to be worth waking the other core for.
    private static func forEachBand(rows: Int, work: Int, _ body: (Int) -> Void) {
        let bands = work < 65_536 ? 1 : min(rows, 16)
        if bands == 1 {
            for y in 0 ..< rows { body(y) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let shared = SharedClosure(body: body)
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                for y in Swift.stride(from: band, to: rows, by: bands) { shared.body(y) }
            }
        }
    }
}

/// A row closure handed to the workers of `forEachBand` (each calls it on rows of its own).
private struct SharedClosure: @unchecked Sendable {
    let body: (Int) -> Void
}

/// A kernel's arrays as `CResample` reads them, shared by the workers of one pass.
struct ResamplePass: @unchecked Sendable {
    var kernel: atl_resample_kernel
}

/// One vertical resampling pass: output row `y` is the weighted sum of input rows
/// `starts[y] ..< starts[y] + counts[y]` (`atl_resample_column`).
private struct ResampleColumns: Sendable {
    let source: SharedBuffer<UInt8>
    let target: SharedPointer<UInt8>
    let kernel: ResamplePass
    let rowLength: Int

    func row(_ y: Int) {
        withUnsafePointer(to: kernel.kernel) { k in
            atl_resample_column(source.buffer.baseAddress!, rowLength, k, y, target.base + y &* rowLength)
        }
    }
}

/// One horizontal resampling pass over shared buffers; `row` does one row
/// (`atl_resample_row`), and rows are independent, so the workers split them.
private struct ResampleRows: Sendable {
    let source: SharedBuffer<UInt8>
    let target: SharedPointer<UInt8>
    let kernel: ResamplePass
    let inputWidth: Int
    let outputWidth: Int
    let channels: Int

    func row(_ y: Int) {
        let offset = y &* inputWidth &* channels
        withUnsafePointer(to: kernel.kernel) { k in
            atl_resample_row(source.buffer.baseAddress! + offset, source.buffer.count - offset, channels, k,
                             target.base + y &* outputWidth &* channels)
        }
    }
}

/// For each output position: the first input pixel it reads, how many, and their weights (which
/// sum to 1), for one pass of a separable resampling.
///
/// `init(inputSize:outputSize:filter:)` makes Pillow's weights (`ImagingResample`): the filter
/// centred on the output pixel, stretched by the scale when shrinking, normalised; `resized`
/// holds them in fixed point with 22 fractional bits, rounded the same way
/// (`fixedPointWeights`), so that a resize here gives Pillow's pixels and measures built on it
/// (imagehash's pHash and dHash) give its bits. `init(areaFrom:to:outputSize:inputSize:)` makes
/// the exact area weights of `resampled(_:width:height:)`.
struct ResampleKernel: Sendable {
    static let precisionBits: Int32 = 32 - 8 - 2
    var starts: [Int]
    var counts: [Int]
    var weights: [Double]
    /// Weights per output position in `weights`.
    var stride: Int

    init(inputSize: Int, outputSize: Int, filter: ResampleFilter) {
        let scale = Double(inputSize) / Double(outputSize)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        stride = Int(support.rounded(.up)) * 2 + 1
        starts = [Int](repeating: 0, count: outputSize)
        counts = [Int](repeating: 0, count: outputSize)
        weights = [Double](repeating: 0, count: outputSize * stride)
        let inverse = 1 / filterScale
        var local = [Double](repeating: 0, count: stride)
        for x in 0 ..< outputSize {
            let centre = (Double(x) + 0.5) * scale
            let first = max(0, Int(centre - support + 0.5))
            let last = min(inputSize, Int(centre + support + 0.5))
            let count = min(last - first, stride)
            var total = 0.0
            for i in 0 ..< count {
                let w = filter.weight((Double(i + first) - centre + 0.5) * inverse)
                local[i] = w
                total += w
            }
            starts[x] = first
            counts[x] = count
            for i in 0 ..< count { weights[x * stride + i] = total != 0 ? local[i] / total : 0 }
        }
    }

    /// The kernel and its fixed-point weights for one pass, worked out once per size and filter:
    /// an import of photos from one camera resizes every photo between the same sizes, and the
    /// weights (two sines a tap) cost as much as a small image's resize.
    static func shared(inputSize: Int, outputSize: Int, filter: ResampleFilter) -> (ResampleKernel, [Int32]) {
        let key = KernelCache.Key(inputSize: inputSize, outputSize: outputSize, filter: filter)
        if let found = KernelCache.shared.lock.withLock({ KernelCache.shared.entries[key] }) { return found }
        let kernel = ResampleKernel(inputSize: inputSize, outputSize: outputSize, filter: filter)
        let made = (kernel, kernel.fixedPointWeights())
        KernelCache.shared.lock.withLock {
            if KernelCache.shared.entries.count >= KernelCache.capacity { KernelCache.shared.entries.removeAll(keepingCapacity: true) }
            KernelCache.shared.entries[key] = made
        }
        return made
    }

    /// The weights of each output position in fixed point, `paddedStride` apart.
    var paddedStride: Int { (stride + 7) & ~7 }

    /// The weights in fixed point with `precisionBits` fractional bits, rounded half away from
    /// zero as Pillow rounds them, each output position's `paddedStride` apart and zero past its
    /// count (as `CResample` reads them: whole vectors of taps).
    func fixedPointWeights() -> [Int32] {
        let one = Double(1 << Self.precisionBits)
        var fixed = [Int32](repeating: 0, count: starts.count * paddedStride)
        for x in 0 ..< starts.count {
            for i in 0 ..< counts[x] {
                let k = weights[x * stride + i]
                fixed[x * paddedStride + i] = Int32(k < 0 ? (-0.5 + k * one).rounded(.towardZero) : (0.5 + k * one).rounded(.towardZero))
            }
        }
        return fixed
    }

    /// Calls `body` with this kernel's arrays and `fixedPoint` (its `fixedPointWeights`) as
    /// `CResample` reads them, valid for the call.
    func withPasses<R>(_ fixedPoint: [Int32], _ body: (ResamplePass) -> R) -> R {
        fixedPoint.withUnsafeBufferPointer { weights in
            starts.withUnsafeBufferPointer { first in
                counts.withUnsafeBufferPointer { taps in
                    body(ResamplePass(kernel: atl_resample_kernel(weights: weights.baseAddress, starts: first.baseAddress,
                                                                  counts: taps.baseAddress, stride: paddedStride, outputs: starts.count)))
                }
            }
        }
    }
}

/// The kernels `ResampleKernel.shared` has made, emptied when full (a batch of photos needs a
/// handful of sizes).
private final class KernelCache: @unchecked Sendable {
    struct Key: Hashable {
        var inputSize: Int
        var outputSize: Int
        var filter: ResampleFilter
    }

    static let shared = KernelCache()
    static let capacity = 64
    let lock = NSLock()
    var entries: [Key: (ResampleKernel, [Int32])] = [:]
}
