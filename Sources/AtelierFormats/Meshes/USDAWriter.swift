/// Writes a `TexturedMesh` as a USD text layer (`.usda`).
///
/// The layer holds one `Xform` (kind `component`) named after the mesh, with a `Mesh` and a
/// `Material` whose `UsdPreviewSurface` reads the texture through a `UsdUVTexture` (or is plain grey
/// without a texture). The mesh's conventions are USD's: metres (`metersPerUnit = 1`), +Y up,
/// counter-clockwise triangles (USD's default `rightHanded` orientation), v pointing up in `st`.
/// Output is deterministic: no timestamps, numbers in Float's shortest round-trip form.
public enum USDAWriter {
    /// The path of the texture inside a `.usdz` package, relative to the layer.
    public static let packagedTexturePath = "0/texture.png"

    /// The `.usda` text for `mesh`; `texturePath` is the asset path the `UsdUVTexture` reads,
    /// relative to the layer. Throws `FormatError.inconsistentMesh` for an inconsistent mesh.
    public static func usda(for mesh: TexturedMesh, texturePath: String = packagedTexturePath) throws(FormatError) -> String {
        if let why = mesh.inconsistency { throw .inconsistentMesh(why) }
        let material = "/" + primName(mesh.name) + "/Materials/Material"
        // A texture needs coordinates to be sampled with; without them it is left out.
        let textured = mesh.texturePNG != nil && !mesh.textureCoordinates.isEmpty
        var out = ""
        out.reserveCapacity(64 * (mesh.positions.count + mesh.triangles.count) + 4096)
        out += layerHeader(primName(mesh.name))
        appendMesh(mesh, material: material, to: &out)
        appendMaterials(material: material, texturePath: textured ? texturePath : nil, to: &out)
        out += "}\n"
        return out
    }

    /// The layer's metadata (default prim, metres, +Y up) and the opening of its `Xform`.
    static func layerHeader(_ prim: String) -> String {
        """
        #usda 1.0
        (
            defaultPrim = "\(prim)"
            metersPerUnit = 1
            upAxis = "Y"
        )

        def Xform "\(prim)" (
            kind = "component"
        )
        {

        """
    }

    /// The `Mesh` prim: extent, triangles, its material binding, vertex normals and positions,
    /// and texture coordinates when it has them.
    static func appendMesh(_ mesh: TexturedMesh, material: String, to out: inout String) {
        let bounds = mesh.bounds
        out += """
            def Mesh "Mesh" (
                prepend apiSchemas = ["MaterialBindingAPI"]
            )
            {
                float3[] extent = [\(tuple(bounds.minimum)), \(tuple(bounds.maximum))]
                int[] faceVertexCounts = [
        """
        appendList(&out, mesh.triangles) { _ in "3" }
        out += "]\n        int[] faceVertexIndices = ["
        appendList(&out, mesh.triangles) { "\($0.x), \($0.y), \($0.z)" }
        out += "]\n        rel material:binding = <\(material)>\n"
        if !mesh.normals.isEmpty {
            out += "        normal3f[] normals = ["
            appendList(&out, mesh.normals) { tuple($0) }
            out += "] (\n            interpolation = \"vertex\"\n        )\n"
        }
        out += "        point3f[] points = ["
        appendList(&out, mesh.positions) { tuple($0) }
        out += "]\n"
        if !mesh.textureCoordinates.isEmpty {
            out += "        texCoord2f[] primvars:st = ["
            appendList(&out, mesh.textureCoordinates) { "(\(number($0.x)), \(number($0.y)))" }
            out += "] (\n            interpolation = \"vertex\"\n        )\n"
        }
        out += """
                uniform token subdivisionScheme = "none"
            }

        """
    }

    /// The `Materials` scope: a `UsdPreviewSurface` whose diffuse colour reads `texturePath`
    /// through a `UsdUVTexture` and the `st` primvar, or is plain grey when there is no texture.
    static func appendMaterials(material: String, texturePath: String?, to out: inout String) {
        out += """

            def Scope "Materials"
            {
                def Material "Material"
                {
                    token outputs:surface.connect = <\(material)/PreviewSurface.outputs:surface>

                    def Shader "PreviewSurface"
                    {
                        uniform token info:id = "UsdPreviewSurface"

        """
        if texturePath != nil {
            out += "                color3f inputs:diffuseColor.connect = <\(material)/DiffuseTexture.outputs:rgb>\n"
        } else {
            out += "                color3f inputs:diffuseColor = (0.5, 0.5, 0.5)\n"
        }
        out += """
                        float inputs:metallic = 0
                        float inputs:roughness = 0.8
                        token outputs:surface
                    }

        """
        if let texturePath {
            out += "\n" + """
                        def Shader "DiffuseTexture"
                        {
                            uniform token info:id = "UsdUVTexture"
                            asset inputs:file = @\(texturePath)@
                            token inputs:sourceColorSpace = "sRGB"
                            float2 inputs:st.connect = <\(material)/TexCoordReader.outputs:result>
                            token inputs:wrapS = "repeat"
                            token inputs:wrapT = "repeat"
                            float3 outputs:rgb
                        }

                        def Shader "TexCoordReader"
                        {
                            uniform token info:id = "UsdPrimvarReader_float2"
                            string inputs:varname = "st"
                            float2 outputs:result
                        }

            """
        }
        out += "        }\n    }\n"
    }

    /// `name` as a valid USD prim identifier (`[A-Za-z_][A-Za-z0-9_]*`): other characters become
    /// `_`, a leading digit gets a `_` prefix, and an empty name becomes `Garment`.
    public static func primName(_ name: String) -> String {
        var result = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "_"
        })
        if result.isEmpty { return "Garment" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        return result
    }

    /// Float's shortest round-trip description: locale-independent, exact when read back.
    /// USD reads `1e-05`, `inf` and `nan` as Float does.
    static func number(_ value: Float) -> String { value.description }

    static func tuple(_ v: SIMD3<Float>) -> String { "(\(number(v.x)), \(number(v.y)), \(number(v.z)))" }

    private static func appendList<T>(_ out: inout String, _ items: [T], _ format: (T) -> String) {
        for (index, item) in items.enumerated() {
            if index > 0 { out += ", " }
            out += format(item)
        }
    }
}
