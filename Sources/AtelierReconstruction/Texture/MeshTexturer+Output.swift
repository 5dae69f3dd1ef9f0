import AtelierFormats

extension MeshTexturer {
    /// The input mesh with one output vertex per (vertex, chart) pair and per corner of an unseen
    /// face, texture coordinates normalised to [0, 1] with v up (0 at the atlas's bottom row),
    /// normals copied when the input has them, and the triangles in their original order.
    static func outputMesh(_ mesh: TexturedMesh, charts: [TextureChart], unseenFaces: [Int32], baker: AtlasBaker) -> TexturedMesh {
        let side = Float(baker.side)
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = []
        var triangles = [SIMD3<UInt32>](repeating: .zero, count: mesh.triangles.count)
        let keepNormals = !mesh.normals.isEmpty
        func add(_ vertex: Int, atlas point: SIMD2<Float>) -> UInt32 {
            positions.append(mesh.positions[vertex])
            if keepNormals { normals.append(mesh.normals[vertex]) }
            let uv = SIMD2(point.x / side, 1 - point.y / side)
            uvs.append(uv.clamped(lowerBound: .zero, upperBound: .one))
            return UInt32(positions.count - 1)
        }
        for (c, chart) in charts.enumerated() {
            let first = UInt32(positions.count)
            for (k, v) in chart.vertices.enumerated() {
                _ = add(Int(v), atlas: baker.atlasPoint(chart: c, chart, pixel: chart.pixels[k]))
            }
            for (n, f) in chart.faces.enumerated() {
                let corners = chart.corners[n]
                triangles[Int(f)] = SIMD3(first + UInt32(corners.x), first + UInt32(corners.y), first + UInt32(corners.z))
            }
        }
        let columns = AtlasBaker.cellBlock(count: unseenFaces.count).columns
        for (k, f) in unseenFaces.enumerated() {
            let t = mesh.triangles[Int(f)]
            let (a, b, c) = baker.cellCorners(k, columns: columns)
            triangles[Int(f)] = SIMD3(add(Int(t.x), atlas: a), add(Int(t.y), atlas: b), add(Int(t.z), atlas: c))
        }
        return TexturedMesh(positions: positions, normals: normals, textureCoordinates: uvs, triangles: triangles,
                            texturePNG: nil, name: mesh.name)
    }
}
