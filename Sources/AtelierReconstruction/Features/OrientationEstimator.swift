import Foundation

/// The dominant gradient orientations around a detection (Lowe 2004, §5).
///
/// Gradients are taken by central differences on the Gaussian level nearest the detection's
/// scale σ, within a radius of 3 × 1.5σ, weighted by their magnitude and by a Gaussian of
/// σ_w = 1.5σ centred on the refined position, and shared linearly between the two nearest of 36
/// bins (bin b is centred on b × 10°). The histogram is smoothed once with the binomial
/// [1 4 6 4 1]/16 (circularly). Every local peak within 80% of the highest gives an orientation,
/// refined by a parabola through the peak and its neighbours; the strongest `maxOrientations`
/// are kept (COLMAP keeps 2), strongest first.
///
/// Angles are in radians in [0, 2π), measured from the image's +x axis towards +y; with y
/// pointing down the image, that is clockwise as the image is displayed.
struct OrientationEstimator: Sendable {
    static let bins = 36
    static let windowFactor: Float = 1.5
    static let peakRatio: Float = 0.8
    let maxOrientations: Int

    /// The orientations of a detection at (x, y) with scale `sigma` (octave samples) on `plane`.
    func orientations(x: Float, y: Float, sigma: Float, plane: FloatPlane, workspace: WindowWorkspace) -> [Float] {
        let windowSigma = Self.windowFactor * sigma
        let radius = max(1, Int((3 * windowSigma).rounded()))
        let cx = Int(x.rounded()), cy = Int(y.rounded())
        let x0 = max(1, cx - radius), x1 = min(plane.width - 2, cx + radius)
        let y0 = max(1, cy - radius), y1 = min(plane.height - 2, cy + radius)
        guard x0 <= x1, y0 <= y1 else { return [] }
        workspace.reserve((x1 - x0 + 1) * (y1 - y0 + 1))
        let falloff = -1 / (2 * windowSigma * windowSigma)
        let radiusSquared = Float(radius * radius) + 0.5
        let binsPerRadian = Float(Self.bins) / (2 * Float.pi)

        // Gather the samples in the disc: gradient and Gaussian weight.
        let gradientX = workspace.gradientX, gradientY = workspace.gradientY
        let weights = workspace.weights, columnWeights = workspace.columnWeights
        for px in x0 ... x1 {
            let dx = Float(px) - x
            columnWeights[px - x0] = exp(falloff * dx * dx)
        }
        var count = 0
        for py in y0 ... y1 {
            let dy = Float(py) - y
            let rowWeight = exp(falloff * dy * dy)
            let row = plane.row(py), above = plane.row(py - 1), below = plane.row(py + 1)
            for px in x0 ... x1 {
                let dx = Float(px) - x
                guard dx * dx + dy * dy <= radiusSquared else { continue }
                gradientX[count] = row[px + 1] - row[px - 1]
                gradientY[count] = below[px] - above[px]
                weights[count] = rowWeight * columnWeights[px - x0]
                count += 1
            }
        }
        // Weighted magnitudes and fractional bins, eight at a time (bins into `gradientX`).
        var i = 0
        while i < count {
            if i + 8 <= count {
                let gx = load8(gradientX + i), gy = load8(gradientY + i)
                store8(fastAngle(y: gy, x: gx) * binsPerRadian, gradientX + i)
                store8(load8(weights + i) * (gx * gx + gy * gy).squareRoot(), weights + i)
                i += 8
            } else {
                let gx = gradientX[i], gy = gradientY[i]
                gradientX[i] = fastAngle(y: gy, x: gx) * binsPerRadian
                weights[i] *= (gx * gx + gy * gy).squareRoot()
                i += 1
            }
        }
        // Linear shares of the two nearest bins; bin 36 is bin 0 again.
        let n = Self.bins
        let raw = workspace.histogram, smooth = raw + n + 1
        raw.initialize(repeating: 0, count: n + 1)
        for k in 0 ..< count {
            let position = gradientX[k], weight = weights[k]
            let lower = min(Int(position), n - 1), share = weight * (position - Float(lower))
            raw[lower] += weight - share
            raw[lower + 1] += share
        }
        raw[0] += raw[n]

        var highest: Float = 0
        for b in 0 ..< n {
            let value = (raw[(b + n - 2) % n] + raw[(b + 2) % n]) * (1 / 16)
                + (raw[(b + n - 1) % n] + raw[(b + 1) % n]) * (4 / 16) + raw[b] * (6 / 16)
            smooth[b] = value
            highest = max(highest, value)
        }
        guard highest > 0 else { return [] }
        var peaks: [(strength: Float, angle: Float)] = []
        for b in 0 ..< n {
            let left = smooth[(b + n - 1) % n], centre = smooth[b], right = smooth[(b + 1) % n]
            guard centre > left, centre >= right, centre >= Self.peakRatio * highest else { continue }
            let curvature = left - 2 * centre + right
            let shift = curvature < 0 ? 0.5 * (left - right) / curvature : 0
            var angle = (Float(b) + shift) / binsPerRadian
            if angle < 0 { angle += 2 * Float.pi }
            if angle >= 2 * Float.pi { angle -= 2 * Float.pi }
            peaks.append((centre, angle))
        }
        // Strongest first; equal strengths by angle, so the order is a pure function of the input.
        peaks.sort { $0.strength != $1.strength ? $0.strength > $1.strength : $0.angle < $1.angle }
        return peaks.prefix(maxOrientations).map { $0.angle }
    }
}
