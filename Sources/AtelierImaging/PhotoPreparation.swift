/// What importing a photo needs from its pixels: its upright size, its EXIF, and thumbnails,
/// from one decode at the smallest DCT scale that still serves the thumbnails.
public struct PreparedPhoto: Sendable {
    public var format: ImageDecoder.Format
    /// Upright, full-resolution size.
    public var width: Int
    public var height: Int
    public var exif: EXIFMetadata?
    /// JPEG bytes: the photo fitted within `thumbnailSide`, and its centred square at that side.
    public var thumbnail: [UInt8]
    public var squareThumbnail: [UInt8]
    /// The decoded pixels the thumbnails came from (at least `thumbnailSide` on the shorter
    /// side), for measures that work at that size (hashes).
    public var preview: Image
}

public enum PhotoPreparation {
    public static let thumbnailSide = 256

    /// Decodes `bytes` once and makes the thumbnails. Throws for anything that is not a
    /// readable JPEG or PNG within `maxPixels`.
    public static func prepare(_ bytes: UnsafeRawBufferPointer, thumbnailSide: Int = thumbnailSide,
                               maxPixels: Int = Image.defaultMaxPixels) throws(ImagingError) -> PreparedPhoto {
        let decoded = try ImageDecoder.decode(bytes, channels: 3, minimumSide: thumbnailSide, maxPixels: maxPixels)
        let preview = decoded.image
        let fitted = preview.fitted(within: thumbnailSide)
        let square = preview.centreSquare()
        let squareSide = min(thumbnailSide, square.width)
        let squared = square.resized(width: squareSide, height: squareSide)
        return PreparedPhoto(format: decoded.format, width: decoded.uprightWidth, height: decoded.uprightHeight, exif: decoded.exif,
                             thumbnail: try JPEG.encode(fitted, quality: 85), squareThumbnail: try JPEG.encode(squared, quality: 85),
                             preview: preview)
    }
}
