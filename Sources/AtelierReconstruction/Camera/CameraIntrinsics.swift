import AtelierGeometry
import Foundation

/// A camera's intrinsics in COLMAP's `RADIAL` model: one focal length `f` (square pixels), the
/// principal point `(cx, cy)` and two radial distortion coefficients `k1`, `k2`.
///
/// A point `(x, y, z)` in the camera frame (x right, y down, z forward) has normalised
/// coordinates `(u, v) = (x/z, y/z)`; distortion moves them to `(u, v)·(1 + k1 r² + k2 r⁴)` with
/// `r² = u² + v²`, and the pixel is `f·(distorted) + (cx, cy)`. Pixel `(0, 0)` is the top-left
/// corner of the top-left pixel (COLMAP's convention, as `Keypoint` uses). `cameras.txt` writes it
/// as `RADIAL WIDTH HEIGHT f cx cy k1 k2`.
public struct CameraIntrinsics: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var focalLengthPixels: Double
    public var principalPoint: SIMD2<Double>
    public var k1: Double
    public var k2: Double

    /// The diagonal of a 36 × 24 mm frame, 43.27 mm: the yardstick of "35 mm equivalent".
    public static let fullFrameDiagonalMillimetres = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()
    /// The 35 mm equivalent focal length assumed when an image has none in its EXIF: 30 mm, a
    /// diagonal field of view of about 71°, between a phone's main camera (24–28 mm) and a
    /// standard lens. Refined by bundle adjustment either way.
    public static let defaultFocalLength35mm = 30.0

    /// The principal point defaults to the image centre and distortion to none.
    public init(width: Int, height: Int, focalLengthPixels: Double, principalPoint: SIMD2<Double>? = nil, k1: Double = 0, k2: Double = 0) {
        self.width = width
        self.height = height
        self.focalLengthPixels = focalLengthPixels
        self.principalPoint = principalPoint ?? SIMD2(Double(width) / 2, Double(height) / 2)
        self.k1 = k1
        self.k2 = k2
    }

    /// The camera whose diagonal field of view is that of a `focalLength35mm` lens on a
    /// 36 × 24 mm frame: `f = f35 × √(w² + h²) / 43.27` (the rule exiftool and phone makers use).
    public init(width: Int, height: Int, focalLength35mm: Double) {
        let diagonal = Double(width * width + height * height).squareRoot()
        self.init(width: width, height: height, focalLengthPixels: focalLength35mm * diagonal / Self.fullFrameDiagonalMillimetres)
    }

    /// The 35 mm equivalent focal length (diagonal rule) of `focalLengthPixels`.
    public var focalLength35mm: Double {
        focalLengthPixels * Self.fullFrameDiagonalMillimetres / Double(width * width + height * height).squareRoot()
    }

    /// Applies radial distortion to normalised coordinates.
    @inlinable public func distort(_ normalised: SIMD2<Double>) -> SIMD2<Double> {
        let r2 = normalised.x * normalised.x + normalised.y * normalised.y
        return normalised * (1 + r2 * (k1 + k2 * r2))
    }

    /// Removes radial distortion: the normalised coordinates whose distortion is `distorted`.
    /// Newton's method on the radius (COLMAP iterates the same fixed point); exact for `k1 = k2 = 0`.
    @inlinable public func undistort(_ distorted: SIMD2<Double>) -> SIMD2<Double> {
        guard k1 != 0 || k2 != 0 else { return distorted }
        let rd = (distorted.x * distorted.x + distorted.y * distorted.y).squareRoot()
        guard rd > 0 else { return distorted }
        // Solve g(r) = r (1 + k1 r² + k2 r⁴) − rd = 0, starting from r = rd.
        var r = rd
        for _ in 0 ..< 20 {
            let r2 = r * r
            let g = r * (1 + r2 * (k1 + k2 * r2)) - rd
            let dg = 1 + r2 * (3 * k1 + 5 * k2 * r2)
            guard dg > 1e-9 else { break }
            let step = g / dg
            r -= step
            if abs(step) < 1e-14 * max(1, r) { break }
        }
        return distorted * (r / rd)
    }

    /// The pixel where a point in the camera frame lands, or nil when it is not in front of the
    /// camera (`z` must be positive).
    @inlinable public func project(_ pointInCam: SIMD3<Double>) -> SIMD2<Double>? {
        guard pointInCam.z > 0 else { return nil }
        return pixel(fromNormalised: SIMD2(pointInCam.x / pointInCam.z, pointInCam.y / pointInCam.z))
    }

    /// The pixel of (undistorted) normalised coordinates.
    @inlinable public func pixel(fromNormalised normalised: SIMD2<Double>) -> SIMD2<Double> {
        focalLengthPixels * distort(normalised) + principalPoint
    }

    /// The undistorted normalised coordinates `(x/z, y/z)` of a pixel.
    @inlinable public func normalised(fromPixel pixel: SIMD2<Double>) -> SIMD2<Double> {
        undistort((pixel - principalPoint) / focalLengthPixels)
    }

    /// The unit ray through a pixel, in the camera frame.
    @inlinable public func bearing(fromPixel pixel: SIMD2<Double>) -> SIMD3<Double> {
        let n = normalised(fromPixel: pixel)
        return SIMD3(n.x, n.y, 1).normalized
    }
}
