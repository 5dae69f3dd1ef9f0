import AtelierFormats
import Foundation
import XCTest

/// The mesh writers, each file read back by an independent reader (trimesh, pygltflib) run in a
/// Python subprocess, and compared with the mesh that was written.
final class MeshWriterTests: XCTestCase {
    /// A 2 × 2 PNG: red, green / blue, white.
    static let png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0, 253, 212, 154, 115, 0, 0, 0, 22, 73, 68, 65, 84, 120, 156, 99, 248, 207, 192, 192, 240, 159, 129, 145, 129, 225, 255, 255, 255, 12, 0, 30, 246, 4, 253, 9, 237, 52, 62, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130]

    /// A closed tetrahedron, outward-facing, with normals and texture coordinates.
    static let mesh: TexturedMesh = {
        let positions: [SIMD3<Float>] = [[0, 0, 0], [0.5, 0, 0], [0, 0.25, 0], [0, 0, 0.125]]
        let centre = positions.reduce(.zero, +) / 4
        let normals = positions.map { p -> SIMD3<Float> in
            let d = p - centre
            return d / (d * d).sum().squareRoot()
        }
        return TexturedMesh(positions: positions, normals: normals, textureCoordinates: [[0, 0], [1, 0], [0, 1], [1, 1]],
                            triangles: [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]], texturePNG: png, name: "Tetra")
    }()

    var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "atelier-mesh-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs a Python script, skipping when python3 or its module is missing (failing under CI).
    func python(_ script: String, module: String) throws -> String {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import \(module)"]
        probe.standardError = FileHandle.nullDevice
        try probe.run()
        probe.waitUntilExit()
        if probe.terminationStatus != 0 {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("python3 module \(module) missing (scripts/install-test-deps.sh installs it)") }
            throw XCTSkip("python3 module \(module) is not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, errors)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testPLYReadsBackInTrimesh() throws {
        let path = try write(try PLYMeshWriter.write(Self.mesh, textureFileName: "tetra.png", comments: ["test"]), "tetra.ply")
        let out = try python("""
            import trimesh, numpy as np
            m = trimesh.load("\(path)", process=False)
            print(len(m.vertices), len(m.faces), m.is_watertight, round(float(m.volume), 7), m.vertices[1].tolist(), m.faces[0].tolist())
            """, module: "trimesh")
        // Volume of the tetrahedron: 0.5 × 0.25 × 0.125 / 6.
        XCTAssertEqual(out, "4 4 True \(String(format: "%.7f", 0.5 * 0.25 * 0.125 / 6)) [0.5, 0.0, 0.0] [0, 2, 1]")
    }

    func testOBJWithMaterialAndTextureReadsBackInTrimesh() throws {
        for file in try OBJMeshWriter.write(Self.mesh, baseName: "tetra") { _ = try write(file.bytes, file.name) }
        let out = try python("""
            import trimesh
            m = trimesh.load("\(directory!)/tetra.obj", process=False, maintain_order=True)
            img = m.visual.material.image
            print(len(m.vertices), len(m.faces), m.is_watertight, img.size, img.getpixel((0, 0)), [round(float(v), 3) for v in m.visual.uv[3]])
            """, module: "trimesh")
        XCTAssertEqual(out, "4 4 True (2, 2) (255, 0, 0) [1.0, 1.0]")
    }

    func testGLBReadsBackInTrimeshAndPygltflib() throws {
        let bytes = try GLBWriter.write(Self.mesh)
        XCTAssertEqual(bytes.count % 4, 0)
        let path = try write(bytes, "tetra.glb")
        let out = try python("""
            import trimesh, pygltflib
            scene = trimesh.load("\(path)")
            m = list(scene.geometry.values())[0]
            g = pygltflib.GLTF2().load("\(path)")
            p = g.meshes[0].primitives[0]
            print(len(m.vertices), len(m.faces), m.is_watertight, g.asset.version, g.accessors[p.attributes.POSITION].max,
                  g.materials[0].pbrMetallicRoughness.baseColorTexture.index, m.visual.material.baseColorTexture.size)
            """, module: "pygltflib")
        XCTAssertEqual(out, "4 4 True 2.0 [0.5, 0.25, 0.125] 0 (2, 2)")
    }

    func testInconsistentMeshIsRefused() {
        var bad = Self.mesh
        bad.triangles.append([0, 1, 9])
        XCTAssertThrowsError(try GLBWriter.write(bad)) { XCTAssertEqual($0 as? FormatError, .inconsistentMesh("triangle SIMD3<UInt32>(0, 1, 9) refers to a vertex beyond the 4")) }
        XCTAssertThrowsError(try PLYMeshWriter.write(bad))
        XCTAssertThrowsError(try OBJMeshWriter.write(bad, baseName: "x"))
        var short = Self.mesh
        short.normals.removeLast()
        XCTAssertEqual(short.inconsistency, "3 normals for 4 vertices")
    }
}
