/// Bilinear reads of a grid of texels at continuous positions: the one definition that stereo's
/// grey windows, undistortion and texturing of photos, and the synthetic renderer's textures share.
///
/// Positions are in texel units with texel `(i, j)`'s centre at `(i, j)`; COLMAP's pixel
/// convention (the centre at `(i + 0.5, j + 0.5)`) is this plus a half (`sample(pixel:)`).
/// Values are blended as `a + (b − a)·t`, first along x in the two rows, then along y.
///
/// Generic and `@inlinable`, so each caller's pixel loop gets a copy specialised to its layout
/// (`FloatTexels`, `RGB8Texels`, or its own `TexelGrid`), with no dynamic dispatch per sample.
public struct BilinearSampler<Grid: TexelGrid> {
    public let grid: Grid

    @inlinable @inline(__always)
    public init(_ grid: Grid) { self.grid = grid }

    /// The value at `(x, y)`. Positions off the grid are clamped to its border, so the edge
    /// texels extend outwards, and a position on the last row or column reads it exactly.
    @inlinable @inline(__always)
    public func sample(x: Float, y: Float) -> Grid.Texel {
        let width = grid.width, height = grid.height
        let u = min(max(x, 0), Float(width &- 1)), v = min(max(y, 0), Float(height &- 1))
        // Truncation is flooring: u and v are not negative.
        let x0 = Int(u), y0 = Int(v)
        let x1 = min(x0 &+ 1, width &- 1), y1 = min(y0 &+ 1, height &- 1)
        let row0 = y0 &* width, row1 = y1 &* width
        let fx = u - Float(x0), fy = v - Float(y0)
        let top = Grid.Texel.blend(grid.texel(at: row0 &+ x0), grid.texel(at: row0 &+ x1), fx)
        let bottom = Grid.Texel.blend(grid.texel(at: row1 &+ x0), grid.texel(at: row1 &+ x1), fx)
        return Grid.Texel.blend(top, bottom, fy)
    }

    /// The value at `p` in COLMAP's pixel convention (pixel `(i, j)`'s centre at
    /// `(i + 0.5, j + 0.5)`), clamped at the border as `sample(x:y:)` is.
    @inlinable @inline(__always)
    public func sample(pixel p: SIMD2<Float>) -> Grid.Texel {
        sample(x: p.x - 0.5, y: p.y - 0.5)
    }

    /// The value at `(x, y)` for a position whose four texels all lie on the grid
    /// (`0 ≤ x < width − 1`, `0 ≤ y < height − 1`), with no clamping: for loops that have
    /// checked a whole window, or clamp by a rule of their own.
    @inlinable @inline(__always)
    public func sampleInside(x: Float, y: Float) -> Grid.Texel {
        let width = grid.width
        let x0 = Int(x), y0 = Int(y)
        let o = y0 &* width &+ x0
        let fx = x - Float(x0), fy = y - Float(y0)
        let top = Grid.Texel.blend(grid.texel(at: o), grid.texel(at: o &+ 1), fx)
        let bottom = Grid.Texel.blend(grid.texel(at: o &+ width), grid.texel(at: o &+ width &+ 1), fx)
        return Grid.Texel.blend(top, bottom, fy)
    }
}

