import AtelierRecords

/// Binary glTF 2.0 (`.glb`): one mesh, one node, one PBR material whose base colour is the
/// texture, everything in one file. The JSON chunk is written with keys in a fixed order, so the
/// same mesh gives the same bytes.
///
/// Layout of the binary chunk: positions, normals, texture coordinates (v flipped: glTF's (0, 0)
/// is the top-left of the image), indices, then the PNG, each starting on a 4-byte boundary as
/// the specification requires. POSITION carries `min` and `max`, which glTF requires.
public enum GLBWriter {
    public static func write(_ mesh: TexturedMesh) throws(FormatError) -> [UInt8] {
        if let why = mesh.inconsistency { throw .inconsistentMesh(why) }
        var binary: [UInt8] = []
        var views: [JSONValue] = [], accessors: [JSONValue] = []
        var attributes = JSONObject()

        func addView(_ bytes: [UInt8], target: Int?) -> Int {
            while binary.count % 4 != 0 { binary.append(0) }
            var view: JSONObject = ["buffer": 0, "byteOffset": .int(Int64(binary.count)), "byteLength": .int(Int64(bytes.count))]
            if let target { view["target"] = .int(Int64(target)) }
            binary += bytes
            views.append(.object(view))
            return views.count - 1
        }
        func addAccessor(view: Int, componentType: Int, count: Int, type: String, extra: JSONObject = JSONObject()) -> Int {
            var accessor: JSONObject = ["bufferView": .int(Int64(view)), "componentType": .int(Int64(componentType)),
                                        "count": .int(Int64(count)), "type": .string(type)]
            for (key, value) in extra { accessor[key] = value }
            accessors.append(.object(accessor))
            return accessors.count - 1
        }
        let arrayBuffer = 34962, elementArrayBuffer = 34963, float = 5126, unsignedInt = 5125

        let bounds = mesh.bounds
        let positions = addView(floats(mesh.positions.flatMap { [$0.x, $0.y, $0.z] }), target: arrayBuffer)
        attributes["POSITION"] = .int(Int64(addAccessor(view: positions, componentType: float, count: mesh.positions.count, type: "VEC3", extra: [
            "min": .array([.double(Double(bounds.minimum.x)), .double(Double(bounds.minimum.y)), .double(Double(bounds.minimum.z))]),
            "max": .array([.double(Double(bounds.maximum.x)), .double(Double(bounds.maximum.y)), .double(Double(bounds.maximum.z))]),
        ])))
        if !mesh.normals.isEmpty {
            let view = addView(floats(mesh.normals.flatMap { [$0.x, $0.y, $0.z] }), target: arrayBuffer)
            attributes["NORMAL"] = .int(Int64(addAccessor(view: view, componentType: float, count: mesh.normals.count, type: "VEC3")))
        }
        let textured = mesh.texturePNG != nil && !mesh.textureCoordinates.isEmpty
        if textured {
            let view = addView(floats(mesh.textureCoordinates.flatMap { [$0.x, 1 - $0.y] }), target: arrayBuffer)
            attributes["TEXCOORD_0"] = .int(Int64(addAccessor(view: view, componentType: float, count: mesh.textureCoordinates.count, type: "VEC2")))
        }
        let indexView = addView(uints(mesh.triangles.flatMap { [$0.x, $0.y, $0.z] }), target: elementArrayBuffer)
        let indices = addAccessor(view: indexView, componentType: unsignedInt, count: mesh.triangles.count * 3, type: "SCALAR")

        var material: JSONObject = ["name": .string(mesh.name), "doubleSided": false]
        var pbr: JSONObject = ["metallicFactor": 0, "roughnessFactor": 0.8]
        var document: JSONObject = ["asset": .object(["version": "2.0", "generator": "Atelier"])]
        if textured, let png = mesh.texturePNG {
            let imageView = addView(png, target: nil)
            pbr["baseColorTexture"] = .object(["index": 0])
            document["images"] = .array([.object(["bufferView": .int(Int64(imageView)), "mimeType": "image/png"])])
            document["samplers"] = .array([.object(["magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497])])
            document["textures"] = .array([.object(["sampler": 0, "source": 0])])
        } else {
            pbr["baseColorFactor"] = .array([0.6, 0.6, 0.6, 1])
        }
        material["pbrMetallicRoughness"] = .object(pbr)
        while binary.count % 4 != 0 { binary.append(0) }
        guard binary.count < Int(UInt32.max) - 1024 else { throw .meshTooLarge("\(binary.count) bytes of binary data (glTF's limit is 4 GiB)") }

        document["scene"] = 0
        document["scenes"] = .array([.object(["nodes": .array([0])])])
        document["nodes"] = .array([.object(["name": .string(mesh.name), "mesh": 0])])
        document["meshes"] = .array([.object(["name": .string(mesh.name), "primitives": .array([.object([
            "attributes": .object(attributes), "indices": .int(Int64(indices)), "material": 0, "mode": 4,
        ])])])])
        document["materials"] = .array([.object(material)])
        document["accessors"] = .array(accessors)
        document["bufferViews"] = .array(views)
        document["buffers"] = .array([.object(["byteLength": .int(Int64(binary.count))])])

        var json = Array(JSONWriter.string(document).utf8)
        while json.count % 4 != 0 { json.append(0x20) }
        var out: [UInt8] = []
        out.reserveCapacity(12 + 8 + json.count + 8 + binary.count)
        appendUInt32(&out, 0x4654_6C67)   // "glTF"
        appendUInt32(&out, 2)
        appendUInt32(&out, UInt32(12 + 8 + json.count + 8 + binary.count))
        appendUInt32(&out, UInt32(json.count))
        appendUInt32(&out, 0x4E4F_534A)   // "JSON"
        out += json
        appendUInt32(&out, UInt32(binary.count))
        appendUInt32(&out, 0x004E_4942)   // "BIN\0"
        out += binary
        return out
    }

    static func floats(_ values: [Float]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 4)
        for v in values { appendUInt32(&out, v.bitPattern) }
        return out
    }

    static func uints(_ values: [UInt32]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 4)
        for v in values { appendUInt32(&out, v) }
        return out
    }

    @inline(__always) static func appendUInt32(_ out: inout [UInt8], _ value: UInt32) {
        let v = value.littleEndian
        out.append(UInt8(truncatingIfNeeded: v)); out.append(UInt8(truncatingIfNeeded: v >> 8))
        out.append(UInt8(truncatingIfNeeded: v >> 16)); out.append(UInt8(truncatingIfNeeded: v >> 24))
    }
}
