import AtelierImaging
import AtelierRecords
import Dispatch

/// A floating-point RGB picture (sRGB values in [0, 1]) that the texture generators paint into.
///
/// Work is split into bands of rows painted on both cores; every band draws the same marks in the
/// same order, so the result does not depend on how many threads ran.
struct Canvas {
    let width: Int
    let height: Int
    var pixels: [Float]

    static let bandRows = 32

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [Float](repeating: 0, count: width * height * 3)
    }

    /// Runs `body` on bands of rows on both cores, handing it the rows and the pixel storage.
    private mutating func forEachBand(_ body: @Sendable (Range<Int>, UnsafeMutablePointer<Float>) -> Void) {
        let height = height
        pixels.withUnsafeMutableBufferPointer { buffer in
            let shared = SharedPointer(base: buffer.baseAddress!)
            let bands = (height + Self.bandRows - 1) / Self.bandRows
            DispatchQueue.concurrentPerform(iterations: bands) { band in
                body(band * Self.bandRows ..< min(height, (band + 1) * Self.bandRows), shared.base)
            }
        }
    }

    /// Sets every pixel to `colour(x, y)`, evaluated at the pixel's integer index.
    mutating func fill(_ colour: @Sendable (Int, Int) -> SIMD3<Float>) {
        let width = width
        forEachBand { rows, base in
            for y in rows {
                for x in 0 ..< width {
                    let c = colour(x, y), p = base + 3 * (y * width + x)
                    p[0] = c.x
                    p[1] = c.y
                    p[2] = c.z
                }
            }
        }
    }

    /// Multiplies every pixel by `factor(x, y)` (a grey level or a tint).
    mutating func modulate(_ factor: @Sendable (Int, Int) -> SIMD3<Float>) {
        let width = width
        forEachBand { rows, base in
            for y in rows {
                for x in 0 ..< width {
                    let f = factor(x, y), p = base + 3 * (y * width + x)
                    p[0] *= f.x
                    p[1] *= f.y
                    p[2] *= f.z
                }
            }
        }
    }

    /// Paints the marks over the picture, in order, each blended by its coverage and opacity.
    mutating func paint(_ marks: [Mark]) {
        let width = width
        let storage = FixedBuffer(marks)
        forEachBand { rows, base in
            for mark in storage.pointer {
                let top = max(rows.lowerBound, mark.bounds.y0), bottom = min(rows.upperBound, mark.bounds.y1)
                guard top < bottom else { continue }
                let left = max(0, mark.bounds.x0), right = min(width, mark.bounds.x1)
                guard left < right else { continue }
                for y in top ..< bottom {
                    for x in left ..< right {
                        let alpha = mark.opacity * mark.shape.coverage(Float(x) + 0.5, Float(y) + 0.5)
                        guard alpha > 0 else { continue }
                        let p = base + 3 * (y * width + x)
                        p[0] += (mark.colour.x - p[0]) * alpha
                        p[1] += (mark.colour.y - p[1]) * alpha
                        p[2] += (mark.colour.z - p[2]) * alpha
                    }
                }
            }
        }
    }

    /// The picture as an 8-bit RGB image, rounded.
    func image() -> Image {
        var bytes = [UInt8](repeating: 0, count: pixels.count)
        for i in 0 ..< pixels.count { bytes[i] = UInt8(min(max(pixels[i] * 255 + 0.5, 0), 255)) }
        return Image(width: width, height: height, channels: 3, pixels: bytes)
    }
}

/// One shape a texture generator paints: where, how much of each pixel it covers, in what colour.
struct Mark {
    var shape: MarkShape
    var colour: SIMD3<Float>
    var opacity: Float
    /// Pixels that may be touched: x0 ..< x1, y0 ..< y1.
    var bounds: (x0: Int, y0: Int, x1: Int, y1: Int)

    init(_ shape: MarkShape, colour: SIMD3<Float>, opacity: Float) {
        self.shape = shape
        self.colour = colour
        self.opacity = opacity
        bounds = shape.bounds
    }
}

