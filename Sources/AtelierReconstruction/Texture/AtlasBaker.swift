import AtelierRecords

/// Fills the atlas: every texel under a chart's triangles copies its photo, levelled, and every
/// face no photo saw gets a small cell shaded from its vertices' colours.
///
/// Texels are rasterised at their centres in atlas space; the photo is sampled bilinearly at the
/// matching pixel (an affine map, since charts are only scaled and moved), multiplied by the
/// photo's exposure gain, plus the seam correction interpolated from the face's corners. A face
/// too small to cover a texel centre still writes the texel under its centroid, so the renderer
/// never samples an empty texel there. Charts are baked in parallel; their rectangles are
/// disjoint, so each writes only its own texels and the result does not depend on thread count.
struct AtlasBaker {
    /// The side of a cell of an unseen face, in texels: its triangle spans the cell's texel centres.
    static let cellSide = 4

    let side: Int
    let layout: AtlasLayout

    /// The atlas texel of a photo pixel of chart `c`.
    @inline(__always)
    func atlasPoint(chart c: Int, _ chart: TextureChart, pixel: SIMD2<Float>) -> SIMD2<Float> {
        let origin = layout.chartOrigins[c]
        return (pixel - chart.minimum) * layout.scale + SIMD2(Float(origin.x), Float(origin.y))
    }

    /// The three atlas texel positions of the corners of unseen face number `k` (its cell).
    func cellCorners(_ k: Int, columns: Int) -> (SIMD2<Float>, SIMD2<Float>, SIMD2<Float>) {
        let base = layout.blockOrigin ?? .zero
        let x = Float(base.x + (k % columns) * Self.cellSide), y = Float(base.y + (k / columns) * Self.cellSide)
        let far = Float(Self.cellSide) - 0.5
        return (SIMD2(x + 0.5, y + 0.5), SIMD2(x + far, y + 0.5), SIMD2(x + 0.5, y + far))
    }

    /// The columns of the block of cells for `count` unseen faces, and its size in texels.
    static func cellBlock(count: Int) -> (columns: Int, size: SIMD2<Int>) {
        let columns = max(1, Int(Double(count).squareRoot().rounded(.up)))
        let rows = (count + columns - 1) / columns
        return (columns, SIMD2(columns * cellSide, rows * cellSide))
    }

    /// Writes the charts and cells into `atlas` (RGB) and marks their texels in `mask`.
    func bake(charts: [TextureChart], views: [TextureView], gains: [SIMD3<Float>], seams: SeamLevelling,
              unseenFaces: [Int32], triangles: [SIMD3<UInt32>], atlas: inout [UInt8], mask: inout [UInt8]) {
        let side = side
        atlas.withUnsafeMutableBufferPointer { atlasBuffer in
            mask.withUnsafeMutableBufferPointer { maskBuffer in
                let texels = SharedPointer(base: atlasBuffer.baseAddress!), marks = SharedPointer(base: maskBuffer.baseAddress!)
                WorkSplitter(threads: 0).forEachBalanced(charts.count) { c in
                    let chart = charts[c], image = views[chart.view].image, gain = gains[chart.view]
                    let correction = seams.corrections[c]
                    image.pixels.withUnsafeBufferPointer { pixels in
                        let sampler = PhotoSampler(pixels: pixels, width: image.width, height: image.height)
                        @inline(__always) func write(_ x: Int, _ y: Int, _ colour: SIMD3<Float>) {
                            let i = y &* side &+ x
                            let rounded = (colour.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))).rounded(.toNearestOrEven)
                            texels.base[3 &* i] = UInt8(rounded.x)
                            texels.base[3 &* i &+ 1] = UInt8(rounded.y)
                            texels.base[3 &* i &+ 2] = UInt8(rounded.z)
                            marks.base[i] = 1
                        }
                        for corners in chart.corners {
                            let ka = Int(corners.x), kb = Int(corners.y), kc = Int(corners.z)
                            let pa = chart.pixels[ka], pb = chart.pixels[kb], pc = chart.pixels[kc]
                            let ca = correction[ka], cb = correction[kb], cc = correction[kc]
                            let ta = atlasPoint(chart: c, chart, pixel: pa), tb = atlasPoint(chart: c, chart, pixel: pb)
                            let tc = atlasPoint(chart: c, chart, pixel: pc)
                            let visited = TriangleRaster.scan(ta, tb, tc, width: side, height: side) { x, y, wa, wb in
                                let wc = 1 - wa - wb
                                let source = wa * pa + wb * pb + wc * pc
                                write(x, y, gain * sampler.colour(at: source) + wa * ca + wb * cb + wc * cc)
                                return true
                            }
                            if visited == 0 {
                                let mid = (ta + tb + tc) / 3
                                let x = min(side - 1, max(0, Int(mid.x))), y = min(side - 1, max(0, Int(mid.y)))
                                write(x, y, gain * sampler.colour(at: (pa + pb + pc) / 3) + (ca + cb + cc) / 3)
                            }
                        }
                    }
                }
            }
        }
        bakeCells(unseenFaces: unseenFaces, colours: seams.vertexColours, triangles: triangles, atlas: &atlas, mask: &mask)
    }

    /// Shades each unseen face's cell by interpolating its vertex colours over the whole cell
    /// (barycentrics clamped to the triangle), so the cell has no empty texel to bleed.
    private func bakeCells(unseenFaces: [Int32], colours: [SIMD3<Float>], triangles: [SIMD3<UInt32>],
                           atlas: inout [UInt8], mask: inout [UInt8]) {
        guard !unseenFaces.isEmpty else { return }
        let columns = Self.cellBlock(count: unseenFaces.count).columns
        let n = Self.cellSide, span = Float(n - 1)
        for (k, f) in unseenFaces.enumerated() {
            let t = triangles[Int(f)]
            let ca = colours[Int(t.x)], cb = colours[Int(t.y)], cc = colours[Int(t.z)]
            let (corner, _, _) = cellCorners(k, columns: columns)
            let x0 = Int(corner.x), y0 = Int(corner.y)
            for dy in 0 ..< n {
                for dx in 0 ..< n {
                    var wb = Float(dx) / span, wc = Float(dy) / span
                    if wb + wc > 1 {
                        let total = wb + wc
                        wb /= total
                        wc /= total
                    }
                    let colour = (1 - wb - wc) * ca + wb * cb + wc * cc
                    let i = (y0 + dy) * side + x0 + dx
                    let rounded = colour.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255)).rounded(.toNearestOrEven)
                    atlas[3 * i] = UInt8(rounded.x)
                    atlas[3 * i + 1] = UInt8(rounded.y)
                    atlas[3 * i + 2] = UInt8(rounded.z)
                    mask[i] = 1
                }
            }
        }
    }
}
