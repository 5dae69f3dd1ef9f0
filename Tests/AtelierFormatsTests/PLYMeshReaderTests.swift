import AtelierFormats
import AtelierRecords
import XCTest

/// `PLYMeshReader` reads back what `PLYMeshWriter` writes, bit for bit, and refuses damaged or
/// hostile files with an error rather than a crash or a huge allocation.
final class PLYMeshReaderTests: XCTestCase {
    func sampleMesh() -> TexturedMesh {
        TexturedMesh(positions: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)],
                     normals: [SIMD3(0, 0, -1), SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)],
                     textureCoordinates: [SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 1), SIMD2(0.25, 0.75)],
                     triangles: [SIMD3(0, 2, 1), SIMD3(0, 1, 3), SIMD3(0, 3, 2), SIMD3(1, 2, 3)], texturePNG: [1, 2, 3])
    }

    func testRoundTrip() throws {
        let mesh = sampleMesh()
        let bytes = try PLYMeshWriter.write(mesh, textureFileName: "texture.png", comments: ["a comment"])
        let (read, texture) = try PLYMeshReader.read(bytes)
        XCTAssertEqual(texture, "texture.png")
        XCTAssertEqual(read.positions, mesh.positions)
        XCTAssertEqual(read.normals, mesh.normals)
        XCTAssertEqual(read.textureCoordinates, mesh.textureCoordinates)
        XCTAssertEqual(read.triangles, mesh.triangles)
    }

    func testOtherToolsLayout() throws {
        // Doubles, an extra property, int counts, u/v names and a CRLF header, as other writers do.
        var bytes = Array("ply\r\nformat binary_little_endian 1.0\r\nelement vertex 3\r\nproperty double x\r\nproperty double y\r\nproperty double z\r\nproperty uchar quality\r\nproperty float u\r\nproperty float v\r\nelement face 1\r\nproperty list int int vertex_index\r\nend_header\r\n".utf8)
        func append<T>(_ value: T) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
        for (p, uv) in [(SIMD3<Double>(0, 0, 0), SIMD2<Float>(0, 0)), (SIMD3(2, 0, 0), SIMD2(1, 0)), (SIMD3(0, 2, 0), SIMD2(0, 1))] {
            append(p.x); append(p.y); append(p.z); bytes.append(7); append(uv.x); append(uv.y)
        }
        append(Int32(3)); append(Int32(0)); append(Int32(1)); append(Int32(2))
        let (mesh, texture) = try PLYMeshReader.read(bytes)
        XCTAssertNil(texture)
        XCTAssertEqual(mesh.positions, [SIMD3(0, 0, 0), SIMD3(2, 0, 0), SIMD3(0, 2, 0)])
        XCTAssertEqual(mesh.textureCoordinates, [SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 1)])
        XCTAssertEqual(mesh.triangles, [SIMD3(0, 1, 2)])
    }

    func testRefusesDamagedFiles() throws {
        let bytes = try PLYMeshWriter.write(sampleMesh(), textureFileName: "texture.png")
        // Every truncation is an error, never a crash.
        for length in stride(from: 0, to: bytes.count, by: 3) {
            XCTAssertThrowsError(try PLYMeshReader.read(Array(bytes[..<length])), "cut at \(length)")
        }
        // Hostile headers: counts the file cannot hold, out-of-range indices, polygons, ASCII.
        let hostile = [
            "ply\nformat binary_little_endian 1.0\nelement vertex 4000000000\nproperty float x\nproperty float y\nproperty float z\nend_header\n",
            "ply\nformat ascii 1.0\nelement vertex 0\nend_header\n",
            "plx\nend_header\n",
            "ply\nformat binary_little_endian 1.0\nproperty float x\nend_header\n",
        ]
        for header in hostile { XCTAssertThrowsError(try PLYMeshReader.read(Array(header.utf8)), header) }
        var outOfRange = Array("ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n".utf8)
        outOfRange += [UInt8](repeating: 0, count: 12) + [3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertThrowsError(try PLYMeshReader.read(outOfRange)) { error in
            XCTAssertTrue("\(error)".contains("refers to vertex 5"), "\(error)")
        }
        var quad = Array("ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n".utf8)
        quad += [4] + [UInt8](repeating: 0, count: 16)
        XCTAssertThrowsError(try PLYMeshReader.read(quad))
        // Random damage to the body and header: never a crash, and the reader agrees with an
        // independent reading (PLYReference) on every file: the same refusal, or the same mesh
        // bit for bit. Both outcomes must occur, in the header and in the body.
        var random = SplitMix64(seed: 0x1234_5678)
        let headerLength = bytes.count - 4 * 8 * 4 - 4 * 13
        var outcomes: [String: Int] = [:]
        for n in 0 ..< 2000 {
            var damaged = bytes
            for _ in 0 ... random.below(4) {
                damaged[random.below(damaged.count)] = UInt8(truncatingIfNeeded: random.next())
            }
            let place = damaged[..<headerLength] == bytes[..<headerLength] ? "body" : "header"
            let reference = PLYReference.read(damaged)
            do {
                let (mesh, texture) = try PLYMeshReader.read(damaged)
                guard let reference else { XCTFail("case \(n): \(place) damage read, but the reference refuses it"); continue }
                XCTAssertTrue(PLYReference.same(mesh.positions.flatMap { [$0.x, $0.y, $0.z] }, reference.mesh.positions.flatMap { [$0.x, $0.y, $0.z] }), "case \(n): positions")
                XCTAssertTrue(PLYReference.same(mesh.normals.flatMap { [$0.x, $0.y, $0.z] }, reference.mesh.normals.flatMap { [$0.x, $0.y, $0.z] }), "case \(n): normals")
                XCTAssertTrue(PLYReference.same(mesh.textureCoordinates.flatMap { [$0.x, $0.y] }, reference.mesh.textureCoordinates.flatMap { [$0.x, $0.y] }), "case \(n): texture coordinates")
                XCTAssertEqual(mesh.triangles, reference.mesh.triangles, "case \(n)")
                XCTAssertEqual(texture, reference.textureFile, "case \(n)")
                outcomes[place + " read", default: 0] += 1
            } catch {
                guard case .malformedMesh(let why) = error, !why.isEmpty else { XCTFail("case \(n): \(error)"); continue }
                XCTAssertTrue(reference == nil, "case \(n): \(place) damage refused (\(why)), but the reference reads it")
                outcomes[place + " refused", default: 0] += 1
            }
        }
        XCTAssertEqual(outcomes.values.reduce(0, +), 2000, "every case checked")
        for outcome in ["header read", "header refused", "body read", "body refused"] {
            XCTAssertGreaterThan(outcomes[outcome] ?? 0, 5, "\(outcome): \(outcomes)")
        }
    }
}
