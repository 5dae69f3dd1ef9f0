import AtelierGeometry
import AtelierImaging

/// One registered photo as dense reconstruction sees it: resampled to a working size and
/// undistorted, so a pinhole camera (`intrinsics` with no distortion) maps world points to its
/// pixels exactly, and plane-induced homographies hold between views.
public struct DenseView: Sendable {
    /// The image's index in the sparse model.
    public var image: Int
    public var name: String
    /// Pinhole intrinsics at the working size (`k1 = k2 = 0`).
    public var intrinsics: CameraIntrinsics
    public var pose: CameraPose
    /// The undistorted photo at the working size, RGB.
    public var colour: Image
    /// Grey levels in [0, 1], row-major, `intrinsics.width × intrinsics.height`.
    public var grey: [Float]
    /// Per pixel, whether it may be on the garment (from `--masks` or an automatic silhouette);
    /// empty when every pixel may be.
    public var mask: [Bool]

    public var width: Int { intrinsics.width }
    public var height: Int { intrinsics.height }

    /// Resamples `photo` (RGB, any size with the camera's aspect) to `width × height` through the
    /// camera's distortion model: each output pixel is the pinhole ray's distorted position in
    /// the photo, read bilinearly (AtelierImaging's `BilinearSampler`, as texturing reads photos).
    /// `colourOnly` leaves `grey` empty, for texturing, where a full-size grey copy of every photo
    /// would only take memory.
    public init(image: Int, name: String, camera: CameraIntrinsics, pose: CameraPose, photo: Image,
                mask: FeatureMask?, width: Int, height: Int, colourOnly: Bool = false) {
        let scale = Double(width) / Double(camera.width)
        let pinhole = CameraIntrinsics(width: width, height: height, focalLengthPixels: camera.focalLengthPixels * scale,
                                       principalPoint: camera.principalPoint * scale)
        // The photo may itself be a reduced decode: map camera pixels to its pixels.
        let toPhoto = SIMD2(Double(photo.width) / Double(camera.width), Double(photo.height) / Double(camera.height))
        var colour = [UInt8](repeating: 0, count: width * height * 3)
        var grey = [Float](repeating: 0, count: colourOnly ? 0 : width * height)
        var allowed = [Bool](repeating: true, count: mask == nil ? 0 : width * height)
        let rgb = photo.channels == 3 ? photo : photo.rgb()
        rgb.pixels.withUnsafeBufferPointer { pixels in
            let sampler = BilinearSampler(RGB8Texels(pixels, width: rgb.width, height: rgb.height))
            for y in 0 ..< height {
                for x in 0 ..< width {
                    let normalised = pinhole.normalised(fromPixel: SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                    let source = camera.pixel(fromNormalised: normalised)
                    let sample = sampler.sample(pixel: SIMD2<Float>(source * toPhoto))
                    let o = y * width + x
                    colour[3 * o] = UInt8(sample.x.rounded())
                    colour[3 * o + 1] = UInt8(sample.y.rounded())
                    colour[3 * o + 2] = UInt8(sample.z.rounded())
                    if !colourOnly { grey[o] = (0.299 * sample.x + 0.587 * sample.y + 0.114 * sample.z) / 255 }
                    if let mask {
                        allowed[o] = mask.allows(x: Float(source.x), y: Float(source.y), imageWidth: camera.width, imageHeight: camera.height)
                    }
                }
            }
        }
        self.image = image
        self.name = name
        intrinsics = pinhole
        self.pose = pose
        self.colour = Image(width: width, height: height, channels: 3, pixels: colour)
        self.grey = grey
        self.mask = allowed
    }

    /// Whether pixel `index` may be on the garment.
    @inline(__always) func allows(_ index: Int) -> Bool { mask.isEmpty || mask[index] }

    /// The world point seen at pixel centre (x + 0.5, y + 0.5) at `depth` along the optical axis.
    @inline(__always) func point(x: Int, y: Int, depth: Float) -> SIMD3<Double> {
        let f = intrinsics.focalLengthPixels, c = intrinsics.principalPoint
        let inCam = SIMD3((Double(x) + 0.5 - c.x) / f, (Double(y) + 0.5 - c.y) / f, 1) * Double(depth)
        return pose.camFromWorld.transposed * (inCam - pose.translation)
    }
}
