/// Reads a triangle mesh from binary little-endian PLY: what `PLYMeshWriter` writes, and the common
/// variants other tools write (MeshLab, Open3D, trimesh, Blender): vertex `x y z` with optional
/// `nx ny nz` and texture coordinates (`s t`, `u v` or `texture_u texture_v`), other vertex
/// properties skipped; faces as a list of 3 indices; the texture named by `comment TextureFile`.
///
/// Untrusted bytes: the header is limited to 64 KiB, counts are checked against the file's size
/// before anything is allocated, every index is checked, and a polygon other than a triangle is
/// refused rather than guessed at.
public enum PLYMeshReader {
    /// The mesh (without texture bytes) and the texture file name its header gives, if any.
    public static func read(_ bytes: [UInt8]) throws(FormatError) -> (mesh: TexturedMesh, textureFile: String?) {
        guard let end = headerEnd(bytes) else { throw .malformedMesh("no PLY header (\"ply\" … \"end_header\" within 64 KiB)") }
        let header = String(decoding: bytes[..<end], as: UTF8.self)
        let lines = header.split(whereSeparator: \.isNewline).map { $0.split(separator: " ").map(String.init) }
        guard lines.first == ["ply"] else { throw .malformedMesh("does not start with \"ply\"") }
        guard lines.contains(["format", "binary_little_endian", "1.0"]) else { throw .malformedMesh("only binary_little_endian 1.0 PLY is read") }
        var textureFile: String?
        var elements: [(name: String, count: Int, properties: [Property])] = []
        for words in lines.dropFirst() {
            switch words.first {
            case "comment":
                if words.count >= 3, words[1] == "TextureFile" { textureFile = words[2...].joined(separator: " ") }
            case "element":
                guard words.count == 3, let count = Int(words[2]), count >= 0 else { throw .malformedMesh("bad element line: \(words.joined(separator: " "))") }
                elements.append((words[1], count, []))
            case "property":
                guard !elements.isEmpty else { throw .malformedMesh("property before any element") }
                if words.count == 5, words[1] == "list", let countType = Scalar(words[2]), let itemType = Scalar(words[3]) {
                    elements[elements.count - 1].properties.append(Property(name: words[4], type: itemType, listCount: countType))
                } else if words.count == 3, let type = Scalar(words[1]) {
                    elements[elements.count - 1].properties.append(Property(name: words[2], type: type, listCount: nil))
                } else {
                    throw .malformedMesh("bad property line: \(words.joined(separator: " "))")
                }
            default: continue
            }
        }
        var cursor = Cursor(bytes: bytes, offset: end)
        var mesh = TexturedMesh(positions: [], triangles: [])
        for element in elements {
            // Every record takes at least a byte per property: refuse counts the file cannot hold.
            guard element.count <= (bytes.count - cursor.offset) / max(1, element.properties.count) else {
                throw .malformedMesh("\(element.count) \(element.name) elements do not fit in the file")
            }
            switch element.name {
            case "vertex": try readVertices(element.count, element.properties, &cursor, into: &mesh)
            case "face": try readFaces(element.count, element.properties, &cursor, into: &mesh)
            default: for _ in 0 ..< element.count { for p in element.properties { _ = try cursor.skip(p) } }
            }
        }
        if let why = mesh.inconsistency { throw .malformedMesh(why) }
        return (mesh, textureFile)
    }

    enum Scalar {
        case int8, uint8, int16, uint16, int32, uint32, float32, float64

        init?(_ name: String) {
            switch name {
            case "char", "int8": self = .int8
            case "uchar", "uint8": self = .uint8
            case "short", "int16": self = .int16
            case "ushort", "uint16": self = .uint16
            case "int", "int32": self = .int32
            case "uint", "uint32": self = .uint32
            case "float", "float32": self = .float32
            case "double", "float64": self = .float64
            default: return nil
            }
        }

        var size: Int {
            switch self {
            case .int8, .uint8: return 1
            case .int16, .uint16: return 2
            case .int32, .uint32, .float32: return 4
            case .float64: return 8
            }
        }
    }

    struct Property {
        var name: String
        var type: Scalar
        var listCount: Scalar?
    }

    struct Cursor {
        let bytes: [UInt8]
        var offset: Int

