import Foundation
import XCTest
@testable import AtelierFormats

/// USDZ packages checked by independent readers: Python's `zipfile` for the container and
/// Pixar's `usd-core` (`pxr`) for the stage and the validators `usdchecker` runs.
final class USDZWriterTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "usdz-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A 2×2 RGB PNG (red, green / blue, white), made once with Python's zlib and struct.
    static let tinyPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02,
        0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A, 0x73, 0x00, 0x00, 0x00, 0x12, 0x49, 0x44, 0x41,
        0x54, 0x78, 0xDA, 0x63, 0xF8, 0xCF, 0xC0, 0xC0, 0x00, 0xC2, 0x0C, 0xFF, 0x81, 0x00, 0x00, 0x1F, 0xEE, 0x05, 0xFB, 0xF1,
        0xAB, 0xBA, 0x77, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// A 1 m × 0.5 m quad in the XY plane facing +Z, two CCW triangles, textured.
    static func quad(name: String = "Test Quad", texture: [UInt8]? = tinyPNG) -> TexturedMesh {
        TexturedMesh(
            positions: [[0, 0, 0], [1, 0, 0], [1, 0.5, 0], [0, 0.5, 0]],
            normals: [[0, 0, 1], [0, 0, 1], [0, 0, 1], [0, 0, 1]],
            textureCoordinates: [[0, 0], [1, 0], [1, 1], [0, 1]],
            triangles: [[0, 1, 2], [0, 2, 3]],
            texturePNG: texture, name: name)
    }

    /// A unit cube centred at the origin, 8 shared vertices, 12 CCW triangles, no normals or UVs.
    static let cube = TexturedMesh(
        positions: [[-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [0.5, 0.5, -0.5], [-0.5, 0.5, -0.5],
                    [-0.5, -0.5, 0.5], [0.5, -0.5, 0.5], [0.5, 0.5, 0.5], [-0.5, 0.5, 0.5]],
        triangles: [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4],
                    [3, 6, 2], [3, 7, 6], [0, 4, 7], [0, 7, 3], [1, 2, 6], [1, 6, 5]],
        name: "1cube")

    func write(_ mesh: TexturedMesh) throws -> String {
        let path = dir + "/mesh.usdz"
        try Data(try USDZWriter.usdz(for: mesh)).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    // MARK: Container

    func testTexturedQuadIsStoredAlignedZipWithLayerFirst() throws {
        try requirePython(module: "zipfile")
        let path = try write(Self.quad())
        let output = try python(Self.zipCheck, path)
        XCTAssertEqual(output, "Test_Quad.usda,0/texture.png\n")
    }

    func testUntexturedCubeIsStoredAlignedZipWithLayerOnly() throws {
        try requirePython(module: "zipfile")
        let output = try python(Self.zipCheck, try write(Self.cube))
        XCTAssertEqual(output, "_1cube.usda\n")
    }

    // MARK: Stage and validators

    func testTexturedQuadOpensInUSDAndPassesValidators() throws {
        try requirePython(module: "pxr")
        let output = try python(Self.stageCheck, try write(Self.quad()), "/Test_Quad/Mesh")
        XCTAssertEqual(output, """
            points 4
            faces 2
            indices 6
            upAxis Y
            metersPerUnit 1.0
            material /Test_Quad/Materials/Material
            surface UsdPreviewSurface 0.8 0.0
            texture UsdUVTexture 0/texture.png repeat repeat
            st UsdPrimvarReader_float2 st

            """)
    }

    func testUntexturedCubeOpensInUSDAndPassesValidators() throws {
        try requirePython(module: "pxr")
        let output = try python(Self.stageCheck, try write(Self.cube), "/_1cube/Mesh")
        XCTAssertEqual(output, """
            points 8
            faces 12
            indices 36
            upAxis Y
            metersPerUnit 1.0
            material /_1cube/Materials/Material
            surface UsdPreviewSurface 0.8 0.0
            diffuseColor (0.5, 0.5, 0.5)

            """)
    }

    // MARK: Failures and details

    func testIndexOutOfRangeThrowsInconsistentMesh() {
        var mesh = Self.quad()
        mesh.triangles.append([0, 3, 4])
        XCTAssertThrowsError(try USDZWriter.usdz(for: mesh)) { error in
            guard case FormatError.inconsistentMesh(let why)? = error as? FormatError else { return XCTFail("\(error)") }
            XCTAssertTrue(why.contains("beyond"), why)
        }
        XCTAssertThrowsError(try USDAWriter.usda(for: mesh))
    }

    func testOutputIsDeterministic() throws {
        XCTAssertEqual(try USDZWriter.usdz(for: Self.quad()), try USDZWriter.usdz(for: Self.quad()))
    }

    /// The extra field needs 4 bytes for its ID and size, so gaps of 1–3 bytes take 64 more.
    func testGapsOfOneToThreeBytesAreStillAligned() throws {
        try requirePython(module: "zipfile")
        // Each 64-byte member leaves the next header 64-aligned; names of 31–34 bytes leave gaps of 3, 2, 1, 0.
        let names = (31...34).map { String(repeating: "x", count: $0 - 4) + ".png" }
        let zip = try USDZWriter.storedZip(names.map { ($0, [UInt8](repeating: 7, count: 64)) })
        let path = dir + "/gaps.zip"
        try Data(zip).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try python(Self.zipCheck, path), names.joined(separator: ",") + "\n")
    }

    func testPrimNamesAreValidIdentifiers() {
        XCTAssertEqual(USDAWriter.primName("Blue Shirt #2"), "Blue_Shirt__2")
        XCTAssertEqual(USDAWriter.primName("2shirts"), "_2shirts")
        XCTAssertEqual(USDAWriter.primName("Chemise_\u{E9}t\u{E9}"), "Chemise__t_")
        XCTAssertEqual(USDAWriter.primName(""), "Garment")
    }

    func testCRC32OfCheckString() {
        XCTAssertEqual(ZipCRC32.checksum(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(ZipCRC32.checksum([]), 0)
    }

    // MARK: Python

    /// Prints the member names in order; fails unless all are stored, CRCs match and every
    /// member's data starts on a 64-byte boundary.
    static let zipCheck = """
        import struct, sys, zipfile
        path = sys.argv[1]
        z = zipfile.ZipFile(path)
        raw = open(path, 'rb').read()
        for i in z.infolist():
            assert i.compress_type == zipfile.ZIP_STORED, (i.filename, i.compress_type)
            assert raw[i.header_offset:i.header_offset + 4] == b'PK\\x03\\x04', i.filename
            name_length, extra_length = struct.unpack('<HH', raw[i.header_offset + 26:i.header_offset + 30])
            data_offset = i.header_offset + 30 + name_length + extra_length
            assert data_offset % 64 == 0, (i.filename, data_offset)
            assert raw[data_offset:data_offset + i.file_size] == z.read(i), i.filename
        assert z.testzip() is None, z.testzip()
        print(','.join(z.namelist()))
        """

    /// Prints the mesh's counts, the stage metadata, the bound material and texture, and every
    /// validator finding (of any severity) on stderr, exiting 1 if there is any.
    static let stageCheck = """
        import sys
        from pxr import Usd, UsdGeom, UsdShade, UsdValidation
        stage = Usd.Stage.Open(sys.argv[1])
        mesh = UsdGeom.Mesh(stage.GetPrimAtPath(sys.argv[2]))
        assert mesh, 'no mesh at ' + sys.argv[2]
        print('points', len(mesh.GetPointsAttr().Get()))
        print('faces', len(mesh.GetFaceVertexCountsAttr().Get()))
        print('indices', len(mesh.GetFaceVertexIndicesAttr().Get()))
        print('upAxis', UsdGeom.GetStageUpAxis(stage))
        print('metersPerUnit', UsdGeom.GetStageMetersPerUnit(stage))
        material, _ = UsdShade.MaterialBindingAPI(mesh.GetPrim()).ComputeBoundMaterial()
        print('material', material.GetPath())
        surface = material.ComputeSurfaceSource()[0]
        print('surface', surface.GetIdAttr().Get(), round(surface.GetInput('roughness').Get(), 6), surface.GetInput('metallic').Get())
        diffuse = surface.GetInput('diffuseColor')
        if diffuse.HasConnectedSource():
            texture = UsdShade.Shader(diffuse.GetConnectedSource()[0])
            reader = UsdShade.Shader(texture.GetInput('st').GetConnectedSource()[0])
            print('texture', texture.GetIdAttr().Get(), texture.GetInput('file').Get().path,
                  texture.GetInput('wrapS').Get(), texture.GetInput('wrapT').Get())
            print('st', reader.GetIdAttr().Get(), reader.GetInput('varname').Get())
        else:
            print('diffuseColor', diffuse.Get())
        context = UsdValidation.ValidationContext(UsdValidation.ValidationRegistry().GetOrLoadAllValidators())
        findings = context.Validate(stage)
        for f in findings:
            print('validator', f.GetIdentifier(), f.GetType(), f.GetMessage(), file=sys.stderr)
        sys.exit(1 if findings else 0)
        """

    /// Skips when python3 or `module` is missing, unless CI is "true" (then it fails).
    func requirePython(module: String) throws {
        let (status, output) = try run(["python3", "-c", "import \(module)"])
        guard status != 0 else { return }
        let message = "python3 with \(module) is not available: \(output)"
        if ProcessInfo.processInfo.environment["CI"] == "true" { throw PythonMissing(description: message) }
        throw XCTSkip(message)
    }

    struct PythonMissing: Error, CustomStringConvertible { let description: String }

    /// Runs `script` with `arguments`; returns stdout, failing with stderr on a non-zero exit.
    func python(_ script: String, _ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let (status, output) = try run(["python3", "-c", script] + arguments, separateStderr: true)
        XCTAssertEqual(status, 0, "python3 failed:\n\(output.stderr)", file: file, line: line)
        return output.stdout
    }

    func run(_ arguments: [String]) throws -> (Int32, String) {
        let (status, output) = try run(arguments, separateStderr: false)
        return (status, output.stdout + output.stderr)
    }

    func run(_ arguments: [String], separateStderr: Bool) throws -> (Int32, (stdout: String, stderr: String)) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = dir + "/stdout-\(UUID().uuidString)", err = dir + "/stderr-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (process.terminationStatus, (read(out), read(err)))
    }
}
