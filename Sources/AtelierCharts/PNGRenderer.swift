import CSVG

/// SVG to PNG through librsvg and cairo (`CSVG`): a well-kept renderer rather than our own.
public enum PNGRenderer {
    /// A flat-coloured triangle to fill: its corners in pixels (y down) and its colour.
    public struct Triangle: Sendable {
        public var corners: (SIMD2<Float>, SIMD2<Float>, SIMD2<Float>)
        public var rgb: SIMD3<UInt8>
        public init(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>, rgb: SIMD3<UInt8>) {
            corners = (a, b, c)
            self.rgb = rgb
        }
    }

    /// The PNG of `triangles` filled in order (painter's order: the last on top) on a
    /// `background` (0xRRGGBB) canvas, through cairo.
    public static func png(triangles: [Triangle], width: Int, height: Int, background: UInt32) throws(ChartError) -> [UInt8] {
        let xy = triangles.flatMap { t in [t.corners.0.x, t.corners.0.y, t.corners.1.x, t.corners.1.y, t.corners.2.x, t.corners.2.y] }
        let rgb = triangles.flatMap { [$0.rgb.x, $0.rgb.y, $0.rgb.z] }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 512)
        let status = atl_triangles_render_png(xy, rgb, triangles.count, Int32(width), Int32(height), background, &output, &size, &message, message.count)
        guard status == 0, let output else {
            throw .rendering(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { atl_svg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }

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
