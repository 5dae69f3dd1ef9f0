import AtelierFormats

/// Reduces a triangle mesh to a triangle budget by quadric edge collapse (Garland & Heckbert,
/// "Surface simplification using quadric error metrics", SIGGRAPH 1997): each vertex carries the
/// sum of the squared-distance quadrics of the planes of its faces (area-weighted); the edge whose
/// collapse adds the least error goes first, to the point that minimises the summed quadric (or
/// the best of its ends and middle when that system is singular).
///
/// Edges on a boundary (one face) get a perpendicular constraint plane with a large weight, so
/// outlines and texture seams (split vertices) keep their shape and the mesh does not crack. A
/// collapse that would flip a face or leave a degenerate one is refused. Texture coordinates and
/// normals are interpolated along the collapsed edge.
public enum QuadricSimplifier {
    /// The simplified mesh with at most `targetTriangles` triangles where the surface allows.
    public static func simplify(_ mesh: TexturedMesh, targetTriangles: Int) -> TexturedMesh {
        guard mesh.triangles.count > targetTriangles, mesh.inconsistency == nil else { return mesh }
        var state = CollapseState(mesh)
        state.run(target: max(1, targetTriangles))
        return state.result(from: mesh)
    }
}

/// A symmetric 4×4 quadric stored as its 10 distinct entries (a00 a01 a02 a03 a11 a12 a13 a22 |
/// a23 a33), in two vectors so sums need no allocation.
struct Quadric {
    var low = SIMD8<Double>()
    var high = SIMD2<Double>()

    init() {}

    /// The quadric of the plane n·x + d = 0 (n unit), times `weight`.
    init(plane n: SIMD3<Double>, d: Double, weight: Double) {
        low = SIMD8(n.x * n.x, n.x * n.y, n.x * n.z, n.x * d, n.y * n.y, n.y * n.z, n.y * d, n.z * n.z) * weight
        high = SIMD2(n.z * d, d * d) * weight
    }

    static func + (l: Quadric, r: Quadric) -> Quadric {
        var q = Quadric()
        q.low = l.low + r.low
        q.high = l.high + r.high
        return q
    }

    /// Entry `i` in the order above.
    @inline(__always) subscript(i: Int) -> Double { i < 8 ? low[i] : high[i - 8] }

    func error(_ p: SIMD3<Double>) -> Double {
        let (x, y, z) = (p.x, p.y, p.z)
        let a = self
        return a[0] * x * x + 2 * a[1] * x * y + 2 * a[2] * x * z + 2 * a[3] * x
            + a[4] * y * y + 2 * a[5] * y * z + 2 * a[6] * y + a[7] * z * z + 2 * a[8] * z + a[9]
    }

    /// The point minimising the error, or nil when the 3×3 system is (nearly) singular.
    func minimiser() -> SIMD3<Double>? {
        let a = self
        let m = [[a[0], a[1], a[2]], [a[1], a[4], a[5]], [a[2], a[5], a[7]]]
        let b = SIMD3(-a[3], -a[6], -a[8])
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        let scale = max(abs(m[0][0]), abs(m[1][1]), abs(m[2][2]))
        guard scale > 0, abs(det) > 1e-10 * scale * scale * scale else { return nil }
        func col(_ c: Int) -> SIMD3<Double> { SIMD3(m[0][c], m[1][c], m[2][c]) }
        // Cramer's rule.
        func det3(_ c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) -> Double {
            c0.x * (c1.y * c2.z - c2.y * c1.z) - c1.x * (c0.y * c2.z - c2.y * c0.z) + c2.x * (c0.y * c1.z - c1.y * c0.z)
        }
        return SIMD3(det3(b, col(1), col(2)), det3(col(0), b, col(2)), det3(col(0), col(1), b)) / det
    }
}
