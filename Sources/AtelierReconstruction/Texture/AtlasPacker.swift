/// Where each chart goes in the atlas, and the one scale (texels per photo pixel) they share.
struct AtlasLayout: Sendable {
    /// Texels per source pixel, the same for every chart so texel density is even.
    let scale: Float
    /// The top-left texel of each chart's content (its rectangle's corner plus the padding).
    let chartOrigins: [SIMD2<Int>]
    /// The top-left texel of the block of fixed size, when one was asked for.
    let blockOrigin: SIMD2<Int>?
}

/// Packs chart rectangles into the square atlas with shelf packing (rectangles sorted by height,
/// tallest first, laid left to right in rows), at the largest common scale that fits, found by
/// bisection. One scale for all charts keeps texel density uniform across the surface, as
/// mvs-texturing does; the scale never exceeds `maximumScale` (1: no texel is finer than the
/// photo). Rectangles never overlap, and each keeps `padding` empty texels on every side.
enum AtlasPacker {
    /// The layout, or nil when the rectangles do not fit even at the smallest scale.
    /// `block` is a rectangle of fixed size in texels (the cells of faces no photo saw).
    static func pack(extents: [SIMD2<Float>], block: SIMD2<Int>?, padding: Int, side: Int,
                     maximumScale: Float = 1) -> AtlasLayout? {
        func attempt(_ scale: Float) -> AtlasLayout? {
            var sizes = extents.map { e in
                SIMD2(Int((e.x * scale).rounded(.up)) + 1 + 2 * padding, Int((e.y * scale).rounded(.up)) + 1 + 2 * padding)
            }
            if let block { sizes.append(block &+ 2 &* padding) }
            guard let corners = shelfPack(sizes, side: side) else { return nil }
            let pad = SIMD2(padding, padding)
            let origins = corners.prefix(extents.count).map { $0 &+ pad }
            return AtlasLayout(scale: scale, chartOrigins: Array(origins), blockOrigin: block == nil ? nil : corners[extents.count] &+ pad)
        }
        if let layout = attempt(maximumScale) { return layout }
        guard var best = attempt(0) else { return nil }
        var lo: Float = 0, hi = maximumScale
        for _ in 0 ..< 30 {
            let mid = (lo + hi) / 2
            if let layout = attempt(mid) {
                best = layout
                lo = mid
            } else {
                hi = mid
            }
            if hi - lo < 1e-4 * hi { break }
        }
        return best
    }

    /// The top-left corner of each rectangle, or nil when they overflow the square.
    static func shelfPack(_ sizes: [SIMD2<Int>], side: Int) -> [SIMD2<Int>]? {
        let order = sizes.indices.sorted { i, j in
            sizes[i].y != sizes[j].y ? sizes[i].y > sizes[j].y : sizes[i].x != sizes[j].x ? sizes[i].x > sizes[j].x : i < j
        }
        var corners = [SIMD2<Int>](repeating: .zero, count: sizes.count)
        var x = 0, y = 0, shelfHeight = 0
        for i in order {
            let size = sizes[i]
            guard size.x <= side else { return nil }
            if x + size.x > side {
                y += shelfHeight
                x = 0
                shelfHeight = 0
            }
            if shelfHeight == 0 { shelfHeight = size.y }
            guard y + size.y <= side else { return nil }
            corners[i] = SIMD2(x, y)
            x += size.x
        }
        return corners
    }
}
