/// Finds the extrema of the difference of Gaussians in one octave and refines them (Lowe 2004,
/// §§3–4).
///
/// 1. Scan: every sample of DoG levels 1 … S at least `border` samples from the edge whose
///    |DoG| reaches half the peak threshold (checked eight samples at a time, together with
///    being a peak along the row, which discards most samples before any other work) and which is
///    above, or below, all 26 neighbours in its 3×3×3 neighbourhood (ties broken by scan order).
/// 2. Refine: fit a quadratic to the DoG around the sample (gradient and Hessian by central
///    differences) and solve for the offset of its extremum. When the offset exceeds 0.6 of a
///    sample in some dimension the fit moves one sample that way (0.6 rather than 0.5 so that a
///    point half-way between two samples does not oscillate between them) and tries again, up
///    to five times.
/// 3. Reject what is unstable: points that do not settle within five steps, that leave DoG
///    levels 1 … S or the border, whose Hessian is singular, whose interpolated |DoG| is below
///    the peak threshold (low contrast), or whose ratio of principal curvatures exceeds the edge
///    threshold r, tested as `tr(H)² · r ≥ (r + 1)² · det(H)` on the 2×2 spatial Hessian (edges).
///
/// Rows are cut into bands scanned in parallel; the detections come back in band order, so the
/// result does not depend on the thread count.
struct ExtremumDetector: Sendable {
    /// The least |DoG| (image intensities in [0, 1]) an extremum may have after refinement.
    let peakThreshold: Float
    /// Lowe's r: the largest ratio of the two principal curvatures kept (10).
    let edgeThreshold: Float

    /// Samples left alone along each edge of an octave.
    static let border = 5
    static let maxRefinementSteps = 5
    static let bandRows = 32

    func detect(in octave: Octave, slot: Int, splitter: WorkSplitter) -> [Detection] {
        let border = Self.border
        guard octave.width > 2 * border + 2, octave.height > 2 * border + 2 else { return [] }
        let rows = octave.height - 2 * border
        let bands = (rows + Self.bandRows - 1) / Self.bandRows
        let found = splitter.map(bands) { band in
            let top = border + band * Self.bandRows
            return scan(octave, slot: slot, rows: top ..< min(octave.height - border, top + Self.bandRows))
        }
        // Two candidates can converge on the same sample: keep the first (they are identical).
        var seen = Set<Int>()
        var detections: [Detection] = []
        for detection in found.joined() {
            let key = (Int(detection.sampleLayer) * octave.height + Int(detection.sampleY)) * octave.width + Int(detection.sampleX)
            if seen.insert(key).inserted { detections.append(detection) }
        }
        return detections
    }

    private func scan(_ octave: Octave, slot: Int, rows: Range<Int>) -> [Detection] {
        var detections: [Detection] = []
        let width = octave.width, border = Self.border
        let preThreshold = 0.5 * peakThreshold
        let threshold8 = SIMD8<Float>(repeating: preThreshold)
        for layer in 1 ... octave.scalesPerOctave {
            let planes = (octave.level(layer - 1), octave.level(layer), octave.level(layer + 1), octave.level(layer + 2))
            for y in rows {
                let g0 = UnsafePointer(planes.0.row(y)), g1 = UnsafePointer(planes.1.row(y))
                let g2 = UnsafePointer(planes.2.row(y)), g3 = UnsafePointer(planes.3.row(y))
                var x = border
                let end = width - border
                while x < end {
                    let block = min(8, end - x)
                    var lanes = SIMDMask<SIMD8<Int32>>(repeating: true)
                    if block == 8 {
                        // Eight samples at once: large enough, and a peak or trough along the row
                        // (with the same tie rule as `isExtremum`), which few samples are.
                        let dog = load8(g2 + x) - load8(g1 + x)
                        let left = load8(g2 + x - 1) - load8(g1 + x - 1), right = load8(g2 + x + 1) - load8(g1 + x + 1)
                        let large = (dog .>= threshold8) .| (dog .<= -threshold8)
                        let peak = ((dog .>= left) .& (dog .> right)) .| ((dog .<= left) .& (dog .< right))
                        lanes = large .& peak
                        if !any(lanes) {
                            x &+= 8
                            continue
                        }
                    }
                    for lane in 0 ..< block where lanes[lane] {
                        let i = x + lane
                        let value = g2[i] - g1[i]
                        guard abs(value) >= preThreshold,
                              Self.isExtremum(g0 + i, g1 + i, g2 + i, g3 + i, stride: width, value: value) else { continue }
                        if let detection = refine(octave, slot: slot, x: i, y: y, layer: layer) {
                            detections.append(detection)
                        }
                    }
                    x &+= block
                }
            }
        }
        return detections
    }

    /// Whether `value`, the DoG at the centre (`g2[0] − g1[0]`), is beyond all 26 neighbours,
    /// where DoG levels below, at and above are `g1 − g0`, `g2 − g1`, `g3 − g2`.
    ///
    /// Ties are broken by scan order (level, row, column): the centre must strictly beat the
    /// neighbours that come after it and at least equal those before it. Of two samples with
    /// the same value (a blob centred exactly half-way between them) exactly one is then an
    /// extremum: with a strict test on both sides neither would be, with a loose one both would.
    @inline(__always)
    static func isExtremum(_ g0: UnsafePointer<Float>, _ g1: UnsafePointer<Float>, _ g2: UnsafePointer<Float>,
                           _ g3: UnsafePointer<Float>, stride: Int, value: Float) -> Bool {
        for dy in -1 ... 1 {
            for dx in -1 ... 1 {
                let q = dy &* stride &+ dx
                let below = g1[q] - g0[q], here = g2[q] - g1[q], above = g3[q] - g2[q]
                if value > 0 {
                    if below > value || above >= value || (q < 0 && here > value) || (q > 0 && here >= value) { return false }
                } else {
                    if below < value || above <= value || (q < 0 && here < value) || (q > 0 && here <= value) { return false }
                }
            }
        }
        return true
    }

