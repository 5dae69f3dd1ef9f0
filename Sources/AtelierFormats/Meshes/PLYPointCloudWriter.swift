/// A coloured point cloud as binary little-endian PLY (`x y z`, optional `nx ny nz`, then
/// `red green blue` as bytes), the layout COLMAP, MeshLab, CloudCompare and Open3D exchange.
public enum PLYPointCloudWriter {
    /// The file's bytes. `normals`, when given, has one per point; `colours` likewise.
    public static func write(points: [SIMD3<Float>], normals: [SIMD3<Float>] = [], colours: [SIMD3<UInt8>] = [],
                             comments: [String] = []) throws(FormatError) -> [UInt8] {
        if !normals.isEmpty && normals.count != points.count { throw .inconsistentMesh("\(normals.count) normals for \(points.count) points") }
        if !colours.isEmpty && colours.count != points.count { throw .inconsistentMesh("\(colours.count) colours for \(points.count) points") }
        if points.contains(where: { !$0.x.isFinite || !$0.y.isFinite || !$0.z.isFinite }) { throw .inconsistentMesh("a point is not finite") }
        var header = "ply\nformat binary_little_endian 1.0\n"
        for comment in comments { header += "comment \(comment.filter { $0 != "\n" && $0 != "\r" })\n" }
        header += "element vertex \(points.count)\nproperty float x\nproperty float y\nproperty float z\n"
        if !normals.isEmpty { header += "property float nx\nproperty float ny\nproperty float nz\n" }
        if !colours.isEmpty { header += "property uchar red\nproperty uchar green\nproperty uchar blue\n" }
        header += "end_header\n"
        var out = Array(header.utf8)
        out.reserveCapacity(out.count + points.count * (12 + (normals.isEmpty ? 0 : 12) + (colours.isEmpty ? 0 : 3)))
        for i in points.indices {
            let p = points[i]
            PLYMeshWriter.append(&out, p.x); PLYMeshWriter.append(&out, p.y); PLYMeshWriter.append(&out, p.z)
            if !normals.isEmpty {
                let n = normals[i]
                PLYMeshWriter.append(&out, n.x); PLYMeshWriter.append(&out, n.y); PLYMeshWriter.append(&out, n.z)
            }
            if !colours.isEmpty {
                let c = colours[i]
                out.append(c.x); out.append(c.y); out.append(c.z)
            }
        }
        return out
    }
}
