/// A rectangle of an image in pixel coordinates, `x0 ..< x1` by `y0 ..< y1`: fractional, and
/// possibly reaching outside the image.
public struct PixelRegion: Sendable, Equatable {
    public var x0, y0, x1, y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }
}

extension Image {
    /// `region` of the image resampled to `width`×`height` by area: an output pixel shrinking
    /// the image is the mean of the source pixels it covers, each weighed by how much of it is
    /// covered; one enlarging it interpolates linearly between the two nearest pixel centres.
    /// Outside the image, the edge pixels repeat.
    ///
    /// Unlike `resized`, it cuts a fractional region and sums in double precision, rounding once,
    /// so that it gives the bytes of the numpy resampling that the care-label networks were
    /// trained on (`resample_weights` and `crop_for_box` in training/care/data.py): any change
    /// here changes what they see.
    public func resampled(_ region: PixelRegion, width newWidth: Int, height newHeight: Int) -> Image {
        precondition(newWidth > 0 && newHeight > 0)
        let rows = ResampleKernel(areaFrom: region.y0, to: region.y1, outputSize: newHeight, inputSize: height)
        let columns = ResampleKernel(areaFrom: region.x0, to: region.x1, outputSize: newWidth, inputSize: width)
        let c = channels, w = width
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * c)
        // Rows first, into one intermediate row per output row, then columns; only the source
        // columns some output column reads are summed (a crop is a small part of a photo).
        let first = columns.starts.min() ?? 0
        let last = zip(columns.starts, columns.counts).map { $0 + $1 - 1 }.max() ?? 0
        var row = [Double](repeating: 0, count: w * c)
        let lo = first * c, hi = (last + 1) * c
        pixels.withUnsafeBufferPointer { src in
            row.withUnsafeMutableBufferPointer { row in
                out.withUnsafeMutableBufferPointer { out in
                    rows.weights.withUnsafeBufferPointer { rowWeights in
                        columns.weights.withUnsafeBufferPointer { columnWeights in
                            for oy in 0 ..< newHeight {
                                for i in lo ..< hi { row[i] = 0 }
                                for t in 0 ..< rows.counts[oy] {
                                    let weight = rowWeights[oy &* rows.stride &+ t], base = (rows.starts[oy] &+ t) &* w &* c
                                    for i in lo ..< hi { row[i] += weight * Double(src[base &+ i]) }
                                }
                                for ox in 0 ..< newWidth {
                                    let taps = columns.counts[ox], at = columns.starts[ox] &* c, weights = ox &* columns.stride
                                    for k in 0 ..< c {
                                        var sum = 0.0
                                        for t in 0 ..< taps { sum += columnWeights[weights &+ t] * row[at &+ t &* c &+ k] }
                                        out[(oy &* newWidth &+ ox) &* c &+ k] = UInt8(min(255, max(0, (sum + 0.5).rounded(.down))))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Image(width: newWidth, height: newHeight, channels: c, pixels: out)
    }
}

extension ResampleKernel {
    /// Weights for `outputSize` pixels spanning `start ..< end` of an input of `inputSize`
    /// pixels, where pixels outside the input repeat its edge: when shrinking, each input pixel
    /// weighs the part of the output pixel that it overlaps; when enlarging, the two pixel centres
    /// around the output pixel's centre share it linearly. Taps on the same (edge) pixel merge, so
    /// each output reads a contiguous run of input pixels.
    init(areaFrom start: Double, to end: Double, outputSize: Int, inputSize: Int) {
        let scale = (end - start) / Double(outputSize)
        func clamp(_ j: Int) -> Int { min(max(j, 0), inputSize - 1) }
        var taps: [[(index: Int, weight: Double)]] = []
        taps.reserveCapacity(outputSize)
        for i in 0 ..< outputSize {
            let a = start + Double(i) * scale, b = a + scale
            var run: [(index: Int, weight: Double)] = []
            // Clamped indices never decrease, so a repeated one is the last tap's.
            func add(_ j: Int, _ w: Double) {
                if let tail = run.last, tail.index == j { run[run.count - 1].weight += w } else { run.append((j, w)) }
            }
            if scale >= 1 {
                var j = Int(a.rounded(.down))
                while Double(j) < b {
                    let overlap = min(b, Double(j + 1)) - max(a, Double(j))
                    if overlap > 0 { add(clamp(j), overlap / scale) }
                    j += 1
                }
            } else {
                let c = (a + b) / 2 - 0.5
                let j = Int(c.rounded(.down))
                let t = c - Double(j)
                add(clamp(j), 1 - t)
                add(clamp(j + 1), t)
            }
            taps.append(run)
        }
        stride = max(1, taps.map(\.count).max() ?? 1)
        starts = taps.map { $0.first?.index ?? 0 }
        counts = taps.map(\.count)
        weights = [Double](repeating: 0, count: outputSize * stride)
        for (i, run) in taps.enumerated() {
            for (t, tap) in run.enumerated() { weights[i * stride + t] = tap.weight }
        }
    }
}
