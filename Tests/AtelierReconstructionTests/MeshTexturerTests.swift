import AtelierFormats
import AtelierGeometry
import AtelierImaging
import AtelierReconstruction
import Foundation
import XCTest

/// Textures a unit sphere from photos rendered analytically (ray–sphere, a smooth procedural
/// colour of the surface point) and checks the atlas against the procedure.
final class MeshTexturerTests: XCTestCase {
    /// A green no face of the sphere has: if it shows in the atlas, background leaked in.
    static let background: SIMD3<Double> = [20, 230, 40]

    /// The colour of the surface at `p`: smooth bands in three directions, within 50…190 so a
    /// 20% brighter photo does not saturate.
    static func surfaceColour(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let n = p.normalized
        return [120 + 70 * sin(3 * n.x + n.y), 120 + 70 * sin(2 * n.y - n.z), 120 + 60 * cos(3 * n.z + n.x)]
    }

    /// A closed unit sphere with outward normals.
    static func sphere(rings: Int = 40, segments: Int = 80) -> TexturedMesh {
        var mesh = QuadricSimplifierTests.sphere(rings: rings, segments: segments)
        mesh.normals = mesh.positions.map { $0 / ($0 * $0).sum().squareRoot() }
        return mesh
    }

    static let intrinsics = CameraIntrinsics(width: 320, height: 240, focalLengthPixels: 300)

