import Foundation

/// Lowe's 128-dimensional descriptor (2004, §6), written out as RootSIFT (Arandjelović &
/// Zisserman 2012).
///
/// The window is rotated to the keypoint's orientation and cut into 4 × 4 spatial bins of side
/// 3σ (σ the keypoint's scale, VLFeat's and COLMAP's magnification of 3); each bin holds an
/// 8-bin histogram of gradient orientation relative to the keypoint's. Every sample within
/// reach (a radius of 3σ · √2 · 5/2 covers the rotated window and the interpolation margin)
/// adds its gradient magnitude, weighted by a Gaussian of half the window's width (σ = 2 bins)
/// centred on the keypoint, to the 8 neighbouring (row, column, orientation) bins by trilinear
/// interpolation, so nothing jumps when a sample crosses a bin boundary.
///
/// Normalisation: unit L2 norm, entries clamped at 0.2 (damps large gradient magnitudes from
/// non-linear lighting), then RootSIFT: unit L1 norm and the element-wise square root. (Lowe
/// renormalises to unit L2 after the clamp; the L1 step makes that redundant.) The result is
/// non-negative with unit L2 norm, so comparing two descriptors by Euclidean distance compares
/// their Hellinger kernel, and `|a − b|² = 2 − 2 a·b` turns matching into dot products.
///
/// Layout: `[row][column][orientation]`, row and column in the keypoint's rotated frame (row
/// along its +y), orientation bin k centred on k·45° relative to the keypoint's orientation.
enum SIFTDescriptor {
    static let length = 128
    static let spatialBins = 4
    static let orientationBins = 8
    /// Side of a spatial bin, in units of the keypoint's scale σ.
    static let binSideInSigmas: Float = 3
    static let clamp: Float = 0.2

    /// Writes the descriptor of the keypoint at (x, y), scale `sigma` (octave samples) and
    /// `orientation` (radians) on `plane` into `out` (128 floats); false, with `out` undefined,
    /// when its window holds no gradient at all.
    ///
    /// Three passes over the window: gather the samples inside the rotated grid (their bin
    /// coordinates, gradient and Gaussian weight) into `workspace`; compute magnitudes and
    /// relative orientation bins eight samples at a time; spread each over its 8 neighbouring
    /// bins of a padded histogram without bounds tests.
    static func compute(x: Float, y: Float, sigma: Float, orientation: Float, plane: FloatPlane,
                        workspace: WindowWorkspace, into out: UnsafeMutablePointer<Float>) -> Bool {
        guard let window = Window(x: x, y: y, sigma: sigma, orientation: orientation, plane: plane) else { return false }
        workspace.reserve(window.sampleCapacity)
        let count = gatherSamples(window, plane: plane, workspace: workspace)
        weighGradients(count: count, orientation: orientation, workspace: workspace)
        accumulateHistogram(count: count, workspace: workspace)
        foldHistogram(workspace.histogram, into: out)
        return normalise(out)
    }

    /// The samples a keypoint's descriptor reads: the square of pixels within reach of its
    /// rotated 4 × 4 grid, clipped one pixel inside the plane (central differences need a
    /// neighbour on each side), and the rotation and Gaussian that map and weigh them.
    struct Window {
        let x: Float, y: Float
        let x0: Int, x1: Int, y0: Int, y1: Int
        /// Rotation into the keypoint's frame, scaled to bins.
        let cosine: Float, sine: Float
        /// The Gaussian of σ = d/2 bins, as the factor of the squared distance in samples.
        let falloff: Float
        /// Bin coordinate of the keypoint (the grid's middle, bin centres at 0 … 3).
        let centre: Float

        /// Nil when the window misses the plane.
        init?(x: Float, y: Float, sigma: Float, orientation: Float, plane: FloatPlane) {
            let d = spatialBins
            let binSide = binSideInSigmas * sigma
            let radius = max(1, Int((binSide * Float(2).squareRoot() * Float(d + 1) * 0.5).rounded()))
            let cx = Int(x.rounded()), cy = Int(y.rounded())
            x0 = max(1, cx - radius)
            x1 = min(plane.width - 2, cx + radius)
            y0 = max(1, cy - radius)
            y1 = min(plane.height - 2, cy + radius)
            guard x0 <= x1, y0 <= y1 else { return nil }
            self.x = x
            self.y = y
            cosine = cos(orientation) / binSide
            sine = sin(orientation) / binSide
            // Gaussian of σ = d/2 bins, in samples: separable, so one exp per row and per column.
            let windowSigma = 0.5 * Float(d) * binSide
            falloff = -1 / (2 * windowSigma * windowSigma)
            centre = 0.5 * Float(d) - 0.5
        }

        var sampleCapacity: Int { (x1 - x0 + 1) * (y1 - y0 + 1) }
    }

