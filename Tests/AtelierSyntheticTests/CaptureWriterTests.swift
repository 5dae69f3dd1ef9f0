import AtelierGeometry
import AtelierImaging
import AtelierSynthetic
import XCTest

/// A whole capture on disk: pictures, EXIF, the COLMAP model, scene.json and the mesh agree with
/// each other and with the capture that was rendered.
final class CaptureWriterTests: XCTestCase {
    static let capture = try! SyntheticCapture(spec: Small.spec())
    static let written: (directory: String, summary: CaptureWriter.Summary) = {
        let directory = temporaryDirectory("capture")
        return (directory, try! CaptureWriter.write(capture, to: directory))
    }()

    static func read(_ path: String) throws -> [UInt8] {
        Array(try XCTUnwrap(FileManager.default.contents(atPath: path), "missing \(path)"))
    }

    static func scene() throws -> SceneDescription {
        try JSONDecoder().decode(SceneDescription.self, from: Data(try read(written.directory + "/truth/scene.json")))
    }

    func testWritesEveryImageAtTheStatedSizeWithItsEXIF() throws {
        let (directory, summary) = Self.written
        XCTAssertEqual(summary.images, 4)
        XCTAssertEqual(summary.directory, URL(fileURLWithPath: directory).standardizedFileURL.path)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        XCTAssertEqual(names, ["img_0001.jpg", "img_0002.jpg", "img_0003.jpg", "img_0004.jpg", "truth"])
        for name in names.dropLast() {
            let bytes = try Self.read(directory + "/" + name)
            let decoded = try bytes.withUnsafeBytes { try ImageDecoder.decode($0) }
            XCTAssertEqual(decoded.image.width, 192)
            XCTAssertEqual(decoded.image.height, 144)
            XCTAssertEqual(decoded.exif?.focalLength35mmMillimetres, 35)
            XCTAssertEqual(decoded.exif?.pixelWidth, 192)
            XCTAssertEqual(decoded.exif?.pixelHeight, 144)
        }
        let truth = try FileManager.default.contentsOfDirectory(atPath: directory + "/truth").sorted()
        XCTAssertEqual(truth, ["cameras.txt", "images.txt", "mesh.ply", "points3D.txt", "scene.json"])
    }

    func testTheJPEGsShowTheRenderedPictures() throws {
        let bytes = try Self.read(Self.written.directory + "/img_0002.jpg")
        let decoded = try bytes.withUnsafeBytes { try JPEG.decode($0) }
        let rendered = Self.capture.render(1)
        var sum = 0.0
        for i in rendered.pixels.indices { sum += abs(Double(rendered.pixels[i]) - Double(decoded.pixels[i])) }
        XCTAssertLessThan(sum / Double(rendered.pixels.count), 4, "JPEG at quality 92 should stay close to the render")
    }

