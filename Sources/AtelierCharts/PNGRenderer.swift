import CSVG

/// SVG to PNG through librsvg and cairo (`CSVG`): a well-kept renderer rather than our own.
public enum PNGRenderer {
    /// The PNG of `svg` drawn at `width` × `height` pixels on white.
    public static func png(svg: String, width: Int, height: Int) throws(ChartError) -> [UInt8] {
        var bytes = Array(svg.utf8)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            atl_svg_render_png(buffer.baseAddress, buffer.count, Int32(width), Int32(height), &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw .rendering(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { atl_svg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
