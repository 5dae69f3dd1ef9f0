/// A pinhole camera without distortion, COLMAP's `PINHOLE` model: a point at `(x, y, z)` in the
/// camera frame (x right, y down, z forward) lands at pixel
/// `(fx·x/z + cx, fy·y/z + cy)`, where pixel `(0, 0)` is the top-left corner of the top-left
/// pixel, so that pixel's centre is `(0.5, 0.5)` (COLMAP's convention) and the image centre is
/// `(width/2, height/2)`.
public struct PinholeIntrinsics: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var focalLengthXPixels: Double
    public var focalLengthYPixels: Double
    public var principalPointX: Double
    public var principalPointY: Double

    /// The diagonal of a 36 × 24 mm frame, 43.27 mm: the yardstick of "35 mm equivalent".
    public static let fullFrameDiagonalMillimetres = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()

    /// Square pixels and the principal point at the image centre.
    public init(width: Int, height: Int, focalLengthPixels: Double) {
        self.width = width
        self.height = height
        focalLengthXPixels = focalLengthPixels
        focalLengthYPixels = focalLengthPixels
        principalPointX = Double(width) / 2
        principalPointY = Double(height) / 2
    }

    /// The camera whose field of view along the image diagonal is that of a `focalLength35mm`
    /// lens on a 36 × 24 mm frame: `f = f35 × √(w² + h²) / 43.27`, the rule exiftool, phone
    /// makers and `EXIF.focalLength35mm` use (the diagonal, so it holds for 4:3 images too).
    /// COLMAP's own EXIF prior, `f35 / 35 × max(w, h)`, is about 1% larger for 4:3 images.
    public init(width: Int, height: Int, focalLength35mm: Double) {
        let diagonal = (Double(width * width + height * height)).squareRoot()
        self.init(width: width, height: height, focalLengthPixels: focalLength35mm * diagonal / Self.fullFrameDiagonalMillimetres)
    }

    /// The 35 mm equivalent focal length (diagonal rule) of the horizontal focal length.
    public var focalLength35mm: Double {
        focalLengthXPixels * Self.fullFrameDiagonalMillimetres / (Double(width * width + height * height)).squareRoot()
    }

    /// Where a point in the camera frame lands, or nil when it is not in front of the camera.
    public func project(_ pointInCam: SIMD3<Double>) -> SIMD2<Double>? {
        guard pointInCam.z > 0 else { return nil }
        return SIMD2(focalLengthXPixels * pointInCam.x / pointInCam.z + principalPointX,
                     focalLengthYPixels * pointInCam.y / pointInCam.z + principalPointY)
    }

    /// Whether a pixel position lies inside the image.
    public func contains(_ pixel: SIMD2<Double>) -> Bool {
        pixel.x >= 0 && pixel.y >= 0 && pixel.x <= Double(width) && pixel.y <= Double(height)
    }
}
