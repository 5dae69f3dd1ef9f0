/// Bilinear colour lookups in an RGB photo, in COLMAP's pixel convention (the centre of pixel
/// `(i, j)` is at `(i + 0.5, j + 0.5)`); coordinates off the image clamp to its border.
struct PhotoSampler {
    let pixels: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int

    @inline(__always)
    func colour(at p: SIMD2<Float>) -> SIMD3<Float> {
        let x = min(max(p.x - 0.5, 0), Float(width - 1)), y = min(max(p.y - 0.5, 0), Float(height - 1))
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = texel(x0, y0) * (1 - fx) + texel(x1, y0) * fx
        let bottom = texel(x0, y1) * (1 - fx) + texel(x1, y1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// The mean of five samples a pixel apart around `p`: a vertex's colour less at the mercy of
    /// one pixel of print or noise, for levelling.
    func smoothedColour(at p: SIMD2<Float>) -> SIMD3<Float> {
        (colour(at: p) + colour(at: p + SIMD2(1, 0)) + colour(at: p - SIMD2(1, 0))
            + colour(at: p + SIMD2(0, 1)) + colour(at: p - SIMD2(0, 1))) / 5
    }

    @inline(__always)
    private func texel(_ x: Int, _ y: Int) -> SIMD3<Float> {
        let i = (y &* width &+ x) &* 3
        return SIMD3(Float(pixels[i]), Float(pixels[i &+ 1]), Float(pixels[i &+ 2]))
    }
}