        mutating func raw(_ size: Int) throws(FormatError) -> UInt64 {
            guard offset + size <= bytes.count else { throw .malformedMesh("the file ends early, at byte \(bytes.count)") }
            var value: UInt64 = 0
            for i in 0 ..< size { value |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
            offset += size
            return value
        }

        mutating func number(_ type: Scalar) throws(FormatError) -> Double {
            let bits = try raw(type.size)
            switch type {
            case .int8: return Double(Int8(truncatingIfNeeded: bits))
            case .uint8: return Double(UInt8(truncatingIfNeeded: bits))
            case .int16: return Double(Int16(truncatingIfNeeded: bits))
            case .uint16: return Double(UInt16(truncatingIfNeeded: bits))
            case .int32: return Double(Int32(truncatingIfNeeded: bits))
            case .uint32: return Double(UInt32(truncatingIfNeeded: bits))
            case .float32: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
            case .float64: return Double(bitPattern: bits)
            }
        }

        mutating func skip(_ property: Property) throws(FormatError) -> Int {
            guard let countType = property.listCount else { _ = try raw(property.type.size); return 1 }
            let count = try number(countType)
            guard count >= 0, count <= 1_000 else { throw .malformedMesh("a list of \(count) items") }
            for _ in 0 ..< Int(count) { _ = try raw(property.type.size) }
            return Int(count)
        }
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        let marker = Array("end_header".utf8)
        let limit = min(bytes.count, 65536)
        guard limit >= marker.count else { return nil }
        for i in 0 ... (limit - marker.count) where bytes[i] == marker[0] && Array(bytes[i ..< i + marker.count]) == marker {
            var end = i + marker.count
            if end < bytes.count && bytes[end] == 0x0D { end += 1 }
            guard end < bytes.count, bytes[end] == 0x0A else { return nil }
            return end + 1
        }
        return nil
    }

    private static func readVertices(_ count: Int, _ properties: [Property], _ cursor: inout Cursor, into mesh: inout TexturedMesh) throws(FormatError) {
        let names = properties.map(\.name)
        guard names.contains("x"), names.contains("y"), names.contains("z") else { throw .malformedMesh("vertices have no x, y, z") }
        let hasNormals = names.contains("nx") && names.contains("ny") && names.contains("nz")
        let uvNames = [("s", "t"), ("u", "v"), ("texture_u", "texture_v")].first { names.contains($0.0) && names.contains($0.1) }
        func slot(_ name: String) -> Int { names.firstIndex(of: name)! }
        let (x, y, z) = (slot("x"), slot("y"), slot("z"))
        let normal = hasNormals ? (slot("nx"), slot("ny"), slot("nz")) : nil
        let uv = uvNames.map { (slot($0.0), slot($0.1)) }
        var values = [Double](repeating: 0, count: properties.count)
        mesh.positions.reserveCapacity(count)
        for _ in 0 ..< count {
            for (k, property) in properties.enumerated() {
                if property.listCount != nil { _ = try cursor.skip(property) } else { values[k] = try cursor.number(property.type) }
            }
            mesh.positions.append(SIMD3(Float(values[x]), Float(values[y]), Float(values[z])))
            if let (a, b, c) = normal { mesh.normals.append(SIMD3(Float(values[a]), Float(values[b]), Float(values[c]))) }
            if let (u, v) = uv { mesh.textureCoordinates.append(SIMD2(Float(values[u]), Float(values[v]))) }
        }
    }

    private static func readFaces(_ count: Int, _ properties: [Property], _ cursor: inout Cursor, into mesh: inout TexturedMesh) throws(FormatError) {
        guard let index = properties.firstIndex(where: { ($0.name == "vertex_indices" || $0.name == "vertex_index") && $0.listCount != nil }) else {
            throw .malformedMesh("faces have no vertex_indices list")
        }
        let vertexCount = Double(mesh.positions.count)
        mesh.triangles.reserveCapacity(count)
        for face in 0 ..< count {
            for (k, property) in properties.enumerated() {
                guard k == index, let countType = property.listCount else { _ = try cursor.skip(property); continue }
                let n = try cursor.number(countType)
                guard n == 3 else { throw .malformedMesh("face \(face) has \(n) corners; only triangles are read") }
                var corners = SIMD3<UInt32>()
                for c in 0 ..< 3 {
                    let v = try cursor.number(property.type)
                    guard v >= 0, v < vertexCount, v == v.rounded() else { throw .malformedMesh("face \(face) refers to vertex \(v) of \(Int(vertexCount))") }
                    corners[c] = UInt32(v)
                }
                mesh.triangles.append(corners)
            }
        }
    }
}
