import AtelierGeometry
import AtelierImaging
import AtelierReconstruction
import AtelierSynthetic
import Foundation

/// Pictures with known content, made in the test, and independent arithmetic to check against.
enum Fixtures {
    /// A grey image of `background` with one isotropic Gaussian blob of standard deviation
    /// `sigma` pixels and peak `amplitude` (both on 0–255), centred at `centre` in COLMAP's
    /// pixel convention (pixel (i, j) is sampled at (i + 0.5, j + 0.5)).
    static func blob(width: Int, height: Int, centre: SIMD2<Double>, sigma: Double,
                     background: Double = 60, amplitude: Double = 150) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let dx = Double(x) + 0.5 - centre.x, dy = Double(y) + 0.5 - centre.y
                let value = background + amplitude * exp(-(dx * dx + dy * dy) / (2 * sigma * sigma))
                pixels[y * width + x] = UInt8(max(0, min(255, value.rounded())))
            }
        }
        return Image(width: width, height: height, channels: 1, pixels: pixels)
    }

    /// A busy print (blobs, stripes, ellipses, dots, glyphs at every scale), 320 × 240, grey.
    static let printed: Image = PrintedFabric(size: 320).image(seed: 7).cropped(x: 0, y: 40, width: 320, height: 240).grey()

    /// Small settings for a capture rendered in the test: 512 × 384 unless asked, 2 × 2
    /// supersampling, a 1024-texel texture.
    static func captureSpec(_ preset: CapturePreset, seed: UInt64 = 1, width: Int = 512, height: Int = 384) -> CaptureSpec {
        var spec = CaptureSpec(preset: preset)
        spec.seed = seed
        spec.width = width
        spec.height = height
        spec.supersampling = 2
        spec.textureSize = 1024
        spec.turntableTextureSize = 512
        return spec
    }
}

/// Brute-force descriptor matching, written independently of the library (no SIMD, plain loops
/// over unsafe buffers so a debug build stays quick enough).
enum BruteForce {
    /// For each descriptor of `a`: the nearest descriptor of `b` and the squared distances to
    /// the nearest and second nearest.
    static func nearest(_ a: Features, _ b: Features) -> [(index: Int, best: Float, second: Float)] {
        let n = Features.descriptorLength, countA = a.count, countB = b.count
        var result: [(index: Int, best: Float, second: Float)] = []
        result.reserveCapacity(countA)
        a.descriptors.withUnsafeBufferPointer { da in
            b.descriptors.withUnsafeBufferPointer { db in
                let pa = da.baseAddress!, pb = db.baseAddress!
                // `while` loops: a debug build runs them at a few nanoseconds per step, where
                // range iterators would cost ten times as much.
                var i = 0
                while i < countA {
                    var best = Float.infinity, second = Float.infinity, bestIndex = -1
                    let u = pa + i * n
                    var j = 0
                    while j < countB {
                        let v = pb + j * n
                        var dot: Float = 0
                        var k = 0
                        while k < n {
                            dot += u[k] * v[k]
                            k += 1
                        }
                        let distance = max(0, 2 - 2 * dot)   // unit vectors
                        if distance < best {
                            second = best
                            best = distance
                            bestIndex = j
                        } else if distance < second {
                            second = distance
                        }
                        j += 1
                    }
                    result.append((bestIndex, best, second))
                    i += 1
                }
            }
        }
        return result
    }

    /// Index pairs (a, b) that pass Lowe's ratio test (nearest distance < `ratio` × second).
    static func ratioMatches(_ a: Features, _ b: Features, ratio: Float = 0.8) -> [(Int, Int)] {
        nearest(a, b).enumerated().compactMap { i, m in
            m.index >= 0 && m.best.squareRoot() < ratio * m.second.squareRoot() ? (i, m.index) : nil
        }
    }
}

/// Two-view geometry from ground-truth poses, computed here rather than borrowed.
struct TrueTwoView {
    /// The fundamental matrix taking a pixel of view 1 to its epipolar line in view 2, as rows.
    let fundamental: [SIMD3<Double>]

    init(_ first: CameraPose, _ second: CameraPose, intrinsics k: PinholeIntrinsics) {
        // camFromWorld as rows, from the quaternion.
        func rows(_ pose: CameraPose) -> [SIMD3<Double>] {
            let q = pose.quaternion
            let (w, x, y, z) = (q.w, q.x, q.y, q.z)
            return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
        }
        func multiply(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> [SIMD3<Double>] {
            a.map { (row: SIMD3<Double>) -> SIMD3<Double> in b[0] * row.x + b[1] * row.y + b[2] * row.z }
        }
        func transpose(_ a: [SIMD3<Double>]) -> [SIMD3<Double>] {
            (0 ..< 3).map { c in SIMD3(a[0][c], a[1][c], a[2][c]) }
        }
        let r1 = rows(first), r2 = rows(second)
        let relative = multiply(r2, transpose(r1))                      // cam2FromCam1
        let rt1 = SIMD3<Double>((relative[0] * first.translation).sum(), (relative[1] * first.translation).sum(),
                                (relative[2] * first.translation).sum())
        let t = second.translation - rt1                                 // cam2FromCam1 translation
        let skew: [SIMD3<Double>] = [[0, -t.z, t.y], [t.z, 0, -t.x], [-t.y, t.x, 0]]
        let essential = multiply(skew, relative)
        let kInverse: [SIMD3<Double>] = [[1 / k.focalLengthXPixels, 0, -k.principalPointX / k.focalLengthXPixels],
                                         [0, 1 / k.focalLengthYPixels, -k.principalPointY / k.focalLengthYPixels],
                                         [0, 0, 1]]
        fundamental = multiply(multiply(transpose(kInverse), essential), kInverse)
    }

    /// The larger of the two distances (pixels) from each point to the other's epipolar line.
    func epipolarDistance(_ p: SIMD2<Double>, _ q: SIMD2<Double>) -> Double {
        let x1 = SIMD3(p.x, p.y, 1), x2 = SIMD3(q.x, q.y, 1)
        let line2 = SIMD3((fundamental[0] * x1).sum(), (fundamental[1] * x1).sum(), (fundamental[2] * x1).sum())
        let line1 = fundamental[0] * x2.x + fundamental[1] * x2.y + fundamental[2] * x2.z
        let residual = abs((line2 * x2).sum())
        return max(residual / (line2.x * line2.x + line2.y * line2.y).squareRoot(),
                   residual / (line1.x * line1.x + line1.y * line1.y).squareRoot())
    }
}

/// The smallest difference between two angles (radians), in degrees, in [0, 180].
func angleDifferenceDegrees(_ a: Float, _ b: Float) -> Double {
    var d = Double(a - b).truncatingRemainder(dividingBy: 2 * .pi)
    if d < 0 { d += 2 * .pi }
    return min(d, 2 * .pi - d) * 180 / .pi
}
