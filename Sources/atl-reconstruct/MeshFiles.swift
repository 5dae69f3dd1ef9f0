import AtelierCLI
import AtelierFormats

/// The files of a model's `mesh/` directory: `model.ply` (binary PLY with normals and texture
/// coordinates, naming its texture as MeshLab does) and `texture.png`. `atl-export` reads them
/// back to write USDZ, glTF, OBJ or PLY.
enum MeshFiles {
    static let meshName = "model.ply"
    static let textureName = "texture.png"

    static func files(_ mesh: TexturedMesh) throws(FormatError) -> [(name: String, bytes: [UInt8])] {
        let texture = mesh.texturePNG.flatMap { mesh.textureCoordinates.isEmpty ? nil : $0 }
        let ply = try PLYMeshWriter.write(mesh, textureFileName: texture == nil ? nil : textureName,
                                          comments: ["Atelier atl-reconstruct: metres (or the model's own units), +Y up"])
        var files: [(name: String, bytes: [UInt8])] = [(meshName, ply)]
        if let texture { files.append((textureName, texture)) }
        return files
    }
}
