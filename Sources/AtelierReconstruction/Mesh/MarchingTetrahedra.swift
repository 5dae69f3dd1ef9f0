import AtelierFormats

/// The level set of a sampled field as a triangle mesh, by marching tetrahedra: each grid cell is
/// split into six tetrahedra around its main diagonal (Kuhn's triangulation, the same in every
/// cell, so neighbouring cells agree on their shared faces and the surface has no cracks), and
/// each tetrahedron the surface crosses gives one or two triangles, with vertices interpolated
/// linearly along the crossed edges and shared between cells. Unlike marching cubes it needs no
/// case table and has no ambiguous cases; it makes more, thinner triangles, which
/// `QuadricSimplifier` then reduces.
///
/// Inside is below `isoValue` (a signed distance is negative inside); triangles face outwards,
/// towards larger values.
public enum MarchingTetrahedra {
    /// Corner offsets of a cell, corner `c` at bits (x, y, z) = (c & 1, c >> 1 & 1, c >> 2 & 1).
    static let corners: [SIMD3<Int>] = (0 ..< 8).map { SIMD3($0 & 1, ($0 >> 1) & 1, ($0 >> 2) & 1) }
    /// The six tetrahedra around the diagonal from corner 0 to corner 7: one per order in which
    /// the path from (0,0,0) to (1,1,1) steps along x, y and z.
    static let tetrahedra: [[Int]] = [[0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7]]

    public static func extract(_ volume: ScalarVolume, isoValue: Float = 0) -> TexturedMesh {
        var positions: [SIMD3<Float>] = [], triangles: [SIMD3<UInt32>] = []
        var vertexOfEdge: [Int64: UInt32] = [:]

        // A crossing at (or within rounding of) a grid point is that grid point's own vertex,
        // whichever edge reaches it: otherwise the cells around it would each make a vertex
        // there, and the surface would be cracked, though by nothing one could see.
        func vertex(_ a: Int, _ b: Int) -> UInt32 {
            let va = Double(volume.values[a]), vb = Double(volume.values[b])
            var t = va == vb ? 0.5 : min(1, max(0, (Double(isoValue) - va) / (vb - va)))
            var (a, b) = (a, b)
            if t <= 1e-7 { (b, t) = (a, 0) } else if t >= 1 - 1e-7 { (a, t) = (b, 0) }
            let key = Int64(min(a, b)) << 32 | Int64(max(a, b))
            if let v = vertexOfEdge[key] { return v }
            let p = volume.position(a) + t * (volume.position(b) - volume.position(a))
            positions.append(SIMD3<Float>(p))
            let v = UInt32(positions.count - 1)
            vertexOfEdge[key] = v
            return v
        }

        let cornerOffsets = corners.map { $0.x + volume.nx * ($0.y + volume.ny * $0.z) }
        for z in 0 ..< volume.nz - 1 {
            for y in 0 ..< volume.ny - 1 {
                for x in 0 ..< volume.nx - 1 {
                    // Most cells are wholly inside or outside: settle those without allocating.
                    let first = volume.index(x, y, z)
                    var below = 0, unknown = false
                    for corner in cornerOffsets {
                        let value = volume.values[first + corner]
                        if value.isNaN { unknown = true } else if value < isoValue { below += 1 }
                    }
                    if !unknown && (below == 0 || below == 8) { continue }
                    let cell = corners.map { volume.index(x + $0.x, y + $0.y, z + $0.z) }
                    for tetra in tetrahedra {
                        let ids = tetra.map { cell[$0] }
                        let values = ids.map { volume.values[$0] }
                        guard values.allSatisfy({ !$0.isNaN }) else { continue }
                        let inside = ids.indices.filter { values[$0] < isoValue }
                        guard !inside.isEmpty, inside.count < 4 else { continue }
                        let outside = ids.indices.filter { values[$0] >= isoValue }
                        var made: [[UInt32]]
                        switch inside.count {
                        case 1: made = [outside.map { vertex(ids[inside[0]], ids[$0]) }]
                        case 3: made = [inside.map { vertex(ids[$0], ids[outside[0]]) }]
                        default:
                            let (i0, i1, o0, o1) = (ids[inside[0]], ids[inside[1]], ids[outside[0]], ids[outside[1]])
                            let q = [vertex(i0, o0), vertex(i0, o1), vertex(i1, o1), vertex(i1, o0)]
                            made = [[q[0], q[1], q[2]], [q[0], q[2], q[3]]]
                        }
                        // Face outwards: along the direction from the inside corners to the outside ones.
                        let inCentre = inside.map { volume.position(ids[$0]) }.reduce(.zero, +) / Double(inside.count)
                        let outCentre = outside.map { volume.position(ids[$0]) }.reduce(.zero, +) / Double(outside.count)
                        let outward = outCentre - inCentre
                        for tri in made where tri[0] != tri[1] && tri[1] != tri[2] && tri[0] != tri[2] {
                            let a = SIMD3<Double>(positions[Int(tri[0])]), b = SIMD3<Double>(positions[Int(tri[1])]), c = SIMD3<Double>(positions[Int(tri[2])])
                            let n = (b - a).cross(c - a)
                            guard n.length > 0 else { continue }   // a crossing exactly at a corner
                            triangles.append(n.dot(outward) >= 0 ? SIMD3(tri[0], tri[1], tri[2]) : SIMD3(tri[0], tri[2], tri[1]))
                        }
                    }
                }
            }
        }
        return TexturedMesh(positions: positions, triangles: triangles)
    }
}
