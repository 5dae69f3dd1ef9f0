import AtelierRecords
import Dispatch

/// The pixel-level measures behind `PhotoQuality`: exposure counts, noise and sharpness, each one
/// pass over contiguous rows spread over the cores.
extension PhotoQuality {
    struct ExposureCounts {
        var clippedHighlights = 0
        var crushedShadows = 0
        var lumaSum = 0
    }

    /// The luma plane (Rec. 601 in the fixed point of `Image.grey()`) and the exposure counts,
    /// in one pass over an RGB image.
    static func lumaAndExposure(of image: Image) -> (luma: [UInt8], counts: ExposureCounts) {
        precondition(image.channels == 3 && image.pixelCount > 0)
        let width = image.width
        var luma = [UInt8](repeating: 0, count: image.pixelCount)
        let bands = image.pixels.withUnsafeBufferPointer { rgbBuffer in
            luma.withUnsafeMutableBufferPointer { lumaBuffer in
                let source = SharedBuffer(buffer: rgbBuffer), target = SharedPointer(base: lumaBuffer.baseAddress!)
                return inBands(rows: image.height, initial: ExposureCounts()) { rows in
                    let rgb = source.buffer.baseAddress!, out = target.base
                    var counts = ExposureCounts()
                    for i in rows.lowerBound &* width ..< rows.upperBound &* width {
                        let r = Int(rgb[3 &* i]), g = Int(rgb[3 &* i &+ 1]), b = Int(rgb[3 &* i &+ 2])
                        let y = (19595 &* r &+ 38470 &* g &+ 7471 &* b &+ 0x8000) >> 16
                        out[i] = UInt8(truncatingIfNeeded: y)
                        counts.lumaSum &+= y
                        counts.clippedHighlights &+= max(r, g, b) >= 250 ? 1 : 0
                        counts.crushedShadows &+= y <= 5 ? 1 : 0
                    }
                    return counts
                }
            }
        }
        var total = ExposureCounts()
        for band in bands {
            total.clippedHighlights += band.clippedHighlights
            total.crushedShadows += band.crushedShadows
            total.lumaSum += band.lumaSum
        }
        return (luma, total)
    }

    /// The noise standard deviation in luma levels, by Immerkær's fast method ("Fast Noise
    /// Variance Estimation", CVIU 64(2), 1996): the mask [1 −2 1; −2 4 −2; 1 −2 1] is blind to
    /// smooth shading (it is a mixed fourth derivative), so over flat ground its output is noise
    /// alone, with standard deviation 6σ, and σ = √(π/2) · mean|output| / 6.
    ///
    /// Edges and print do answer the mask, so only the flattest tenth of the pixels counts, by
    /// Sobel gradient magnitude (after Yang and Tai, "Fast and reliable structure-oriented video
    /// noise estimation", 2005). For Gaussian noise the Sobel outputs (odd) and the mask's (even)
    /// are uncorrelated, hence independent, so choosing flat pixels this way does not bias σ.
    /// Clipped pixels (luma ≥ 250 or ≤ 5) hold no noise and are left out. One pass: a histogram
    /// of gradient magnitude with the sum of |mask output| per bin.
    static func noiseSigma(luma: [UInt8], width: Int, height: Int) -> Double {
        guard width >= 3, height >= 3 else { return 0 }
        let bins = 8 * 255 + 1  // |gx| + |gy| ≤ 4·255 + 4·255
        struct Histogram { var counts: [Int]; var residuals: [Int] }
        let empty = Histogram(counts: [], residuals: [])
        let bands = luma.withUnsafeBufferPointer { lumaBuffer in
            let source = SharedBuffer(buffer: lumaBuffer)
            return inBands(rows: height - 2, initial: empty) { rows in
                var counts = [Int](repeating: 0, count: bins), residuals = [Int](repeating: 0, count: bins)
                counts.withUnsafeMutableBufferPointer { count in
                    residuals.withUnsafeMutableBufferPointer { residual in
                        let w = width
                        for y in rows.lowerBound &+ 1 ..< rows.upperBound &+ 1 {
                            var p = source.buffer.baseAddress! + (y &* w &+ 1)
                            for _ in 1 ..< w &- 1 {
                                let c = Int(p[0])
                                if c < 250 && c > 5 {
                                    let tl = Int(p[-w - 1]), t = Int(p[-w]), tr = Int(p[-w + 1])
                                    let l = Int(p[-1]), r = Int(p[1])
                                    let bl = Int(p[w - 1]), b = Int(p[w]), br = Int(p[w + 1])
                                    let gx = (tr &+ 2 &* r &+ br) &- (tl &+ 2 &* l &+ bl)
                                    let gy = (bl &+ 2 &* b &+ br) &- (tl &+ 2 &* t &+ tr)
                                    let n = (tl &+ tr &+ bl &+ br) &- 2 &* (t &+ b &+ l &+ r) &+ 4 &* c
                                    let bin = abs(gx) &+ abs(gy)
                                    count[bin] &+= 1
                                    residual[bin] &+= abs(n)
                                }
                                p += 1
                            }
                        }
                    }
                }
                return Histogram(counts: counts, residuals: residuals)
            }
        }
        var counts = [Int](repeating: 0, count: bins), residuals = [Int](repeating: 0, count: bins)
        for band in bands {
            for i in 0 ..< bins {
                counts[i] += band.counts[i]
                residuals[i] += band.residuals[i]
            }
        }
        let total = counts.reduce(0, +)
        guard total > 0 else { return 0 }
        let wanted = max(1, total / 10)
        var taken = 0, residualSum = 0
        for i in 0 ..< bins where taken < wanted {
            taken += counts[i]
            residualSum += residuals[i]
        }
        return (Double.pi / 2).squareRoot() * Double(residualSum) / Double(taken) / 6
    }

