/// A SIFT keypoint in the pixels of the original image.
public struct Keypoint: Sendable, Equatable {
    /// Position in COLMAP's pixel convention: the top-left corner of the image is (0, 0), so the
    /// centre of the top-left pixel is (0.5, 0.5).
    public var x: Float
    public var y: Float
    /// The scale σ, in original pixels: the blur of the lower Gaussian of the DoG pair the
    /// extremum was found in, interpolated between levels (VLFeat's and COLMAP's convention;
    /// OpenCV's `KeyPoint.size` is 2σ). For an isotropic Gaussian blob of standard deviation
    /// s on a sharp image, σ ≈ √(s² − σₙ²) / 2^(1/(2S)) ≈ 0.89 √(s² − 0.25) (S = 3): the DoG
    /// peaks where the geometric mean of its two blurs matches the blob, and the image is
    /// assumed to carry σₙ = 0.5 pixel of blur already.
    public var scale: Float
    /// The dominant gradient direction, radians in [0, 2π), from the image's +x axis towards +y
    /// (clockwise as displayed, since y points down).
    public var orientation: Float
    /// |DoG| at the refined extremum, on intensities in [0, 1]: the feature's strength.
    public var response: Float
    /// The octave it was found in: −1 for the upsampled first octave, then 0, 1, … (relative
    /// to the working image, which may be smaller than the original).
    public var octave: Int

    public init(x: Float, y: Float, scale: Float, orientation: Float, response: Float, octave: Int) {
        self.x = x
        self.y = y
        self.scale = scale
        self.orientation = orientation
        self.response = response
        self.octave = octave
    }
}

/// The keypoints of one image and their RootSIFT descriptors.
///
/// Descriptors are stored as one contiguous `[Float]`, `count × 128`, row `i` for keypoint `i`:
/// non-negative with unit L2 norm (see `SIFTDescriptor`). Float rather than bytes because the
/// matcher computes all descriptor dot products of an image pair as one matrix product
/// (`|a − b|² = 2 − 2 a·b`), which runs at full SIMD width on floats; `quantizedDescriptors()`
/// gives COLMAP's compact bytes for storage and exchange (a quarter of the size).
///
/// Keypoints are ordered by decreasing response, ties broken by octave, position and
/// orientation: a pure function of the input, whatever the thread count.
public struct Features: Sendable, Equatable {
    public static let descriptorLength = 128

    /// Size of the original image (upright), whose pixels the keypoints are given in.
    public var imageWidth: Int
    public var imageHeight: Int
    /// Size of the image the features were found on (after any reduction to `maxImageSide`).
    public var workingWidth: Int
    public var workingHeight: Int
    public var keypoints: [Keypoint]
    /// `count × 128` floats, keypoint by keypoint.
    public var descriptors: [Float]

    public init(imageWidth: Int, imageHeight: Int, workingWidth: Int, workingHeight: Int, keypoints: [Keypoint], descriptors: [Float]) {
        precondition(descriptors.count == keypoints.count * Self.descriptorLength, "one 128-float descriptor per keypoint")
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.workingWidth = workingWidth
        self.workingHeight = workingHeight
        self.keypoints = keypoints
        self.descriptors = descriptors
    }

    public var count: Int { keypoints.count }

    /// The descriptor of keypoint `index`.
    public func descriptor(_ index: Int) -> ArraySlice<Float> {
        descriptors[index * Self.descriptorLength ..< (index + 1) * Self.descriptorLength]
    }

    /// The descriptors as bytes the way COLMAP stores RootSIFT: each entry × 512, rounded and
    /// clamped to 255 (entries of a unit vector rarely exceed 0.5, so little is clipped).
    public func quantizedDescriptors() -> [UInt8] {
        descriptors.map { UInt8(min(255, max(0, ($0 * 512).rounded()))) }
    }
}
