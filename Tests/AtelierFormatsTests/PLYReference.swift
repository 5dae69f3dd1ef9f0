import AtelierFormats
import Foundation

/// A second reading of binary little-endian PLY, the fuzz test's oracle, written from the PLY
/// specification and the rules `PLYMeshReader` states (which properties make a vertex, a
/// texture coordinate, a face; triangles only; indices in range; finite positions; counts the
/// file can hold; lists of at most 1000 items), not from its code: values are loaded with
/// `loadUnaligned` rather than assembled byte by byte, and each record is read whole before
/// its properties are looked up by name. Returns the mesh and the texture name, or nil for a
/// file the rules refuse.
enum PLYReference {
    private static let sizes = ["char": 1, "int8": 1, "uchar": 1, "uint8": 1, "short": 2, "int16": 2, "ushort": 2, "uint16": 2,
                                "int": 4, "int32": 4, "uint": 4, "uint32": 4, "float": 4, "float32": 4, "double": 8, "float64": 8]

    private struct Declared {
        var name: String
        var type: String
        var countType: String?
    }

    static func read(_ bytes: [UInt8]) -> (mesh: TexturedMesh, textureFile: String?)? {
        // The header: everything up to the first "end_header" and its line break, within 64 KiB.
        let marker = Array("end_header".utf8)
        guard let at = (0 ..< max(0, min(bytes.count, 65536) - marker.count + 1)).first(where: { bytes[$0 ..< $0 + marker.count].elementsEqual(marker) })
        else { return nil }
        var bodyStart = at + marker.count
        if bodyStart < bytes.count && bytes[bodyStart] == 13 { bodyStart += 1 }
        guard bodyStart < bytes.count, bytes[bodyStart] == 10 else { return nil }
        bodyStart += 1
        let lines = String(decoding: bytes[..<at], as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.split(separator: " ").map(String.init) }
        guard lines.first == ["ply"], lines.contains(["format", "binary_little_endian", "1.0"]) else { return nil }
        var texture: String?
        var elements: [(name: String, count: Int, properties: [Declared])] = []
        for words in lines.dropFirst() {
            if words.first == "comment", words.count >= 3, words[1] == "TextureFile" { texture = words[2...].joined(separator: " ") }
            if words.first == "element" {
                guard words.count == 3, let count = Int(words[2]), count >= 0 else { return nil }
                elements.append((words[1], count, []))
            }
            if words.first == "property" {
                guard !elements.isEmpty else { return nil }
                if words.count == 5, words[1] == "list", sizes[words[2]] != nil, sizes[words[3]] != nil {
                    elements[elements.count - 1].properties.append(Declared(name: words[4], type: words[3], countType: words[2]))
                } else if words.count == 3, sizes[words[1]] != nil {
                    elements[elements.count - 1].properties.append(Declared(name: words[2], type: words[1]))
                } else {
                    return nil
                }
            }
        }
        // The body, value by value.
        var offset = bodyStart
        func value(_ type: String) -> Double? {
            let size = sizes[type]!
            guard offset + size <= bytes.count else { return nil }
            defer { offset += size }
            return bytes.withUnsafeBytes { raw -> Double in
                switch type {
                case "char", "int8": return Double(raw.loadUnaligned(fromByteOffset: offset, as: Int8.self))
                case "uchar", "uint8": return Double(raw.loadUnaligned(fromByteOffset: offset, as: UInt8.self))
                case "short", "int16": return Double(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
                case "ushort", "uint16": return Double(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
                case "int", "int32": return Double(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
                case "uint", "uint32": return Double(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                case "float", "float32": return Double(Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))))
                default: return Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                }
            }
        }
        /// A property's values: one, or a list's items (a list of more than 1000 is refused).
        func values(_ property: Declared) -> [Double]? {
            guard let countType = property.countType else { return value(property.type).map { [$0] } }
            guard let n = value(countType), n >= 0, n <= 1000 else { return nil }
            var items: [Double] = []
            for _ in 0 ..< Int(n) {
                guard let item = value(property.type) else { return nil }
                items.append(item)
            }
            return items
        }
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = [], triangles: [SIMD3<UInt32>] = []
        for element in elements {
            // Each record takes at least a byte per property, so a count the rest of the file
            // cannot hold is refused before reading.
            guard element.count <= (bytes.count - offset) / max(1, element.properties.count) else { return nil }
            var records: [[String: [Double]]] = []
            for _ in 0 ..< element.count {
                var record: [String: [Double]] = [:]
                for property in element.properties {
                    guard let v = values(property) else { return nil }
                    if record[property.name] == nil { record[property.name] = v }  // the first of a name counts
                }
                records.append(record)
            }
            let names = Set(element.properties.map(\.name))
            if element.name == "vertex" {
                guard names.isSuperset(of: ["x", "y", "z"]) else { return nil }
                let uv = [("s", "t"), ("u", "v"), ("texture_u", "texture_v")].first { names.contains($0.0) && names.contains($0.1) }
                for r in records {
                    func f(_ name: String) -> Float { Float(r[name]![0]) }
                    positions.append(SIMD3(f("x"), f("y"), f("z")))
                    if names.isSuperset(of: ["nx", "ny", "nz"]) { normals.append(SIMD3(f("nx"), f("ny"), f("nz"))) }
                    if let uv { uvs.append(SIMD2(f(uv.0), f(uv.1))) }
                }
            } else if element.name == "face" {
                guard let list = element.properties.first(where: { ["vertex_indices", "vertex_index"].contains($0.name) && $0.countType != nil }) else { return nil }
                for r in records {
                    let corners = r[list.name]!
                    guard corners.count == 3, corners.allSatisfy({ $0 >= 0 && $0 < Double(positions.count) && $0 == $0.rounded() }) else { return nil }
                    triangles.append(SIMD3(UInt32(corners[0]), UInt32(corners[1]), UInt32(corners[2])))
                }
            }
        }
        guard positions.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        return (TexturedMesh(positions: positions, normals: normals, textureCoordinates: uvs, triangles: triangles), texture)
    }

    /// Equal bit for bit, except that any NaN equals any NaN (a NaN's payload need not survive
    /// the reader's trip through Double).
    static func same(_ a: [Float], _ b: [Float]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern || ($0.isNaN && $1.isNaN) }
    }
}
