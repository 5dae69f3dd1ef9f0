import AtelierFormats
import AtelierGeometry

/// A connected patch of faces that all take their colour from one photo.
///
/// Its texture coordinates are the projections of its vertices into that photo, so its texels are
/// a scaled copy of the photo with no distortion; the atlas only moves and scales it.
struct TextureChart: Sendable {
    /// The photo, an index into the views.
    let view: Int
    /// The faces, ascending.
    let faces: [Int32]
    /// The mesh vertex of each chart vertex, in order of first use by `faces`.
    let vertices: [Int32]
    /// Each chart vertex's position in the photo, in pixels.
    let pixels: [SIMD2<Float>]
    /// The chart vertices at the corners of each face (parallel to `faces`).
    let corners: [SIMD3<Int32>]
    /// The pixel bounds of the chart in its photo.
    let minimum: SIMD2<Float>
    let maximum: SIMD2<Float>

    var extent: SIMD2<Float> { maximum - minimum }

    /// The connected components of same-label faces across shared edges, in order of their
    /// lowest face; faces labelled -1 belong to none.
    static func charts(labels: [Int32], triangles: [SIMD3<UInt32>], positions: [SIMD3<Float>],
                       topology: FaceTopology, views: [TextureView]) -> [TextureChart] {
        let faceCount = triangles.count
        var chartOfFace = [Int32](repeating: -1, count: faceCount)
        var stamp = [Int32](repeating: -1, count: positions.count)
        var local = [Int32](repeating: 0, count: positions.count)
        var charts: [TextureChart] = []
        var queue: [Int32] = []
        for seed in 0 ..< faceCount where labels[seed] >= 0 && chartOfFace[seed] < 0 {
            let id = Int32(charts.count), label = labels[seed]
            queue.removeAll(keepingCapacity: true)
            queue.append(Int32(seed))
            chartOfFace[seed] = id
            var head = 0
            while head < queue.count {
                let f = Int(queue[head])
                head += 1
                for e in 0 ..< 3 {
                    let g = Int(topology.neighbours[3 * f + e])
                    if g >= 0 && chartOfFace[g] < 0 && labels[g] == label {
                        chartOfFace[g] = id
                        queue.append(Int32(g))
                    }
                }
            }
            let faces = queue.sorted()
            var vertices: [Int32] = []
            var corners: [SIMD3<Int32>] = []
            corners.reserveCapacity(faces.count)
            for f in faces {
                let t = triangles[Int(f)]
                var c = SIMD3<Int32>()
                for k in 0 ..< 3 {
                    let v = Int(t[k])
                    if stamp[v] != id {
                        stamp[v] = id
                        local[v] = Int32(vertices.count)
                        vertices.append(Int32(v))
                    }
                    c[k] = local[v]
                }
                corners.append(c)
            }
            let view = views[Int(label)]
            let pixels = vertices.map { v -> SIMD2<Float> in
                let p = positions[Int(v)]
                let inCam = view.pose.pointInCam(SIMD3(Double(p.x), Double(p.y), Double(p.z)))
                // Seen faces are in front of the camera; clamp defensively all the same.
                let pixel = view.intrinsics.project(inCam) ?? .zero
                return SIMD2(Float(pixel.x), Float(pixel.y))
            }
            var lo = pixels[0], hi = pixels[0]
            for p in pixels {
                lo = pointwiseMin(lo, p)
                hi = pointwiseMax(hi, p)
            }
            charts.append(TextureChart(view: Int(label), faces: faces, vertices: vertices, pixels: pixels,
                                       corners: corners, minimum: lo, maximum: hi))
        }
        return charts
    }
}
