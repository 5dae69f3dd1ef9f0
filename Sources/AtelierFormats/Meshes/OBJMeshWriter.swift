/// Wavefront OBJ with its MTL material and the texture beside it: the lowest common denominator
/// every 3D program opens. Indices in `f` lines are 1-based and shared by position, texture
/// coordinate and normal (`f a/a/a`), since the mesh has one of each per vertex.
public enum OBJMeshWriter {
    /// The files to write into one directory, by name: `<base>.obj`, `<base>.mtl`, and
    /// `<base>.png` when the mesh has a texture.
    public static func write(_ mesh: TexturedMesh, baseName: String) throws(FormatError) -> [(name: String, bytes: [UInt8])] {
        if let why = mesh.inconsistency { throw .inconsistentMesh(why) }
        let textured = mesh.texturePNG != nil && !mesh.textureCoordinates.isEmpty
        var obj = "# Atelier\nmtllib \(baseName).mtl\no \(mesh.name)\n"
        obj.reserveCapacity(mesh.positions.count * 90 + mesh.triangles.count * 40)
        for p in mesh.positions { obj += "v \(p.x) \(p.y) \(p.z)\n" }
        if !mesh.textureCoordinates.isEmpty { for t in mesh.textureCoordinates { obj += "vt \(t.x) \(t.y)\n" } }
        if !mesh.normals.isEmpty { for n in mesh.normals { obj += "vn \(n.x) \(n.y) \(n.z)\n" } }
        obj += "usemtl \(mesh.name)\n"
        let hasT = !mesh.textureCoordinates.isEmpty, hasN = !mesh.normals.isEmpty
        for triangle in mesh.triangles {
            obj += "f"
            for index in [triangle.x, triangle.y, triangle.z] {
                let i = index + 1
                switch (hasT, hasN) {
                case (true, true): obj += " \(i)/\(i)/\(i)"
                case (true, false): obj += " \(i)/\(i)"
                case (false, true): obj += " \(i)//\(i)"
                case (false, false): obj += " \(i)"
                }
            }
            obj += "\n"
        }
        var mtl = "# Atelier\nnewmtl \(mesh.name)\nKa 0 0 0\nKd \(textured ? "1 1 1" : "0.6 0.6 0.6")\nKs 0 0 0\nd 1\nillum 1\n"
        if textured { mtl += "map_Kd \(baseName).png\n" }
        var files: [(name: String, bytes: [UInt8])] = [("\(baseName).obj", Array(obj.utf8)), ("\(baseName).mtl", Array(mtl.utf8))]
        if textured, let png = mesh.texturePNG { files.append(("\(baseName).png", png)) }
        return files
    }
}
