/// Scan conversion of one 2-D triangle over a pixel grid, shared by the visibility depth buffer
/// and the atlas baker.
///
/// A pixel belongs to the triangle when its centre `(x + 0.5, y + 0.5)` is inside or on an edge,
/// whatever the winding; `body` gets the pixel and the barycentric weights of corners `a` and `b`
/// (that of `c` is `1 − wa − wb`) and returns false to stop early.
enum TriangleRaster {
    /// Visits the covered pixels inside `0 ..< width × 0 ..< height`, row by row; returns how
    /// many were visited (0 for a degenerate triangle), or -1 when `body` stopped the scan.
    @inline(__always)
    static func scan(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>, width: Int, height: Int,
                     _ body: (_ x: Int, _ y: Int, _ wa: Float, _ wb: Float) -> Bool) -> Int {
        let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        guard abs(area) > 1e-12, area.isFinite else { return 0 }
        let minX = min(a.x, b.x, c.x), maxX = max(a.x, b.x, c.x)
        let minY = min(a.y, b.y, c.y), maxY = max(a.y, b.y, c.y)
        // Clamped before conversion: a corner just in front of the camera can project very far out.
        func clamp(_ value: Float, _ limit: Int) -> Int { Int(min(max(value, -1), Float(limit))) }
        let x0 = max(0, clamp((minX - 0.5).rounded(.up), width)), x1 = min(width - 1, clamp((maxX - 0.5).rounded(.down), width))
        let y0 = max(0, clamp((minY - 0.5).rounded(.up), height)), y1 = min(height - 1, clamp((maxY - 0.5).rounded(.down), height))
        guard x0 <= x1, y0 <= y1 else { return 0 }
        let inverseArea = 1 / area
        // wa = edge(b, c, p) / area, wb = edge(c, a, p) / area; both are affine in p.
        let dwaX = -(c.y - b.y) * inverseArea, dwbX = -(a.y - c.y) * inverseArea
        // Allow a hair below zero so a pixel centre on a shared edge is not lost to rounding.
        let slack: Float = -1e-5
        var visited = 0
        for y in y0 ... y1 {
            let py = Float(y) + 0.5, px = Float(x0) + 0.5
            var wa = ((c.x - b.x) * (py - b.y) - (c.y - b.y) * (px - b.x)) * inverseArea
            var wb = ((a.x - c.x) * (py - c.y) - (a.y - c.y) * (px - c.x)) * inverseArea
            for x in x0 ... x1 {
                if wa >= slack && wb >= slack && 1 - wa - wb >= slack {
                    visited &+= 1
                    if !body(x, y, wa, wb) { return -1 }
                }
                wa += dwaX
                wb += dwbX
            }
        }
        return visited
    }
}
