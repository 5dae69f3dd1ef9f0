import AtelierFormats

/// Connected pieces of a triangle mesh (triangles joined through shared vertices), for removing
/// floating fragments: stray blobs of noise that multi-view stereo leaves around an object.
enum MeshComponents {
    /// The mesh with only its largest piece (by triangle count), vertices renumbered.
    static func largest(_ mesh: TexturedMesh) -> TexturedMesh {
        guard !mesh.triangles.isEmpty else { return mesh }
        var parent = Array(0 ..< mesh.positions.count)
        func find(_ v: Int) -> Int {
            var v = v
            while parent[v] != v {
                parent[v] = parent[parent[v]]
                v = parent[v]
            }
            return v
        }
        for t in mesh.triangles {
            let a = find(Int(t.x)), b = find(Int(t.y)), c = find(Int(t.z))
            parent[b] = a
            parent[find(c)] = a
        }
        var size: [Int: Int] = [:]
        for t in mesh.triangles { size[find(Int(t.x)), default: 0] += 1 }
        guard let keep = size.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key })?.key else { return mesh }
        return subset(mesh) { find(Int($0.x)) == keep }
    }

    /// The triangles passing `include`, with unused vertices dropped.
    static func subset(_ mesh: TexturedMesh, include: (SIMD3<UInt32>) -> Bool) -> TexturedMesh {
        var newIndex = [UInt32](repeating: .max, count: mesh.positions.count)
        var out = TexturedMesh(positions: [], triangles: [], texturePNG: mesh.texturePNG, name: mesh.name)
        func map(_ v: UInt32) -> UInt32 {
            if newIndex[Int(v)] == .max {
                newIndex[Int(v)] = UInt32(out.positions.count)
                out.positions.append(mesh.positions[Int(v)])
                if !mesh.normals.isEmpty { out.normals.append(mesh.normals[Int(v)]) }
                if !mesh.textureCoordinates.isEmpty { out.textureCoordinates.append(mesh.textureCoordinates[Int(v)]) }
            }
            return newIndex[Int(v)]
        }
        for t in mesh.triangles where include(t) { out.triangles.append(SIMD3(map(t.x), map(t.y), map(t.z))) }
        return out
    }
}
