import CPNG

/// PNG through libpng: 1–16 bit, palette, grey, alpha and interlaced in; 8-bit out, as Pillow
/// reads it (16-bit samples keep their high byte; alpha is composited over white when the
/// caller asks for no alpha).
public enum PNG {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public static func looksLike(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 8 && zip(bytes.prefix(8), signature).allSatisfy { $0 == $1 }
    }

    /// Decodes to `channels`: 1 grey, 3 RGB or 4 RGBA. Refuses images of more than `maxPixels`
    /// pixels from the header, before allocating them.
    public static func decode(_ bytes: UnsafeRawBufferPointer, channels: Int = 3,
                              maxPixels: Int = Image.defaultMaxPixels) throws(ImagingError) -> Image {
        precondition([1, 3, 4].contains(channels))
        guard looksLike(bytes) else { throw .unsupportedFormat(bytes.isEmpty ? "empty file" : "no PNG signature") }
        var width: Int32 = 0, height: Int32 = 0, hasAlpha: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        guard let decoder = atl_png_open(bytes.bindMemory(to: UInt8.self).baseAddress!, bytes.count, &width, &height, &hasAlpha, &message, message.count) else {
            throw .corrupt(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { atl_png_close(decoder) }
        guard Int(width).multipliedReportingOverflow(by: Int(height)).partialValue <= maxPixels else {
            throw .tooLarge(width: Int(width), height: Int(height), limit: maxPixels)
        }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * channels)
        let status = pixels.withUnsafeMutableBufferPointer { atl_png_read(decoder, Int32(channels), $0.baseAddress!) }
        guard status == 0 else { throw .corrupt(String(cString: atl_png_message(decoder))) }
        return Image(width: Int(width), height: Int(height), channels: channels, pixels: pixels)
    }

    /// Encodes an 8-bit image losslessly.
    public static func encode(_ image: Image) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw .encodingFailed("an image needs at least one pixel") }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = image.pixels.withUnsafeBufferPointer {
            atl_png_encode($0.baseAddress!, Int32(image.width), Int32(image.height), Int32(image.channels), &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw .encodingFailed(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { atl_png_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
