import CJPEG

/// JPEG through libjpeg(-turbo): baseline, progressive, greyscale and CMYK in; baseline out.
public enum JPEG {
    /// What a JPEG's header says, read without decoding any pixels.
    public struct Header: Sendable, Equatable {
        public var width: Int
        public var height: Int
        /// 1 grey, 3 colour, 4 CMYK.
        public var components: Int
        public var progressive: Bool
    }

    /// Whether `bytes` start like a JPEG (SOI followed by a marker).
    public static func looksLike(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF
    }

    /// Reads the header only.
    public static func header(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) -> Header {
        let (decoder, header) = try open(bytes)
        atl_jpeg_close(decoder)
        return header
    }

    /// Decodes to `channels` (1 grey or 3 RGB), at 1/`scaleDenominator` of the stored size
    /// (1, 2, 4 or 8: libjpeg scales in the DCT, which is several times faster than decoding
    /// everything and shrinking afterwards). Refuses images of more than `maxPixels` pixels
    /// before allocating anything, since a few bytes can declare a 65535×65535 image.
    public static func decode(_ bytes: UnsafeRawBufferPointer, channels: Int = 3, scaleDenominator: Int = 1,
                              maxPixels: Int = Image.defaultMaxPixels) throws(ImagingError) -> Image {
        precondition(channels == 1 || channels == 3, "JPEG decodes to grey or RGB")
        precondition([1, 2, 4, 8].contains(scaleDenominator), "libjpeg scales by 1/1, 1/2, 1/4 or 1/8")
        let (decoder, header) = try open(bytes)
        defer { atl_jpeg_close(decoder) }
        guard header.width.multipliedReportingOverflow(by: header.height).partialValue <= maxPixels else {
            throw .tooLarge(width: header.width, height: header.height, limit: maxPixels)
        }
        var width: Int32 = 0, height: Int32 = 0
        guard atl_jpeg_start(decoder, Int32(scaleDenominator), Int32(channels), &width, &height) == 0 else {
            throw .corrupt(String(cString: atl_jpeg_message(decoder)))
        }
        // Not zeroed first: libjpeg writes every sample (a truncated file's missing rows are
        // filled by its source manager), and on failure the buffer is dropped.
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: Int(width) * Int(height) * channels) { buffer, initialized in
            status = atl_jpeg_read(decoder, buffer.baseAddress!)
            initialized = buffer.count
        }
        guard status == 0 else { throw .corrupt(String(cString: atl_jpeg_message(decoder))) }
        return Image(width: Int(width), height: Int(height), channels: channels, pixels: pixels)
    }

    /// The largest DCT scale (1, 2, 4 or 8) whose result is still at least `minimumSide` pixels
    /// on its shorter side: decode only what is needed for a thumbnail or a hash.
    public static func scaleDenominator(for header: Header, minimumSide: Int) -> Int {
        let shorter = min(header.width, header.height)
        for denominator in [8, 4, 2] where (shorter + denominator - 1) / denominator >= minimumSide {
            return denominator
        }
        return 1
    }

    /// Encodes a grey or RGB image (alpha is composited over white) at `quality` 1–100.
    public static func encode(_ image: Image, quality: Int = 90) throws(ImagingError) -> [UInt8] {
        let source = image.channels == 1 || image.channels == 3 ? image : image.rgb()
        guard source.width > 0, source.height > 0, source.width <= 65_500, source.height <= 65_500 else {
            throw .encodingFailed("JPEG images are 1 to 65,500 pixels on a side, this one is \(source.width)×\(source.height)")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = source.pixels.withUnsafeBufferPointer { pixels in
            atl_jpeg_encode(pixels.baseAddress!, Int32(source.width), Int32(source.height), Int32(source.channels),
                            Int32(max(1, min(100, quality))), &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw .encodingFailed(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { atl_jpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

    private static func open(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) -> (OpaquePointer, Header) {
        guard looksLike(bytes) else { throw .unsupportedFormat(bytes.isEmpty ? "empty file" : "no JPEG signature") }
        var info = atl_jpeg_info()
        var message = [CChar](repeating: 0, count: 200)
        guard let decoder = atl_jpeg_open(bytes.bindMemory(to: UInt8.self).baseAddress!, bytes.count, &info, &message, message.count) else {
            throw .corrupt(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return (decoder, Header(width: Int(info.width), height: Int(info.height), components: Int(info.components), progressive: info.progressive != 0))
    }
}
