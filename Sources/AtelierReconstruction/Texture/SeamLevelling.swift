/// Colour corrections that hide the seams between charts, and colours for faces no photo saw.
///
/// A simplified form of Waechter et al.'s seam levelling (ECCV 2014): at every vertex where
/// charts meet, each chart's (exposure-levelled) colour is pulled to the mean of all charts
/// there; the correction is zero at vertices inside a chart and is interpolated barycentrically
/// over the chart's faces, so it fades out within one ring of faces of the seam and the photo's
/// detail is kept everywhere else.
struct SeamLevelling: Sendable {
    /// The colour to add at each chart vertex, per chart (parallel to `TextureChart.vertices`).
    let corrections: [[SIMD3<Float>]]
    /// A colour for every mesh vertex: the mean of the charts that meet at it, spread from the
    /// seen surface into unseen regions ring by ring, mid-grey where nothing reaches.
    let vertexColours: [SIMD3<Float>]

    init(charts: [TextureChart], views: [TextureView], gains: [SIMD3<Float>], topology: FaceTopology,
         triangles: [SIMD3<UInt32>], levelSeams: Bool) {
        let samples: [[SIMD3<Float>]] = WorkSplitter(threads: 0).map(charts.count, balanced: true) { c in
            let chart = charts[c], image = views[chart.view].image, gain = gains[chart.view]
            return image.pixels.withUnsafeBufferPointer { pixels in
                let sampler = PhotoSampler(pixels: pixels, width: image.width, height: image.height)
                return chart.pixels.map { gain * sampler.smoothedColour(at: $0) }
            }
        }
        var sum = [SIMD3<Float>](repeating: .zero, count: topology.vertexCount)
        var count = [Int32](repeating: 0, count: topology.vertexCount)
        for (c, chart) in charts.enumerated() {
            for (k, v) in chart.vertices.enumerated() {
                sum[Int(v)] += samples[c][k]
                count[Int(v)] += 1
            }
        }
        var colours = [SIMD3<Float>](repeating: .zero, count: topology.vertexCount)
        var known = [Bool](repeating: false, count: topology.vertexCount)
        for v in 0 ..< topology.vertexCount where count[v] > 0 {
            colours[v] = sum[v] / Float(count[v])
            known[v] = true
        }
        corrections = charts.enumerated().map { c, chart in
            guard levelSeams else { return [SIMD3<Float>](repeating: .zero, count: chart.vertices.count) }
            return chart.vertices.enumerated().map { k, v in count[Int(v)] > 1 ? colours[Int(v)] - samples[c][k] : .zero }
        }
        vertexColours = Self.spread(colours, known: known, topology: topology, triangles: triangles)
    }

    /// Fills the unknown vertices ring by ring: each takes the mean of its known neighbours, so
    /// an unseen patch is shaded smoothly from its border inwards.
    private static func spread(_ colours: [SIMD3<Float>], known: [Bool], topology: FaceTopology, triangles: [SIMD3<UInt32>]) -> [SIMD3<Float>] {
        var colours = colours, known = known
        var pending = (0 ..< topology.vertexCount).filter { !known[$0] && topology.vertexFaceStart[$0] < topology.vertexFaceStart[$0 + 1] }
        while !pending.isEmpty {
            var ring: [(Int, SIMD3<Float>)] = []
            for v in pending {
                var total = SIMD3<Float>.zero, n: Float = 0
                for f in topology.faces(around: v) {
                    let t = triangles[Int(f)]
                    for u in [Int(t.x), Int(t.y), Int(t.z)] where u != v && known[u] {
                        total += colours[u]
                        n += 1
                    }
                }
                if n > 0 { ring.append((v, total / n)) }
            }
            guard !ring.isEmpty else { break }
            for (v, colour) in ring {
                colours[v] = colour
                known[v] = true
            }
            pending.removeAll { known[$0] }
        }
        for v in 0 ..< colours.count where !known[v] { colours[v] = SIMD3(repeating: 128) }
        return colours
    }
}