extension BilinearSampler where Grid.Texel == Float {
    /// Four values at once, lane by lane as `sampleInside(x:y:)` computes each: the four
    /// texels of every lane must lie on the grid.
    @inlinable @inline(__always)
    public func sampleInside(x: SIMD4<Float>, y: SIMD4<Float>) -> SIMD4<Float> {
        let width = grid.width
        // Truncation is flooring: the positions are not negative.
        let x0 = SIMD4(Int(x[0]), Int(x[1]), Int(x[2]), Int(x[3])), y0 = SIMD4(Int(y[0]), Int(y[1]), Int(y[2]), Int(y[3]))
        let k0 = y0[0] &* width &+ x0[0], k1 = y0[1] &* width &+ x0[1]
        let k2 = y0[2] &* width &+ x0[2], k3 = y0[3] &* width &+ x0[3]
        assert(min(k0, k1, k2, k3) >= 0 && max(k0, k1, k2, k3) &+ width &+ 1 < width &* grid.height,
               "a bilinear sample outside the grid")
        let fx = x - SIMD4(Float(x0[0]), Float(x0[1]), Float(x0[2]), Float(x0[3]))
        let fy = y - SIMD4(Float(y0[0]), Float(y0[1]), Float(y0[2]), Float(y0[3]))
        let a = SIMD4(grid.texel(at: k0), grid.texel(at: k1), grid.texel(at: k2), grid.texel(at: k3))
        let b = SIMD4(grid.texel(at: k0 &+ 1), grid.texel(at: k1 &+ 1), grid.texel(at: k2 &+ 1), grid.texel(at: k3 &+ 1))
        let c = SIMD4(grid.texel(at: k0 &+ width), grid.texel(at: k1 &+ width), grid.texel(at: k2 &+ width), grid.texel(at: k3 &+ width))
        let d = SIMD4(grid.texel(at: k0 &+ width &+ 1), grid.texel(at: k1 &+ width &+ 1),
                      grid.texel(at: k2 &+ width &+ 1), grid.texel(at: k3 &+ width &+ 1))
        let top = a + (b - a) * fx, bottom = c + (d - c) * fx
        return top + (bottom - top) * fy
    }
}

/// A grid of texels stored row-major, `width × height`, as `BilinearSampler` reads it.
/// Conformers are small views over memory someone else owns (a plane of Float, an interleaved
/// RGB image, one packed mip level), valid while it lives.
public protocol TexelGrid {
    associatedtype Texel: BilinearBlendable
    var width: Int { get }
    var height: Int { get }
    /// The texel at row-major index `y · width + x`; the sampler only asks for indices on the grid.
    func texel(at index: Int) -> Texel
}

/// A value bilinear interpolation blends: a scalar or a vector of Float.
public protocol BilinearBlendable {
    /// `a + (b − a)·t`: `a` exactly at `t = 0`, and for every `t` when `a == b`.
    static func blend(_ a: Self, _ b: Self, _ t: Float) -> Self
}

extension Float: BilinearBlendable {
    @inlinable @inline(__always)
    public static func blend(_ a: Float, _ b: Float, _ t: Float) -> Float { a + (b - a) * t }
}

extension SIMD3: BilinearBlendable where Scalar == Float {
    @inlinable @inline(__always)
    public static func blend(_ a: SIMD3<Float>, _ b: SIMD3<Float>, _ t: Float) -> SIMD3<Float> { a + (b - a) * t }
}

/// A row-major plane of Float values (grey levels, for stereo's windows).
public struct FloatTexels: TexelGrid {
    public let values: UnsafeBufferPointer<Float>
    public let width: Int
    public let height: Int

    /// `values` holds at least `width × height` values.
    @inlinable @inline(__always)
    public init(_ values: UnsafeBufferPointer<Float>, width: Int, height: Int) {
        assert(values.count >= width * height, "a plane smaller than its size")
        self.values = values
        self.width = width
        self.height = height
    }

    @inlinable @inline(__always)
    public func texel(at index: Int) -> Float { values[index] }
}

/// An 8-bit RGB image, channels interleaved (`Image`'s layout with three channels), read as
/// Float colours on 0–255.
public struct RGB8Texels: TexelGrid {
    public let pixels: UnsafeBufferPointer<UInt8>
    public let width: Int
    public let height: Int

    /// `pixels` holds at least `width × height × 3` samples.
    @inlinable @inline(__always)
    public init(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        assert(pixels.count >= width * height * 3, "an image smaller than its size")
        self.pixels = pixels
        self.width = width
        self.height = height
    }

    @inlinable @inline(__always)
    public func texel(at index: Int) -> SIMD3<Float> {
        let i = index &* 3
        return SIMD3(Float(pixels[i]), Float(pixels[i &+ 1]), Float(pixels[i &+ 2]))
    }
}