    func testTheCOLMAPModelAgreesWithSceneJSON() throws {
        let scene = try Self.scene()
        let directory = Self.written.directory
        // cameras.txt: one PINHOLE camera.
        let cameraLines = String(decoding: try Self.read(directory + "/truth/cameras.txt"), as: UTF8.self)
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(cameraLines.count, 1)
        let camera = cameraLines[0].split(separator: " ").map(String.init)
        XCTAssertEqual(Array(camera[0 ..< 4]), ["1", "PINHOLE", "192", "144"])
        XCTAssertEqual(camera[4 ..< 8].map { Double($0)! }, [scene.camera.fx, scene.camera.fy, scene.camera.cx, scene.camera.cy])
        XCTAssertEqual(scene.camera.cx, 96)
        XCTAssertEqual(scene.camera.cy, 72)
        let fullFrameDiagonal: Double = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()
        XCTAssertEqual(scene.camera.fx, 35.0 * 240.0 / fullFrameDiagonal, accuracy: 1e-9)

        // images.txt: two lines per image, the second empty.
        let lines = String(decoding: try Self.read(directory + "/truth/images.txt"), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let data = lines.drop { $0.hasPrefix("#") }.map { $0 }
        XCTAssertEqual(data.count, 2 * 4 + 1, "two lines per image and the final newline")
        XCTAssertEqual(scene.images.count, 4)
        for (index, view) in scene.images.enumerated() {
            let fields = data[2 * index].split(separator: " ").map(String.init)
            XCTAssertEqual(data[2 * index + 1], "")
            XCTAssertEqual(fields.count, 10)
            XCTAssertEqual(Int(fields[0]), view.id)
            XCTAssertEqual(fields[1 ..< 5].map { Double($0)! }, view.qvec, "exact: written with round-trip precision")
            XCTAssertEqual(fields[5 ..< 8].map { Double($0)! }, view.tvec)
            XCTAssertEqual(fields[8], "1")
            XCTAssertEqual(fields[9], view.name)
            // The centre is −Rᵀt, the camera looks at the object centre, and sits on its ring.
            let r = Check.rotation(view.qvec), t = SIMD3(view.tvec[0], view.tvec[1], view.tvec[2])
            let centre = -Check.applyTransposed(r, t)
            XCTAssertEqual(Check.length(centre - SIMD3(view.centre[0], view.centre[1], view.centre[2])), 0, accuracy: 1e-12)
            let object = SIMD3(scene.objectCentre[0], scene.objectCentre[1], scene.objectCentre[2])
            let ring = scene.rings[view.ring]
            XCTAssertEqual(Check.length(centre - object), ring.radiusMetres, accuracy: ring.radiusMetres * scene.jitter.radiusFraction + 1e-9)
            let (pixel, depth) = Check.project(object, q: view.qvec, t: t, fx: scene.camera.fx, fy: scene.camera.fy,
                                               cx: scene.camera.cx, cy: scene.camera.cy)
            XCTAssertGreaterThan(depth, 0)
            XCTAssertEqual(pixel.x, 96, accuracy: 10)
            XCTAssertEqual(pixel.y, 72, accuracy: 10)
        }
        XCTAssertEqual(scene.preset, "small-12")
        XCTAssertEqual(scene.seed, 5)
        XCTAssertEqual(scene.upAxis, "+Y")
        XCTAssertEqual(scene.rings.map(\.views), [4])
    }

    func testTheMeshFileIsTheRenderedSurface() throws {
        let bytes = try Self.read(Self.written.directory + "/truth/mesh.ply")
        let marker = Array("end_header\n".utf8)
        let headerEnd = try XCTUnwrap((0 ... bytes.count - marker.count).first { Array(bytes[$0 ..< $0 + marker.count]) == marker }) + marker.count
        let header = String(decoding: bytes[..<headerEnd], as: UTF8.self)
        let mesh = Self.capture.scene.mesh
        XCTAssertTrue(header.hasPrefix("ply\nformat binary_little_endian 1.0\n"))
        XCTAssertTrue(header.contains("element vertex \(mesh.positions.count)\n"))
        XCTAssertTrue(header.contains("element face \(mesh.triangles.count)\n"))
        XCTAssertEqual(try Self.scene().mesh.vertices, mesh.positions.count)
        XCTAssertEqual(bytes.count, headerEnd + 32 * mesh.positions.count + 13 * mesh.triangles.count)
        func float(_ at: Int) -> Float {
            Float(bitPattern: UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24)
        }
        for v in stride(from: 0, to: mesh.positions.count, by: 97) {
            let at = headerEnd + 32 * v
            XCTAssertEqual(SIMD3(float(at), float(at + 4), float(at + 8)), mesh.positions[v])
            XCTAssertEqual(SIMD2(float(at + 24), float(at + 28)), mesh.uvs[v])
        }
        let faces = headerEnd + 32 * mesh.positions.count
        for f in stride(from: 0, to: mesh.triangles.count, by: 101) {
            let at = faces + 13 * f
            XCTAssertEqual(bytes[at], 3)
            let a = UInt32(bytes[at + 1]) | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3]) << 16 | UInt32(bytes[at + 4]) << 24
            XCTAssertEqual(a, mesh.triangles[f].x)
        }
    }

    func testTheSameSpecWritesTheSameBytes() throws {
        let again = temporaryDirectory("again")
        defer { try? FileManager.default.removeItem(atPath: again) }
        _ = try CaptureWriter.write(try SyntheticCapture(spec: Small.spec()), to: again)
        for name in ["img_0001.jpg", "img_0004.jpg", "truth/images.txt", "truth/cameras.txt", "truth/mesh.ply", "truth/scene.json"] {
            XCTAssertEqual(try Self.read(Self.written.directory + "/" + name), try Self.read(again + "/" + name), name)
        }
    }

    func testAnotherSeedMakesAnotherCapture() throws {
        let other = try SyntheticCapture(spec: Small.spec(seed: 6))
        XCTAssertNotEqual(other.render(0), Self.capture.render(0))
        XCTAssertNotEqual(other.cameras[0].pose, Self.capture.cameras[0].pose)
    }

    func testRefusesAnOccupiedDirectoryUnlessToldToOverwrite() throws {
        let directory = temporaryDirectory("occupied")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("keep me".utf8)))
        XCTAssertTrue(FileManager.default.createFile(atPath: directory + "/img_0099.jpg", contents: Data("stale".utf8)))
        XCTAssertThrowsError(try CaptureWriter.write(Self.capture, to: directory)) { error in
            XCTAssertEqual(error as? SyntheticError, .outputNotEmpty(path: URL(fileURLWithPath: directory).standardizedFileURL.path))
        }
        _ = try CaptureWriter.write(Self.capture, to: directory, overwrite: true)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        XCTAssertTrue(names.contains("notes.txt"), "only the writer's own files are removed")
        XCTAssertFalse(names.contains("img_0099.jpg"), "a stale image from a larger capture must go")
        XCTAssertTrue(names.contains("img_0004.jpg"))
    }

    func testCannotWriteUnderAFile() throws {
        let file = temporaryDirectory("file")
        defer { try? FileManager.default.removeItem(atPath: file) }
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data()))
        XCTAssertThrowsError(try CaptureWriter.write(Self.capture, to: file + "/capture")) { error in
            guard case .cannotWrite? = error as? SyntheticError else { return XCTFail("\(error)") }
        }
    }

    func testSettingsOutOfRangeAreUsageErrors() {
        var spec = Small.spec()
        spec.jpegQuality = 0
        XCTAssertThrowsError(try SyntheticCapture(spec: spec)) { error in
            guard case .invalidParameter(let name, _)? = error as? SyntheticError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "--quality")
        }
        spec = Small.spec(.fabric30)
        spec.views = 3
        XCTAssertThrowsError(try SyntheticCapture(spec: spec), "two rings need at least two views each")
    }

    func testTwoRingPresetsShareTheViewsAndStaggerTheUpperRing() {
        let rings = CapturePreset.fabric30.rings(views: 31)
        XCTAssertEqual(rings.map(\.views), [16, 15])
        XCTAssertEqual(rings.map(\.elevationDegrees), [15, 40])
        XCTAssertEqual(rings[1].azimuthOffsetDegrees, 12)
        XCTAssertEqual(CapturePreset.textured24.rings().map(\.views), [24])
        XCTAssertEqual(CapturePreset.small12.rings().map(\.views), [12])
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: written.directory)
        super.tearDown()
    }
}