    /// The refined extremum near sample (x, y) of DoG level `layer`, or nil when it is unstable.
    func refine(_ octave: Octave, slot: Int, x: Int, y: Int, layer: Int) -> Detection? {
        var (xi, yi, li) = (x, y, layer)
        let border = Self.border
        var stencil = DoGStencil(octave, x: xi, y: yi, layer: li)
        var offset = SIMD3<Double>.zero
        var settled = false
        for _ in 0 ..< Self.maxRefinementSteps {
            guard let solved = stencil.extremumOffset() else { return nil }
            offset = solved
            let step = SIMD3<Int>(offset.x > 0.6 ? 1 : (offset.x < -0.6 ? -1 : 0),
                                  offset.y > 0.6 ? 1 : (offset.y < -0.6 ? -1 : 0),
                                  offset.z > 0.6 ? 1 : (offset.z < -0.6 ? -1 : 0))
            if step == .zero {
                settled = true
                break
            }
            xi += step.x
            yi += step.y
            li += step.z
            guard li >= 1, li <= octave.scalesPerOctave, xi >= border, xi < octave.width - border,
                  yi >= border, yi < octave.height - border else { return nil }
            stencil = DoGStencil(octave, x: xi, y: yi, layer: li)
        }
        guard settled else { return nil }
        let contrast = stencil.value + 0.5 * (stencil.gradient * offset).sum()
        guard abs(contrast) >= Double(peakThreshold) else { return nil }
        let trace = stencil.dxx + stencil.dyy
        let determinant = stencil.dxx * stencil.dyy - stencil.dxy * stencil.dxy
        let r = Double(edgeThreshold)
        guard determinant > 0, trace * trace * r < (r + 1) * (r + 1) * determinant else { return nil }
        return Detection(octaveSlot: slot, x: Float(Double(xi) + offset.x), y: Float(Double(yi) + offset.y),
                         layer: Float(Double(li) + offset.z), response: Float(contrast),
                         sampleX: Int32(xi), sampleY: Int32(yi), sampleLayer: Int32(li))
    }
}

/// The DoG around one sample of an octave: its value, gradient and Hessian by central
/// differences over the 3×3×3 neighbourhood (x, y, level), in double precision.
struct DoGStencil {
    var value: Double
    var gradient: SIMD3<Double>
    var dxx: Double, dyy: Double, dss: Double
    var dxy: Double, dxs: Double, dys: Double

    init(_ octave: Octave, x: Int, y: Int, layer: Int) {
        let at = y * octave.width + x, w = octave.width
        let g = (octave.level(layer - 1).base + at, octave.level(layer).base + at,
                 octave.level(layer + 1).base + at, octave.level(layer + 2).base + at)
        // DoG at level offset s (−1, 0, +1) and sample offset q.
        func d(_ s: Int, _ q: Int) -> Double {
            switch s {
            case -1: return Double(g.1[q] - g.0[q])
            case 0: return Double(g.2[q] - g.1[q])
            default: return Double(g.3[q] - g.2[q])
            }
        }
        value = d(0, 0)
        gradient = SIMD3(0.5 * (d(0, 1) - d(0, -1)), 0.5 * (d(0, w) - d(0, -w)), 0.5 * (d(1, 0) - d(-1, 0)))
        dxx = d(0, 1) + d(0, -1) - 2 * value
        dyy = d(0, w) + d(0, -w) - 2 * value
        dss = d(1, 0) + d(-1, 0) - 2 * value
        dxy = 0.25 * (d(0, w + 1) - d(0, w - 1) - d(0, -w + 1) + d(0, -w - 1))
        dxs = 0.25 * (d(1, 1) - d(1, -1) - d(-1, 1) + d(-1, -1))
        dys = 0.25 * (d(1, w) - d(1, -w) - d(-1, w) + d(-1, -w))
    }

    /// The offset to the extremum of the quadratic fit, −H⁻¹·∇D (Cramer's rule on the symmetric
    /// 3×3 Hessian), or nil when the Hessian is singular.
    func extremumOffset() -> SIMD3<Double>? {
        let c00 = dyy * dss - dys * dys, c01 = dxs * dys - dxy * dss, c02 = dxy * dys - dxs * dyy
        let determinant = dxx * c00 + dxy * c01 + dxs * c02
        guard determinant != 0, determinant.isFinite else { return nil }
        let c11 = dxx * dss - dxs * dxs, c12 = dxs * dxy - dxx * dys, c22 = dxx * dyy - dxy * dxy
        let g = gradient
        let offset = -SIMD3(c00 * g.x + c01 * g.y + c02 * g.z,
                            c01 * g.x + c11 * g.y + c12 * g.z,
                            c02 * g.x + c12 * g.y + c22 * g.z) / determinant
        guard offset.x.isFinite, offset.y.isFinite, offset.z.isFinite else { return nil }
        return offset
    }
}
