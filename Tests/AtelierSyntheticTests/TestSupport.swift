import AtelierGeometry
import AtelierImaging
import AtelierSynthetic
import Foundation

/// Independent arithmetic for the tests: the checks must not reuse the code they check.
enum Check {
    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }
    static func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }

    /// The rotation of a unit quaternion (w, x, y, z), Hamilton convention, as rows.
    static func rotation(_ q: [Double]) -> [SIMD3<Double>] {
        let (w, x, y, z) = (q[0], q[1], q[2], q[3])
        return [
            [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z],
        ]
    }

    static func apply(_ rows: [SIMD3<Double>], _ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(dot(rows[0], v), dot(rows[1], v), dot(rows[2], v))
    }

    /// Rᵀ v.
    static func applyTransposed(_ rows: [SIMD3<Double>], _ v: SIMD3<Double>) -> SIMD3<Double> {
        rows[0] * v.x + rows[1] * v.y + rows[2] * v.z
    }

    /// Where a world point lands, by COLMAP's formulas, from a pose's quaternion and translation.
    static func project(_ point: SIMD3<Double>, q: [Double], t: SIMD3<Double>,
                        fx: Double, fy: Double, cx: Double, cy: Double) -> (pixel: SIMD2<Double>, depth: Double) {
        let c = apply(rotation(q), point) + t
        return (SIMD2(fx * c.x / c.z + cx, fy * c.y / c.z + cy), c.z)
    }

    static func project(_ point: SIMD3<Double>, pose: CameraPose, intrinsics k: PinholeIntrinsics) -> (pixel: SIMD2<Double>, depth: Double) {
        let q = pose.quaternion
        return project(point, q: [q.w, q.x, q.y, q.z], t: pose.translation,
                       fx: k.focalLengthXPixels, fy: k.focalLengthYPixels, cx: k.principalPointX, cy: k.principalPointY)
    }

    /// The sRGB code of a linear value (IEC 61966-2-1), unrounded.
    static func srgbCode(_ linear: Double) -> Double {
        let c = min(max(linear, 0), 1)
        return 255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055)
    }

    static func linear(code: Double) -> Double {
        let c = code / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
}

/// Small, fast settings for tests.
enum Small {
    static var garment: DrapedGarment {
        var garment = DrapedGarment()
        garment.rings = 48
        garment.segments = 96
        return garment
    }

    static func spec(_ preset: CapturePreset = .small12, seed: UInt64 = 5) -> CaptureSpec {
        var spec = CaptureSpec(preset: preset)
        spec.seed = seed
        spec.width = 192
        spec.height = 144
        spec.views = 4
        spec.supersampling = 2
        spec.textureSize = 256
        spec.turntableTextureSize = 128
        spec.garment = garment
        return spec
    }

    /// A turntable texture that is plain grey.
    static func studio() -> Studio {
        Studio(turntable: Texture(image: Image(width: 4, height: 4, channels: 3, value: 120)), turntableRadiusMetres: 0.42)
    }

    /// A texture whose colour spells its own coordinates: red = u, green = v (sRGB codes 0–255
    /// across the texture), blue constant.
    static func coordinateTexture(size: Int = 256) -> Image {
        var pixels = [UInt8](repeating: 128, count: size * size * 3)
        for y in 0 ..< size {
            for x in 0 ..< size {
                pixels[3 * (y * size + x)] = UInt8(x * 255 / (size - 1))
                pixels[3 * (y * size + x) + 1] = UInt8(y * 255 / (size - 1))
            }
        }
        return Image(width: size, height: size, channels: 3, pixels: pixels)
    }
}

/// A fresh temporary directory, removed when the test case ends.
func temporaryDirectory(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "atelier-synthetic-\(getpid())-\(name)-\(UInt32.random(in: 0 ... .max))"
    try? FileManager.default.removeItem(atPath: path)
    return path
}
