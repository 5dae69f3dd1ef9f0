/// Binary little-endian PLY (the Stanford format), as MeshLab, Blender, CloudCompare, Open3D and
/// trimesh read it: per vertex `x y z`, then `nx ny nz` and `s t` when the mesh has them; faces
/// as a `uchar` count and `uint` indices. A texture is named by MeshLab's `comment TextureFile`.
public enum PLYMeshWriter {
    /// The file's bytes; `textureFileName` is the PNG written beside it, if any.
    public static func write(_ mesh: TexturedMesh, textureFileName: String? = nil, comments: [String] = []) throws(FormatError) -> [UInt8] {
        if let why = mesh.inconsistency { throw .inconsistentMesh(why) }
        var header = "ply\nformat binary_little_endian 1.0\n"
        for comment in comments { header += "comment \(comment.filter { $0 != "\n" && $0 != "\r" })\n" }
        if let textureFileName, !mesh.textureCoordinates.isEmpty { header += "comment TextureFile \(textureFileName)\n" }
        header += "element vertex \(mesh.positions.count)\nproperty float x\nproperty float y\nproperty float z\n"
        if !mesh.normals.isEmpty { header += "property float nx\nproperty float ny\nproperty float nz\n" }
        if !mesh.textureCoordinates.isEmpty { header += "property float s\nproperty float t\n" }
        header += "element face \(mesh.triangles.count)\nproperty list uchar uint vertex_indices\nend_header\n"

        var out = Array(header.utf8)
        let floatsPerVertex = 3 + (mesh.normals.isEmpty ? 0 : 3) + (mesh.textureCoordinates.isEmpty ? 0 : 2)
        out.reserveCapacity(out.count + mesh.positions.count * floatsPerVertex * 4 + mesh.triangles.count * 13)
        for i in mesh.positions.indices {
            let p = mesh.positions[i]
            append(&out, p.x); append(&out, p.y); append(&out, p.z)
            if !mesh.normals.isEmpty {
                let n = mesh.normals[i]
                append(&out, n.x); append(&out, n.y); append(&out, n.z)
            }
            if !mesh.textureCoordinates.isEmpty {
                let t = mesh.textureCoordinates[i]
                append(&out, t.x); append(&out, t.y)
            }
        }
        for triangle in mesh.triangles {
            out.append(3)
            append(&out, triangle.x); append(&out, triangle.y); append(&out, triangle.z)
        }
        return out
    }

    @inline(__always) static func append(_ out: inout [UInt8], _ value: Float) { append(&out, value.bitPattern) }

    @inline(__always) static func append(_ out: inout [UInt8], _ value: UInt32) {
        let v = value.littleEndian
        out.append(UInt8(truncatingIfNeeded: v)); out.append(UInt8(truncatingIfNeeded: v >> 8))
        out.append(UInt8(truncatingIfNeeded: v >> 16)); out.append(UInt8(truncatingIfNeeded: v >> 24))
    }
}