/// The shapes: filled ellipses, rings, strokes, striped patches and text-like glyphs. Coverage
/// comes from an approximate signed distance with a one-pixel ramp, so edges are anti-aliased
/// and the texture has no staircase edges that the mip chain would have to hide.
enum MarkShape {
    case ellipse(centre: SIMD2<Float>, radii: SIMD2<Float>, cosAngle: Float, sinAngle: Float)
    case ring(centre: SIMD2<Float>, radius: Float, halfThickness: Float)
    case stroke(from: SIMD2<Float>, to: SIMD2<Float>, halfWidth: Float)
    /// Stripes across a rotated rectangle: local x runs across the stripes.
    case stripes(centre: SIMD2<Float>, halfSize: SIMD2<Float>, cosAngle: Float, sinAngle: Float, period: Float, duty: Float)
    /// A 5 × 7 glyph: bit `row × 5 + column` set means that cell is inked; cells are `cell`
    /// pixels square, aligned to the pixel grid.
    case glyph(x: Int, y: Int, cell: Int, bits: UInt64)

    var bounds: (x0: Int, y0: Int, x1: Int, y1: Int) {
        func box(_ c: SIMD2<Float>, _ r: Float) -> (Int, Int, Int, Int) {
            (Int((c.x - r - 1).rounded(.down)), Int((c.y - r - 1).rounded(.down)), Int((c.x + r + 2).rounded(.up)), Int((c.y + r + 2).rounded(.up)))
        }
        switch self {
        case .ellipse(let c, let r, _, _): return box(c, max(r.x, r.y))
        case .ring(let c, let r, let h): return box(c, r + h)
        case .stroke(let a, let b, let h):
            let lo = pointwiseMin(a, b), hi = pointwiseMax(a, b)
            return (Int(lo.x - h - 1), Int(lo.y - h - 1), Int(hi.x + h + 2), Int(hi.y + h + 2))
        case .stripes(let c, let h, _, _, _, _): return box(c, (h.x * h.x + h.y * h.y).squareRoot())
        case .glyph(let x, let y, let cell, _): return (x, y, x + 5 * cell, y + 7 * cell)
        }
    }

    /// The fraction of the pixel centred at (px, py) that the shape covers, 0–1.
    @inline(__always)
    func coverage(_ px: Float, _ py: Float) -> Float {
        func ramp(_ distance: Float) -> Float { min(max(0.5 - distance, 0), 1) }
        switch self {
        case .ellipse(let c, let r, let cosA, let sinA):
            let dx = px - c.x, dy = py - c.y
            let q = SIMD2(dx * cosA + dy * sinA, -dx * sinA + dy * cosA) / r
            let k = (q.x * q.x + q.y * q.y).squareRoot()
            guard k > 0 else { return 1 }
            let g = q / r
            let gradient = (g.x * g.x + g.y * g.y).squareRoot() / k
            return ramp((k - 1) / max(gradient, 1e-6))
        case .ring(let c, let r, let h):
            let d = ((px - c.x) * (px - c.x) + (py - c.y) * (py - c.y)).squareRoot()
            return ramp(abs(d - r) - h)
        case .stroke(let a, let b, let h):
            let ab = b - a, ap = SIMD2(px, py) - a
            let t = min(max((ap.x * ab.x + ap.y * ab.y) / max(ab.x * ab.x + ab.y * ab.y, 1e-6), 0), 1)
            let d = ap - ab * t
            return ramp((d.x * d.x + d.y * d.y).squareRoot() - h)
        case .stripes(let c, let h, let cosA, let sinA, let period, let duty):
            let dx = px - c.x, dy = py - c.y
            let lx = dx * cosA + dy * sinA, ly = -dx * sinA + dy * cosA
            let inside = ramp(max(abs(lx) - h.x, abs(ly) - h.y))
            guard inside > 0 else { return 0 }
            let phase = (lx / period - (lx / period).rounded(.down)) * period   // 0 ..< period
            let width = duty * period
            // Distance outside the stripe [0, width) of this period, or of the next one.
            let outside = phase < width ? -min(phase, width - phase) : min(phase - width, period - phase)
            return inside * ramp(outside)
        case .glyph(let x, let y, let cell, let bits):
            let column = (Int(px) - x) / cell, row = (Int(py) - y) / cell
            guard column >= 0, column < 5, row >= 0, row < 7 else { return 0 }
            return bits >> UInt64(row * 5 + column) & 1 == 1 ? 1 : 0
        }
    }
}
