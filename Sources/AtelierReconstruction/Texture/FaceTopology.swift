import AtelierFormats
import AtelierGeometry

/// The connectivity texturing works on: each face's normal, centroid and neighbours across its
/// edges, and each vertex's faces.
///
/// Built once per mesh. A non-manifold edge (three or more faces) links each face to the first
/// other face on it, in face order, so the result is deterministic.
struct FaceTopology: Sendable {
    let faceCount: Int
    let vertexCount: Int
    /// The unit normal of each face from its counter-clockwise winding (zero when degenerate).
    let normals: [SIMD3<Double>]
    let centroids: [SIMD3<Double>]
    /// The face across edge `e` (corners `e`, `e + 1`) of face `f` is `neighbours[3f + e]`, or -1.
    let neighbours: [Int32]
    /// The faces around vertex `v` are `vertexFaces[vertexFaceStart[v] ..< vertexFaceStart[v + 1]]`, ascending.
    let vertexFaceStart: [Int32]
    let vertexFaces: [Int32]

    init(_ mesh: TexturedMesh) {
        let triangles = mesh.triangles
        let positions = mesh.positions.map { SIMD3<Double>(Double($0.x), Double($0.y), Double($0.z)) }
        faceCount = triangles.count
        vertexCount = positions.count
        var normals = [SIMD3<Double>](repeating: .zero, count: faceCount)
        var centroids = [SIMD3<Double>](repeating: .zero, count: faceCount)
        for (f, t) in triangles.enumerated() {
            let a = positions[Int(t.x)], b = positions[Int(t.y)], c = positions[Int(t.z)]
            let n = (b - a).cross(c - a)
            let length = n.length
            normals[f] = length > 0 ? n / length : .zero
            centroids[f] = (a + b + c) / 3
        }
        self.normals = normals
        self.centroids = centroids

        var start = [Int32](repeating: 0, count: vertexCount + 1)
        for t in triangles { start[Int(t.x) + 1] += 1; start[Int(t.y) + 1] += 1; start[Int(t.z) + 1] += 1 }
        for v in 0 ..< vertexCount { start[v + 1] += start[v] }
        var next = start
        var faces = [Int32](repeating: 0, count: faceCount * 3)
        for (f, t) in triangles.enumerated() {
            for v in [Int(t.x), Int(t.y), Int(t.z)] {
                faces[Int(next[v])] = Int32(f)
                next[v] += 1
            }
        }
        vertexFaceStart = start
        vertexFaces = faces

        var neighbours = [Int32](repeating: -1, count: faceCount * 3)
        for (f, t) in triangles.enumerated() {
            let corners = [t.x, t.y, t.z]
            for e in 0 ..< 3 {
                let a = Int(corners[e]), b = corners[(e + 1) % 3]
                for k in Int(start[a]) ..< Int(start[a + 1]) {
                    let g = Int(faces[k])
                    guard g != f else { continue }
                    let u = triangles[g]
                    if u.x == b || u.y == b || u.z == b {
                        neighbours[3 * f + e] = Int32(g)
                        break
                    }
                }
            }
        }
        self.neighbours = neighbours
    }

    /// The faces around vertex `v`.
    func faces(around v: Int) -> ArraySlice<Int32> {
        vertexFaces[Int(vertexFaceStart[v]) ..< Int(vertexFaceStart[v + 1])]
    }
}
