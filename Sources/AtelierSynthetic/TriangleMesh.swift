import AtelierGeometry
/// An axis-aligned box in world units.
public struct BoundingBox: Sendable, Equatable {
    public var min: SIMD3<Double>
    public var max: SIMD3<Double>

    public init(min: SIMD3<Double>, max: SIMD3<Double>) {
        self.min = min
        self.max = max
    }

    public var centre: SIMD3<Double> { (min + max) / 2 }
    public var size: SIMD3<Double> { max - min }
}

/// A triangle mesh in world units (metres, +Y up) with, per vertex, a unit normal, texture
/// coordinates and a baked ambient-occlusion factor.
///
/// Positions are single precision because that is what the renderer draws and what `mesh.ply`
/// stores: the surface written out is exactly the surface in the pictures. Triangles wind
/// counter-clockwise seen from outside, so `(b − a) × (c − a)` points outwards.
public struct TriangleMesh: Sendable {
    public var positions: [SIMD3<Float>]
    public var normals: [SIMD3<Float>]
    /// Texture coordinates, u to the right and v down the texture image, both in [0, 1].
    public var uvs: [SIMD2<Float>]
    /// How much ambient light reaches each vertex, 0–1: below 1 in the hollows of folds.
    public var occlusion: [Float]
    public var triangles: [SIMD3<UInt32>]

    /// A mesh with area-weighted vertex normals and no occlusion.
    public init(positions: [SIMD3<Float>], uvs: [SIMD2<Float>], triangles: [SIMD3<UInt32>]) {
        precondition(positions.count == uvs.count, "one texture coordinate per vertex")
        self.positions = positions
        self.uvs = uvs
        self.triangles = triangles
        normals = []
        occlusion = [Float](repeating: 1, count: positions.count)
        recomputeNormals()
    }

    public var boundingBox: BoundingBox {
        var low = SIMD3<Double>(repeating: .infinity), high = SIMD3<Double>(repeating: -.infinity)
        for p in positions {
            let d = SIMD3<Double>(p)
            low = pointwiseMin(low, d)
            high = pointwiseMax(high, d)
        }
        return BoundingBox(min: low, max: high)
    }

    /// Vertex normals as the area-weighted mean of the faces around each vertex.
    public mutating func recomputeNormals() {
        var sums = [SIMD3<Float>](repeating: .zero, count: positions.count)
        for t in triangles {
            let a = positions[Int(t.x)], b = positions[Int(t.y)], c = positions[Int(t.z)]
            let n = (b - a).cross(c - a)   // twice the area, outwards
            sums[Int(t.x)] += n
            sums[Int(t.y)] += n
            sums[Int(t.z)] += n
        }
        normals = sums.map { $0.normalized }
    }

    /// Darkens the hollows: each vertex's occlusion falls with the concavity of the surface around
    /// it (the mean curvature estimated from its neighbours, `2⟨n, mean(neighbours) − p⟩ / ℓ²`, in
    /// 1/metres), smoothed over a few rings of neighbours, as `1 − strength × curvature`, clamped
    /// to [`floor`, 1]. A cheap stand-in for ray-traced ambient occlusion that darkens exactly
    /// where real folds are darker, the same from every view.
    public mutating func bakeOcclusion(strengthMetres: Float, floor: Float = 0.55, smoothing: Int = 3) {
        let count = positions.count
        var neighbourSum = [SIMD3<Float>](repeating: .zero, count: count)
        var edgeSquares = [Float](repeating: 0, count: count)
        var neighbours = [Float](repeating: 0, count: count)
        for t in triangles {
            let i = [Int(t.x), Int(t.y), Int(t.z)]
            for k in 0 ..< 3 {
                let v = i[k], a = i[(k + 1) % 3], b = i[(k + 2) % 3]
                neighbourSum[v] += positions[a] + positions[b]
                let da = positions[a] - positions[v], db = positions[b] - positions[v]
                edgeSquares[v] += da.dot(da) + db.dot(db)
                neighbours[v] += 2
            }
        }
        var curvature = [Float](repeating: 0, count: count)
        for v in 0 ..< count where neighbours[v] > 0 {
            let mean = neighbourSum[v] / neighbours[v]
            let meanEdgeSquare = edgeSquares[v] / neighbours[v]
            curvature[v] = 2 * normals[v].dot(mean - positions[v]) / max(meanEdgeSquare, 1e-12)
        }
        for _ in 0 ..< smoothing {
            var sum = curvature, weight = [Float](repeating: 1, count: count)
            for t in triangles {
                let i = [Int(t.x), Int(t.y), Int(t.z)]
                for k in 0 ..< 3 {
                    sum[i[k]] += curvature[i[(k + 1) % 3]] + curvature[i[(k + 2) % 3]]
                    weight[i[k]] += 2
                }
            }
            for v in 0 ..< count { curvature[v] = sum[v] / weight[v] }
        }
        occlusion = curvature.map { min(1, max(floor, 1 - strengthMetres * max(0, $0))) }
    }
}