    /// Pass 1: the samples that fall inside the rotated 4 × 4 grid (bin centres 0 … 3), with
    /// their bin coordinates, gradient and Gaussian weight, into `workspace`; returns how many.
    private static func gatherSamples(_ window: Window, plane: FloatPlane, workspace: WindowWorkspace) -> Int {
        let d = spatialBins
        let x = window.x, y = window.y, x0 = window.x0
        let cosine = window.cosine, sine = window.sine, falloff = window.falloff, centre = window.centre
        let rowBins = workspace.rowBins, columnBins = workspace.columnBins
        let gradientX = workspace.gradientX, gradientY = workspace.gradientY
        let weights = workspace.weights, columnWeights = workspace.columnWeights
        for px in x0 ... window.x1 {
            let dx = Float(px) - x
            columnWeights[px - x0] = exp(falloff * dx * dx)
        }
        var count = 0
        for py in window.y0 ... window.y1 {
            let dy = Float(py) - y
            let rowWeight = exp(falloff * dy * dy)
            let row = plane.row(py), above = plane.row(py - 1), below = plane.row(py + 1)
            for px in x0 ... window.x1 {
                let dx = Float(px) - x
                let column = (cosine * dx + sine * dy) + centre
                let rowBin = (-sine * dx + cosine * dy) + centre
                guard column > -1, column < Float(d), rowBin > -1, rowBin < Float(d) else { continue }
                rowBins[count] = rowBin
                columnBins[count] = column
                gradientX[count] = row[px + 1] - row[px - 1]
                gradientY[count] = below[px] - above[px]
                weights[count] = rowWeight * columnWeights[px - x0]
                count += 1
            }
        }
        return count
    }

    /// Pass 2: magnitudes and orientation bins relative to the keypoint, eight at a time; the
    /// orientation bin goes into `gradientX`, the weighted magnitude into `weights`.
    private static func weighGradients(count: Int, orientation: Float, workspace: WindowWorkspace) {
        let n = orientationBins
        let gradientX = workspace.gradientX, gradientY = workspace.gradientY, weights = workspace.weights
        let binsPerRadian = Float(n) / (2 * Float.pi)
        var i = 0
        while i < count {
            if i + 8 <= count {
                let gx = load8(gradientX + i), gy = load8(gradientY + i)
                var angle = fastAngle(y: gy, x: gx) - orientation
                angle.replace(with: angle + 2 * Float.pi, where: angle .< 0)
                var bin = angle * binsPerRadian
                bin.replace(with: bin - Float(n), where: bin .>= Float(n))
                store8(bin, gradientX + i)
                store8(load8(weights + i) * (gx * gx + gy * gy).squareRoot(), weights + i)
                i += 8
            } else {
                let gx = gradientX[i], gy = gradientY[i]
                var angle = fastAngle(y: gy, x: gx) - orientation
                if angle < 0 { angle += 2 * Float.pi }
                var bin = angle * binsPerRadian
                if bin >= Float(n) { bin -= Float(n) }
                gradientX[i] = bin
                weights[i] *= (gx * gx + gy * gy).squareRoot()
                i += 1
            }
        }
    }

    /// Pass 3: trilinear interpolation into the padded histogram: spatial cell (r + 1, c + 1)
    /// for r, c in −1 … 4, orientation o in 0 … 8 (8 wraps to 0).
    private static func accumulateHistogram(count: Int, workspace: WindowWorkspace) {
        let rowBins = workspace.rowBins, columnBins = workspace.columnBins
        let bins = workspace.gradientX, weights = workspace.weights
        let histogram = workspace.histogram
        histogram.initialize(repeating: 0, count: WindowWorkspace.histogramCount)
        for k in 0 ..< count {
            let rowBin = rowBins[k], column = columnBins[k], bin = bins[k], weight = weights[k]
            // Bin coordinates exceed −1, so truncation after adding 1 is the floor.
            let r = Int(rowBin + 1), c = Int(column + 1), o = Int(bin)
            let fr = rowBin + 1 - Float(r), fc = column + 1 - Float(c), fo = bin - Float(o)
            let cell = histogram + (r * 6 + c) * 9 + o
            let w1 = weight * fr, w0 = weight - w1
            let w11 = w1 * fc, w10 = w1 - w11, w01 = w0 * fc, w00 = w0 - w01
            cell[0] += w00 - w00 * fo
            cell[1] += w00 * fo
            cell[9] += w01 - w01 * fo
            cell[10] += w01 * fo
            cell[54] += w10 - w10 * fo
            cell[55] += w10 * fo
            cell[63] += w11 - w11 * fo
            cell[64] += w11 * fo
        }
    }

    /// The padded histogram's inner 4 × 4 cells into `out` in `[row][column][orientation]`
    /// order, the wrapped ninth orientation bin added back to the first.
    private static func foldHistogram(_ histogram: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let d = spatialBins, n = orientationBins
        for r in 0 ..< d {
            for c in 0 ..< d {
                let cell = histogram + ((r + 1) * 6 + (c + 1)) * 9
                let target = out + (r * d + c) * n
                target[0] = cell[0] + cell[n]
                for o in 1 ..< n { target[o] = cell[o] }
            }
        }
    }

    /// Unit L2, clamp at 0.2, then RootSIFT (unit L1, square root). False for an empty histogram.
    private static func normalise(_ v: UnsafeMutablePointer<Float>) -> Bool {
        var squares: Float = 0
        for i in 0 ..< length { squares += v[i] * v[i] }
        guard squares > 0 else { return false }
        let inverse = 1 / squares.squareRoot()
        var total: Float = 0
        for i in 0 ..< length {
            let clamped = min(v[i] * inverse, clamp)
            v[i] = clamped
            total += clamped
        }
        let inverseTotal = 1 / total
        for i in 0 ..< length { v[i] = (v[i] * inverseTotal).squareRoot() }
        return true
    }
}