    /// The photo of the unit sphere from `pose`, painted by `paint`, every channel times `exposure`.
    static func render(_ pose: CameraPose, exposure: Double = 1, paint: (SIMD3<Double>) -> SIMD3<Double> = MeshTexturerTests.surfaceColour) -> Image {
        let w = intrinsics.width, h = intrinsics.height
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        let centre = pose.centre, worldFromCam = pose.camFromWorld.transposed
        for y in 0 ..< h {
            for x in 0 ..< w {
                let ray = worldFromCam * intrinsics.bearing(fromPixel: SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                // |centre + t·ray| = 1, nearest t.
                let b = centre.dot(ray), c = centre.dot(centre) - 1
                let disc = b * b - c
                var colour = background
                if disc >= 0 { colour = exposure * paint(centre + (-b - disc.squareRoot()) * ray) }
                for k in 0 ..< 3 { pixels[(y * w + x) * 3 + k] = UInt8(max(0, min(255, colour[k].rounded()))) }
            }
        }
        return Image(width: w, height: h, channels: 3, pixels: pixels)
    }

    /// Photos from `centres`, looking at the origin; the photo at `brighter` is 20% brighter.
    static func views(_ centres: [SIMD3<Double>], brighter: Int? = nil) -> [TextureView] {
        centres.enumerated().map { i, centre in
            let pose = CameraPose(centre: centre, lookingAt: .zero)
            return TextureView(intrinsics: intrinsics, pose: pose, image: render(pose, exposure: i == brighter ? 1.2 : 1))
        }
    }

    /// Eight photos around the sphere at ±25° elevation, one from above and one from below.
    static func surroundingCentres(distance: Double = 3.5) -> [SIMD3<Double>] {
        var centres: [SIMD3<Double>] = (0 ..< 8).map { k in
            let azimuth = Double(k) * .pi / 4, elevation = (k % 2 == 0 ? 25.0 : -25.0) * .pi / 180
            return distance * SIMD3(cos(elevation) * cos(azimuth), sin(elevation), cos(elevation) * sin(azimuth))
        }
        centres.append([0.01, distance, 0])
        centres.append([0.01, -distance, 0])
        return centres
    }

    static let surrounding = views(surroundingCentres(), brighter: 3)

    func testTexturedSphereMatchesThePhotos() throws {
        let mesh = Self.sphere()
        var options = TexturingOptions()
        options.textureSize = 1024
        var fractions: [Double] = []
        let (textured, report) = try MeshTexturer.texture(mesh, views: Self.surrounding, options: options) { fractions.append($0) }

        try Self.assertValid(textured, from: mesh, textureSize: 1024)
        XCTAssertEqual(report.facesWithoutView, 0)
        XCTAssertGreaterThan(report.charts, 0)
        XCTAssertLessThan(report.charts, 200, "view selection should give large charts")
        XCTAssertGreaterThan(report.atlasFill, 0.05)
        XCTAssertLessThanOrEqual(report.scale, 1)
        XCTAssertEqual(fractions, fractions.sorted())
        XCTAssertEqual(fractions.last, 1)
        XCTAssertEqual(textured.normals.count, textured.positions.count)

        let errors = try Self.centroidErrors(textured, from: mesh)
        let sorted = errors.map(\.error).sorted()
        let median = sorted[sorted.count / 2], p95 = sorted[sorted.count * 95 / 100]
        XCTAssertLessThan(median, 6, "median colour error")
        XCTAssertLessThan(p95, 20, "95th percentile colour error")
        XCTAssertEqual(errors.filter(\.background).count, 0, "background colour in the atlas")
    }

    func testExposureLevellingEvensOutABrighterPhoto() throws {
        let mesh = Self.sphere()
        var options = TexturingOptions()
        options.textureSize = 1024
        let levelled = try MeshTexturer.texture(mesh, views: Self.surrounding, options: options).mesh
        options.levelExposure = false
        options.levelSeams = false
        let raw = try MeshTexturer.texture(mesh, views: Self.surrounding, options: options).mesh
        func mean(_ errors: [(error: Double, background: Bool)]) -> Double { errors.map(\.error).reduce(0, +) / Double(errors.count) }
        let levelledError = mean(try Self.centroidErrors(levelled, from: mesh))
        let rawError = mean(try Self.centroidErrors(raw, from: mesh))
        XCTAssertLessThan(levelledError, rawError * 0.8, "levelled \(levelledError) vs raw \(rawError)")
    }

    func testFacesNoPhotoSeesAreCountedAndStillMapped() throws {
        let mesh = Self.sphere(rings: 20, segments: 40)
        let centres: [SIMD3<Double>] = (0 ..< 6).map { k in
            let azimuth = Double(k) * .pi / 3
            return SIMD3(2 * cos(azimuth), 2.8, 2 * sin(azimuth))
        }
        var options = TexturingOptions()
        options.textureSize = 512
        let (textured, report) = try MeshTexturer.texture(mesh, views: Self.views(centres), options: options)
        try Self.assertValid(textured, from: mesh, textureSize: 512)
        // The cameras are 3.44 from the centre at 54.5° elevation: each sees the cap within 73° of
        // its direction, so nothing below 18.5° south is seen.
        let southern = mesh.triangles.filter { t in [t.x, t.y, t.z].allSatisfy { mesh.positions[Int($0)].y < -0.33 } }.count
        XCTAssertGreaterThanOrEqual(report.facesWithoutView, southern)
        XCTAssertLessThan(report.facesWithoutView, mesh.triangles.count)
        // Seen faces still carry the photos' colours.
        let errors = try Self.centroidErrors(textured, from: mesh)
        let seen = zip(mesh.triangles, errors).filter { t, _ in [t.x, t.y, t.z].allSatisfy { mesh.positions[Int($0)].y > 0.3 } }.map(\.1)
        let seenErrors = seen.map(\.error).sorted()
        XCTAssertLessThan(seenErrors[seenErrors.count / 2], 6)
        XCTAssertEqual(seen.filter(\.background).count, 0)
    }

    func testOutputIsDeterministic() throws {
        let mesh = Self.sphere(rings: 16, segments: 32)
        var options = TexturingOptions()
        options.textureSize = 256
        let first = try MeshTexturer.texture(mesh, views: Self.surrounding, options: options)
        let second = try MeshTexturer.texture(mesh, views: Self.surrounding, options: options)
        XCTAssertEqual(first.mesh, second.mesh)
        XCTAssertEqual(first.report, second.report)
    }

    func testRefusesUnusableInput() {
        let mesh = Self.sphere(rings: 6, segments: 8)
        let views = Array(Self.surrounding.prefix(2))
        XCTAssertThrowsError(try MeshTexturer.texture(mesh, views: [])) { XCTAssertEqual($0 as? ReconstructionError, .noPhotosToTexture) }
        XCTAssertThrowsError(try MeshTexturer.texture(TexturedMesh(positions: [], triangles: []), views: views)) {
            XCTAssertEqual($0 as? ReconstructionError, .emptyMesh)
        }
        var broken = mesh
        broken.triangles.append([0, 1, 999])
        XCTAssertThrowsError(try MeshTexturer.texture(broken, views: views)) {
            guard case .inconsistentMesh = $0 as? ReconstructionError else { return XCTFail("\($0)") }
        }
        var wrongSize = views
        wrongSize[1].image = Image(width: 10, height: 10, channels: 3)
        XCTAssertThrowsError(try MeshTexturer.texture(mesh, views: wrongSize)) {
            XCTAssertEqual(($0 as? ReconstructionError).map { if case .invalidTextureView(let index, _) = $0 { index } else { -1 } }, 1)
        }
        var options = TexturingOptions()
        options.textureSize = 100
        XCTAssertThrowsError(try MeshTexturer.texture(mesh, views: views, options: options)) {
            guard case .invalidTexturingOption = $0 as? ReconstructionError else { return XCTFail("\($0)") }
        }
    }

    // MARK: - Checks

    /// Consistent, same triangles over the same positions, UVs in [0, 1], a decodable atlas of
    /// the asked size, and no texel claimed by two charts.
    static func assertValid(_ textured: TexturedMesh, from mesh: TexturedMesh, textureSize: Int,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNil(textured.inconsistency, file: file, line: line)
        XCTAssertEqual(textured.triangles.count, mesh.triangles.count, file: file, line: line)
        XCTAssertEqual(textured.textureCoordinates.count, textured.positions.count, file: file, line: line)
        XCTAssertTrue(textured.textureCoordinates.allSatisfy { $0.x >= 0 && $0.x <= 1 && $0.y >= 0 && $0.y <= 1 }, file: file, line: line)
        for (t, u) in zip(mesh.triangles, textured.triangles) {
            for k in 0 ..< 3 where mesh.positions[Int(t[k])] != textured.positions[Int(u[k])] {
                XCTFail("triangle corner moved", file: file, line: line)
                return
            }
        }
        let png = try XCTUnwrap(textured.texturePNG, file: file, line: line)
        let atlas = try png.withUnsafeBytes { try PNG.decode($0) }
        XCTAssertEqual(atlas.width, textureSize, file: file, line: line)
        XCTAssertEqual(atlas.height, textureSize, file: file, line: line)

        // Charts are the components of faces sharing output vertices (vertices are split at seams).
        var parent = Array(0 ..< textured.positions.count)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for t in textured.triangles {
            let a = root(Int(t.x))
            for v in [Int(t.y), Int(t.z)] { parent[root(v)] = a }
        }
        var owner = [Int](repeating: -1, count: textureSize * textureSize)
        var conflicts = 0
        let side = Double(textureSize)
        for t in textured.triangles {
            let chart = root(Int(t.x))
            let p = [t.x, t.y, t.z].map { i -> SIMD2<Double> in
                let uv = textured.textureCoordinates[Int(i)]
                return SIMD2(Double(uv.x) * side, (1 - Double(uv.y)) * side)
            }
            let area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x)
            guard abs(area) > 1e-12 else { continue }
            let x0 = max(0, Int(min(p[0].x, p[1].x, p[2].x))), x1 = min(textureSize - 1, Int(max(p[0].x, p[1].x, p[2].x)))
            let y0 = max(0, Int(min(p[0].y, p[1].y, p[2].y))), y1 = min(textureSize - 1, Int(max(p[0].y, p[1].y, p[2].y)))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0 ... y1 {
                for x in x0 ... x1 {
                    let q = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                    func edge(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { ((b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)) / area }
                    guard edge(p[1], p[2]) >= 0, edge(p[2], p[0]) >= 0, edge(p[0], p[1]) >= 0 else { continue }
                    let i = y * textureSize + x
                    if owner[i] >= 0 && owner[i] != chart { conflicts += 1 }
                    owner[i] = chart
                }
            }
        }
        XCTAssertEqual(conflicts, 0, "atlas texels claimed by two charts", file: file, line: line)
    }

    /// For each face, the largest channel difference between the atlas (bilinear, at the
    /// centroid's texture coordinate) and the surface colour at the centroid, and whether the
    /// atlas there is closer to the background green than to the surface colour.
    static func centroidErrors(_ textured: TexturedMesh, from mesh: TexturedMesh) throws -> [(error: Double, background: Bool)] {
        let atlas = try XCTUnwrap(textured.texturePNG).withUnsafeBytes { try PNG.decode($0) }
        let side = Double(atlas.width)
        func texel(_ x: Int, _ y: Int) -> SIMD3<Double> {
            let x = max(0, min(atlas.width - 1, x)), y = max(0, min(atlas.height - 1, y))
            let i = (y * atlas.width + x) * 3
            return SIMD3(Double(atlas.pixels[i]), Double(atlas.pixels[i + 1]), Double(atlas.pixels[i + 2]))
        }
        return zip(mesh.triangles, textured.triangles).map { t, u in
            let centroid = [t.x, t.y, t.z].map { i -> SIMD3<Double> in let p = mesh.positions[Int(i)]; return SIMD3(Double(p.x), Double(p.y), Double(p.z)) }
                .reduce(.zero, +) / 3
            let uv = [u.x, u.y, u.z].map { textured.textureCoordinates[Int($0)] }.reduce(.zero, +) / 3
            let x = Double(uv.x) * side - 0.5, y = (1 - Double(uv.y)) * side - 0.5
            let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down)), fx = x - Double(x0), fy = y - Double(y0)
            let sample = (texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx) * (1 - fy) + (texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx) * fy
            let expected = surfaceColour(centroid)
            let error = (sample - expected).replacing(with: -(sample - expected), where: sample - expected .< 0).max()
            return (error, (sample - background).length < (sample - expected).length)
        }
    }
}
