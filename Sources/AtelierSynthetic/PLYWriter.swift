/// A mesh as binary little-endian PLY: per vertex position, normal and texture coordinates
/// (`x y z nx ny nz u v`, floats), per face a list of three vertex indices (`vertex_indices`,
/// uchar count and int indices). Positions are the renderer's own floats, in metres, +Y up.
public enum PLYWriter {
    public static func binary(_ mesh: TriangleMesh, comments: [String] = []) -> [UInt8] {
        var header = "ply\nformat binary_little_endian 1.0\n"
        for comment in comments { header += "comment \(comment.replacingOccurrences(of: "\n", with: " "))\n" }
        header += "element vertex \(mesh.positions.count)\n"
        for name in ["x", "y", "z", "nx", "ny", "nz", "u", "v"] { header += "property float \(name)\n" }
        header += "element face \(mesh.triangles.count)\nproperty list uchar int vertex_indices\nend_header\n"

        var out = Array(header.utf8)
        out.reserveCapacity(out.count + mesh.positions.count * 32 + mesh.triangles.count * 13)
        func append(_ value: Float) { append32(value.bitPattern) }
        func append32(_ bits: UInt32) {
            out.append(UInt8(bits & 0xFF))
            out.append(UInt8(bits >> 8 & 0xFF))
            out.append(UInt8(bits >> 16 & 0xFF))
            out.append(UInt8(bits >> 24))
        }
        for i in mesh.positions.indices {
            let p = mesh.positions[i], n = mesh.normals[i], uv = mesh.uvs[i]
            append(p.x); append(p.y); append(p.z)
            append(n.x); append(n.y); append(n.z)
            append(uv.x); append(uv.y)
        }
        for t in mesh.triangles {
            out.append(3)
            append32(t.x); append32(t.y); append32(t.z)
        }
        return out
    }
}