    /// The Laplacian's variance and the gradient energy over `region` of the luma plane, with
    /// the noise's share removed, and their ratio (see `normalisedLaplacianVariance`).
    ///
    /// White noise of deviation σ adds 20σ² to the 4-neighbour Laplacian's variance (the
    /// kernel's squares sum to 20) and 4σ² to the squared forward differences. Removing it keeps
    /// a blurred but grainy photo from passing as sharp. σ comes from the flattest pixels, so it
    /// overshoots only where texture near the pixel pitch covers the whole frame (then the
    /// photo reads as soft, which at that point it nearly is).
    static func sharpness(luma: [UInt8], width: Int, region: (x: Range<Int>, y: Range<Int>), noiseSigma: Double)
        -> (laplacianVariance: Double, gradientEnergy: Double, ratio: Double) {
        let height = luma.count / width
        let (x0, x1) = (max(1, region.x.lowerBound), min(width - 1, region.x.upperBound))
        let (y0, y1) = (max(1, region.y.lowerBound), min(height - 1, region.y.upperBound))
        guard x0 < x1, y0 < y1 else { return (0, 0, 0) }
        let xs = x0 ..< x1, ys = y0 ..< y1
        struct Moments { var laplacian = 0, laplacianSquares = 0, gradientSquares = 0 }
        let bands = luma.withUnsafeBufferPointer { lumaBuffer in
            let source = SharedBuffer(buffer: lumaBuffer)
            return inBands(rows: ys.count, initial: Moments()) { rows in
                var m = Moments()
                let w = width
                for y in ys.lowerBound &+ rows.lowerBound ..< ys.lowerBound &+ rows.upperBound {
                    var p = source.buffer.baseAddress! + (y &* w &+ xs.lowerBound)
                    for _ in xs {
                        let c = Int(p[0]), r = Int(p[1]), b = Int(p[w])
                        let laplacian = Int(p[-w]) &+ b &+ Int(p[-1]) &+ r &- 4 &* c
                        let gx = r &- c, gy = b &- c
                        m.laplacian &+= laplacian
                        m.laplacianSquares &+= laplacian &* laplacian
                        m.gradientSquares &+= gx &* gx &+ gy &* gy
                        p += 1
                    }
                }
                return m
            }
        }
        var total = Moments()
        for band in bands {
            total.laplacian += band.laplacian
            total.laplacianSquares += band.laplacianSquares
            total.gradientSquares += band.gradientSquares
        }
        let n = Double(xs.count * ys.count)
        let meanLaplacian = Double(total.laplacian) / n
        let rawVariance = Double(total.laplacianSquares) / n - meanLaplacian * meanLaplacian
        let rawEnergy = Double(total.gradientSquares) / n
        let noise = noiseSigma * noiseSigma
        let variance = max(0, rawVariance - 20 * noise)
        let energy = max(0, rawEnergy - 4 * noise)
        // Below an RMS gradient of a level per pixel there is nothing to judge focus by.
        return (variance, energy, energy >= 1 ? variance / energy : 0)
    }

    /// Runs `body` on up to 8 consecutive bands of `rows` rows (at least `minimumRows` each)
    /// across the cores and returns each band's result, in order. More bands than cores even
    /// out a core that another process is holding.
    static func inBands<T>(rows: Int, minimumRows: Int = 32, initial: T, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let count = max(1, min(8, rows / minimumRows))
        var results = [T](repeating: initial, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedPointer(base: buffer.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: count) { band in
                shared.base[band] = body(rows * band / count ..< rows * (band + 1) / count)
            }
        }
        return results
    }
}
