/// Decodes a photo whatever its format, upright (EXIF orientation applied), at the size asked.
public enum ImageDecoder {
    public enum Format: String, Sendable { case jpeg, png }

    /// A decoded photo and what was learnt on the way.
    public struct Decoded: Sendable {
        public var image: Image
        public var format: Format
        /// The stored size, before DCT scaling and orientation.
        public var storedWidth: Int
        public var storedHeight: Int
        public var exif: EXIFMetadata?
        /// The size upright and at full resolution (what a viewer shows).
        public var uprightWidth: Int { (exif?.orientation ?? 1) >= 5 ? storedHeight : storedWidth }
        public var uprightHeight: Int { (exif?.orientation ?? 1) >= 5 ? storedWidth : storedHeight }
    }

    public static func format(of bytes: UnsafeRawBufferPointer) -> Format? {
        if JPEG.looksLike(bytes) { return .jpeg }
        if PNG.looksLike(bytes) { return .png }
        return nil
    }

    /// Decodes `bytes` to `channels` (1 or 3). With `minimumSide`, a JPEG is decoded at the
    /// smallest DCT scale whose shorter side is still at least that many pixels.
    public static func decode(_ bytes: UnsafeRawBufferPointer, channels: Int = 3, minimumSide: Int? = nil,
                              maxPixels: Int = Image.defaultMaxPixels) throws(ImagingError) -> Decoded {
        let exif = EXIF.read(bytes)
        switch format(of: bytes) {
        case .jpeg:
            let header = try JPEG.header(bytes)
            let denominator = minimumSide.map { JPEG.scaleDenominator(for: header, minimumSide: $0) } ?? 1
            let image = try JPEG.decode(bytes, channels: channels, scaleDenominator: denominator, maxPixels: maxPixels)
            return Decoded(image: image.oriented(exif?.orientation ?? 1), format: .jpeg,
                           storedWidth: header.width, storedHeight: header.height, exif: exif)
        case .png:
            let image = try PNG.decode(bytes, channels: channels, maxPixels: maxPixels)
            return Decoded(image: image.oriented(exif?.orientation ?? 1), format: .png,
                           storedWidth: image.width, storedHeight: image.height, exif: exif)
        case nil:
            throw .unsupportedFormat(describeUnknown(bytes))
        }
    }

    /// A guess at what the bytes are, for the error message.
    static func describeUnknown(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.isEmpty { return "empty file" }
        let head = Array(bytes.prefix(12))
        if head.starts(with: Array("GIF8".utf8)) { return "a GIF" }
        if head.count >= 12, head[0 ..< 4] == ArraySlice(Array("RIFF".utf8)), head[8 ..< 12] == ArraySlice(Array("WEBP".utf8)) { return "a WebP" }
        if head.count >= 12, head[4 ..< 8] == ArraySlice(Array("ftyp".utf8)) { return "an HEIF/HEIC or MP4 file" }
        if head.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20 ..< 0x7F).contains($0) }) { return "it looks like text" }
        return "unknown format"
    }
}
