import AtelierImaging
import Foundation

/// A texture ready for sampling: an sRGB image and its mip chain, each level half the size of the
/// one before (averaged in linear light), in one block of packed texels.
///
/// Sampling is trilinear (bilinear within the two nearest levels, blended by the fractional
/// level of detail) with clamped edges, and returns linear light. Choosing the level from each
/// sample's footprint keeps fine print from aliasing into moiré, which a feature detector would
/// take for real structure.
public final class Texture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Level sizes and where each starts in `texels`.
    let levels: FixedBuffer<Level>
    /// Texels of every level, each packed as `r | g << 8 | b << 16` (sRGB codes).
    let texels: FixedBuffer<UInt32>

    struct Level {
        var offset: Int
        var width: Int
        var height: Int
    }

    /// The texture of an image (grey, RGB or RGBA; alpha is dropped).
    public init(image: Image) {
        precondition(image.width > 0 && image.height > 0, "a texture needs at least one texel")
        let source = image.channels == 3 ? image : image.rgb()
        width = source.width
        height = source.height
        var sizes: [(Int, Int)] = [(width, height)]
        while sizes.last!.0 > 1 || sizes.last!.1 > 1 {
            let (w, h) = sizes.last!
            sizes.append((max(1, (w + 1) / 2), max(1, (h + 1) / 2)))
        }
        var levelList: [Level] = [], offset = 0
        for (w, h) in sizes {
            levelList.append(Level(offset: offset, width: w, height: h))
            offset += w * h
        }
        levels = FixedBuffer(levelList)
        texels = FixedBuffer(repeating: 0, count: offset)

        let out = texels.base
        for i in 0 ..< width * height {
            out[i] = UInt32(source.pixels[3 * i]) | UInt32(source.pixels[3 * i + 1]) << 8 | UInt32(source.pixels[3 * i + 2]) << 16
        }
        let toLinear = ColourSpace.linearFromCode
        for index in 1 ..< levelList.count {
            let parent = levelList[index - 1], level = levelList[index]
            for y in 0 ..< level.height {
                for x in 0 ..< level.width {
                    var sum = SIMD3<Float>.zero
                    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                        let px = min(2 * x + dx, parent.width - 1), py = min(2 * y + dy, parent.height - 1)
                        let t = out[parent.offset + py * parent.width + px]
                        sum += SIMD3(toLinear[Int(t & 0xFF)], toLinear[Int(t >> 8 & 0xFF)], toLinear[Int(t >> 16 & 0xFF)])
                    }
                    let c = sum / 4
                    func code(_ v: Float) -> UInt32 { UInt32(min(max(ColourSpace.encode(v) + 0.5, 0), 255)) }
                    out[level.offset + y * level.width + x] = code(c.x) | code(c.y) << 8 | code(c.z) << 16
                }
            }
        }
    }

    /// A lightweight view for render loops; valid while the texture lives.
    var sampler: TextureSampler {
        TextureSampler(levels: UnsafePointer(levels.base), levelCount: levels.count, texels: UnsafePointer(texels.base),
                       width: Float(width), height: Float(height))
    }

    /// Linear RGB at texture coordinates (u, v) ∈ [0, 1]², at mip level `lod` (0 is full size).
    public func sample(u: Float, v: Float, lod: Float) -> SIMD3<Float> {
        withExtendedLifetime(self) { sampler.sample(u, v, lod: lod) }
    }
}

/// Raw pointers into a `Texture`, for the renderer's inner loop.
struct TextureSampler: @unchecked Sendable {
    let levels: UnsafePointer<Texture.Level>
    let levelCount: Int
    let texels: UnsafePointer<UInt32>
    let width: Float
    let height: Float

    @inline(__always)
    func sample(_ u: Float, _ v: Float, lod: Float) -> SIMD3<Float> {
        let clamped = min(max(lod, 0), Float(levelCount - 1))
        let low = Int(clamped)
        let colour = bilinear(level: low, u, v)
        let t = clamped - Float(low)
        guard t > 0, low + 1 < levelCount else { return colour }
        return colour + (bilinear(level: low + 1, u, v) - colour) * t
    }

    /// Bilinear at (u, v) within mip level `index`, edges clamped (AtelierImaging's `BilinearSampler`).
    @inline(__always)
    func bilinear(level index: Int, _ u: Float, _ v: Float) -> SIMD3<Float> {
        let level = levels[index]
        let grid = PackedLevelTexels(texels: texels + level.offset, width: level.width, height: level.height)
        return BilinearSampler(grid).sample(x: u * Float(level.width) - 0.5, y: v * Float(level.height) - 0.5)
    }
}

/// One mip level of a `Texture` as a grid for `BilinearSampler`: texels packed as
/// `r | g << 8 | b << 16` (sRGB codes), read as linear light.
struct PackedLevelTexels: TexelGrid {
    let texels: UnsafePointer<UInt32>
    let width: Int
    let height: Int

    @inline(__always)
    func texel(at index: Int) -> SIMD3<Float> {
        let texel = texels[index], table = ColourSpace.linearFromCode
        return SIMD3(table[Int(texel & 0xFF)], table[Int(texel >> 8 & 0xFF)], table[Int(texel >> 16 & 0xFF)])
    }
}
