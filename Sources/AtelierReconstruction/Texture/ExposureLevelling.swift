import AtelierGeometry

/// A gain per photo and colour channel that evens out exposure and white balance between photos,
/// so charts from a brighter photo do not show as patches.
///
/// Vertices seen by two or more photos give the evidence: each photo's gain is the median, over
/// such vertices, of the ratio of their multi-photo mean colour to the photo's own colour (robust
/// to the few vertices where a photo sees a specular highlight or a misregistered edge). The mean
/// uses the gains of the previous round, three rounds in all. Gains are then divided by their
/// median over photos, so the typical photo keeps its colours and only the odd one out moves.
/// Saturated and very dark samples say nothing about a gain and are left out.
enum ExposureLevelling {
    /// At most this many vertices are sampled, evenly spaced in index order.
    static let maximumVertices = 40_000
    /// Photos that see a vertex more obliquely than about 65° give no evidence about it.
    static let minimumCosine = 0.4

    static func gains(quality: [Float], topology: FaceTopology, positions: [SIMD3<Float>], views: [TextureView]) -> [SIMD3<Float>] {
        let viewCount = views.count, faceCount = topology.faceCount
        var gains = [SIMD3<Float>](repeating: .one, count: viewCount)
        guard viewCount > 1 else { return gains }
        // Each sampled vertex's colour in every photo that sees one of its faces.
        var start: [Int] = [0], observedView: [Int32] = [], observed: [SIMD3<Float>] = []
        let stride = max(1, topology.vertexCount / maximumVertices)
        var seesVertex = [Bool](repeating: false, count: viewCount)
        for v in Swift.stride(from: 0, to: topology.vertexCount, by: stride) {
            let around = topology.faces(around: v)
            guard !around.isEmpty else { continue }
            var normal = SIMD3<Double>.zero
            for f in around { normal += topology.normals[Int(f)] }
            guard normal.length > 0 else { continue }
            normal = normal.normalized
            let p = positions[v]
            let point = SIMD3(Double(p.x), Double(p.y), Double(p.z))
            // Only photos that see every face around the vertex, and not at a grazing angle: near
            // a silhouette a sample can catch the background, which would bias the gains.
            var seenBy = 0
            for l in 0 ..< viewCount {
                seesVertex[l] = around.allSatisfy { quality[l * faceCount + Int($0)] > 0 }
                    && normal.dot((views[l].pose.centre - point).normalized) >= minimumCosine
                if seesVertex[l] { seenBy += 1 }
            }
            guard seenBy >= 2 else { continue }
            for l in 0 ..< viewCount where seesVertex[l] {
                let view = views[l]
                guard let pixel = view.intrinsics.project(view.pose.pointInCam(point)) else { continue }
                let colour = view.image.pixels.withUnsafeBufferPointer {
                    PhotoSampler(pixels: $0, width: view.image.width, height: view.image.height)
                        .colour(at: SIMD2(Float(pixel.x), Float(pixel.y)))
                }
                observedView.append(Int32(l))
                observed.append(colour)
            }
            start.append(observed.count)
        }
        let usable: (SIMD3<Float>) -> Bool = { c in c.max() < 250 && c.min() > 8 }
        for _ in 0 ..< 3 {
            var ratios = [[SIMD3<Float>]](repeating: [], count: viewCount)
            for k in 0 ..< start.count - 1 {
                let range = start[k] ..< start[k + 1]
                guard range.count >= 2 else { continue }
                var mean = SIMD3<Float>.zero, n: Float = 0
                for i in range where usable(observed[i]) {
                    mean += gains[Int(observedView[i])] * observed[i]
                    n += 1
                }
                guard n >= 2 else { continue }
                mean /= n
                for i in range where usable(observed[i]) { ratios[Int(observedView[i])].append(mean / observed[i]) }
            }
            var next = [SIMD3<Float>](repeating: .one, count: viewCount)
            var measured: [Int] = []
            for l in 0 ..< viewCount where ratios[l].count >= 16 {
                next[l] = SIMD3(median(ratios[l].map(\.x)), median(ratios[l].map(\.y)), median(ratios[l].map(\.z)))
                measured.append(l)
            }
            guard !measured.isEmpty else { return gains }
            let typical = SIMD3(median(measured.map { next[$0].x }), median(measured.map { next[$0].y }), median(measured.map { next[$0].z }))
            for l in measured { next[l] = pointwiseMin(pointwiseMax(next[l] / typical, SIMD3(repeating: 0.5)), SIMD3(repeating: 2)) }
            gains = next
        }
        return gains
    }

    /// The median (the lower middle for an even count); 1 for none.
    static func median(_ values: [Float]) -> Float {
        guard !values.isEmpty else { return 1 }
        let sorted = values.sorted()
        return sorted[(sorted.count - 1) / 2]
    }
}
