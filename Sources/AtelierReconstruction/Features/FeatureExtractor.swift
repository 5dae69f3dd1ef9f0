import AtelierImaging

/// Finds SIFT keypoints with RootSIFT descriptors in a photo, on the CPU, on every core.
///
/// The pipeline follows Lowe (2004) with VLFeat's and COLMAP's choices where the paper leaves
/// room: luma in [0, 1] at no more than `maxImageSide` pixels (a large JPEG is decoded at a
/// reduced DCT scale first), upsampled by two for the first octave (−1), a Gaussian scale
/// space of S = 3 scales per octave (`ScaleSpaceBuilder`), DoG extrema refined and filtered for
/// contrast and edges (`ExtremumDetector`), a cap that keeps the strongest features spread over
/// the image (`FeatureSelection`), up to two orientations per detection
/// (`OrientationEstimator`) and a 4×4×8 descriptor each (`SIFTDescriptor`).
///
/// Every stage splits its work into fixed pieces (bands of rows, groups of keypoints) whose
/// results are combined in a fixed order, so the output is identical for any thread count.
public struct FeatureExtractor: Sendable {
    public let settings: FeatureSettings

    /// The least working-image side (pixels) features can be found on.
    public static let minimumImageSide = 16
    /// Octaves stop before the shorter side falls below this many samples.
    static let minimumOctaveSide = 16
    /// Detections per work item for orientations and descriptors.
    static let describeChunk = 32

    /// An extractor with `settings`; throws when a setting is out of range.
    public init(settings: FeatureSettings = FeatureSettings()) throws(ReconstructionError) {
        try settings.validate()
        self.settings = settings
    }

    /// The features of a decoded image (any channel count; colour is reduced to luma). An
    /// image larger than `maxImageSide` is resized down first; keypoints are in its own pixels.
    public func extract(from image: Image, mask: FeatureMask? = nil) throws(ReconstructionError) -> Features {
        let splitter = WorkSplitter(threads: settings.threads)
        let working = max(image.width, image.height) > settings.maxImageSide
            ? image.grey().fitted(within: settings.maxImageSide, filter: .bilinear) : image
        try requireSize(working)
        return describe(FloatPlane.luminance(of: working, splitter: splitter), imageWidth: image.width,
                        imageHeight: image.height, mask: mask, splitter: splitter)
    }

    /// The features of an encoded JPEG or PNG, upright (EXIF orientation applied). A JPEG much
    /// larger than `maxImageSide` is decoded at 1/2, 1/4 or 1/8 scale in the DCT, which is
    /// several times faster than decoding it whole, and then resized to `maxImageSide`;
    /// keypoints are in the pixels of the upright full-size image.
    public func extract(encoded bytes: UnsafeRawBufferPointer, mask: FeatureMask? = nil) throws(ReconstructionError) -> Features {
        let decoded: ImageDecoder.Decoded
        do {
            decoded = try ImageDecoder.decode(bytes, channels: 1, minimumSide: try minimumDecodedSide(bytes))
        } catch {
            throw .unreadableImage(error)
        }
        let splitter = WorkSplitter(threads: settings.threads)
        let working = decoded.image.fitted(within: settings.maxImageSide, filter: .bilinear)
        try requireSize(working)
        return describe(FloatPlane.luminance(of: working, splitter: splitter), imageWidth: decoded.uprightWidth,
                        imageHeight: decoded.uprightHeight, mask: mask, splitter: splitter)
    }

    /// The features of an encoded JPEG or PNG held in an array.
    public func extract(encoded bytes: [UInt8], mask: FeatureMask? = nil) throws(ReconstructionError) -> Features {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ReconstructionError) -> Features in try extract(encoded: buffer, mask: mask) }
        }
        return try result.get()
    }

    /// The shorter side a JPEG must keep after DCT scaling for its longer side to stay at or
    /// above `maxImageSide` (nil for other formats, which are decoded whole).
    private func minimumDecodedSide(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) -> Int? {
        guard JPEG.looksLike(bytes) else { return nil }
        let header = try JPEG.header(bytes)
        let longer = max(header.width, header.height), shorter = min(header.width, header.height)
        guard longer > settings.maxImageSide, longer > 0 else { return nil }
        return (settings.maxImageSide * shorter + longer - 1) / longer
    }

    private func requireSize(_ image: Image) throws(ReconstructionError) {
        guard min(image.width, image.height) >= Self.minimumImageSide else {
            throw .imageTooSmall(width: image.width, height: image.height, minimumSide: Self.minimumImageSide)
        }
    }
}
