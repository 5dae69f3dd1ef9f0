import AtelierRecords

/// Grows every chart into the empty texels around it, so bilinear filtering and mipmaps at a
/// chart's border blend with the chart's own colours rather than the atlas background.
///
/// Each round, every empty texel with a filled neighbour (of eight) takes the mean of its filled
/// neighbours; the round's new texels are computed from the previous state only (rows in
/// parallel, results applied afterwards), so the outcome does not depend on thread count.
enum AtlasDilation {
    static func dilate(atlas: inout [UInt8], mask: inout [UInt8], side: Int, rounds: Int) {
        let bandRows = 64
        let bands = (side + bandRows - 1) / bandRows
        for _ in 0 ..< rounds {
            let grown: [[(index: Int, colour: SIMD3<UInt8>)]] = atlas.withUnsafeBufferPointer { texels in
                mask.withUnsafeBufferPointer { marks in
                    let texels = SharedPointer(base: UnsafeMutablePointer(mutating: texels.baseAddress!))
                    let marks = SharedPointer(base: UnsafeMutablePointer(mutating: marks.baseAddress!))
                    return WorkSplitter(threads: 0).map(bands) { band in
                        var found: [(index: Int, colour: SIMD3<UInt8>)] = []
                        for y in band * bandRows ..< min(side, (band + 1) * bandRows) {
                            for x in 0 ..< side where marks.base[y &* side &+ x] == 0 {
                                var total = SIMD3<UInt32>.zero, n: UInt32 = 0
                                for ny in max(0, y - 1) ... min(side - 1, y + 1) {
                                    for nx in max(0, x - 1) ... min(side - 1, x + 1) {
                                        let j = ny &* side &+ nx
                                        guard marks.base[j] != 0 else { continue }
                                        total &+= SIMD3(UInt32(texels.base[3 &* j]), UInt32(texels.base[3 &* j &+ 1]), UInt32(texels.base[3 &* j &+ 2]))
                                        n &+= 1
                                    }
                                }
                                if n > 0 {
                                    let mean = (total &+ SIMD3(repeating: n / 2)) / SIMD3(repeating: n)
                                    found.append((y &* side &+ x, SIMD3<UInt8>(truncatingIfNeeded: mean)))
                                }
                            }
                        }
                        return found
                    }
                }
            }
            var any = false
            for band in grown {
                for (i, colour) in band {
                    atlas[3 * i] = colour.x
                    atlas[3 * i + 1] = colour.y
                    atlas[3 * i + 2] = colour.z
                    mask[i] = 2
                    any = true
                }
            }
            if !any { break }
        }
    }
}
