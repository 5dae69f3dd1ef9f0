import AtelierGeometry
import AtelierImaging
import AtelierSynthetic
import XCTest

/// The pictures against the geometry: each rendered pixel shows the part of the mesh that the
/// ground-truth camera projects there, in the colour the texture and light give it.
final class RendererTests: XCTestCase {
    static let mesh: TriangleMesh = {
        var garment = Small.garment
        garment.occlusionStrengthMetres = 0
        return garment.mesh(seed: 3)
    }()
    static let intrinsics = PinholeIntrinsics(width: 320, height: 240, focalLength35mm: 35)

    static func cameras(views: Int = 3) -> [PlacedCamera] {
        CameraRig.place(rings: [CameraRing(elevationDegrees: 25, radiusMetres: 1.5, views: views, azimuthOffsetDegrees: 20)],
                        around: mesh.boundingBox.centre, jitter: .handheld, seed: 2)
    }

    static func renderer(texture: Image, lighting: Lighting) -> Renderer {
        Renderer(scene: Scene(mesh: mesh, texture: Texture(image: texture), lighting: lighting, studio: Small.studio()))
    }

    static let ideal = RenderSettings(supersampling: 3, sensor: .ideal)

    /// Vertices whose pixel is wholly covered by the surface right around them: every sample of
    /// the pixel sees a point within 5 mm of the vertex (so it is neither hidden nor on a
    /// silhouette).
    static func visibleVertices(_ visibility: VisibilityBuffer, pose: CameraPose) -> [(vertex: Int, pixel: SIMD2<Int>)] {
        let ss = visibility.supersampling
        var found: [(Int, SIMD2<Int>)] = []
        for v in mesh.positions.indices {
            let point = SIMD3<Double>(mesh.positions[v])
            let (p, depth) = Check.project(point, pose: pose, intrinsics: intrinsics)
            guard depth > 0 else { continue }
            let px = Int(p.x.rounded(.down)), py = Int(p.y.rounded(.down))
            guard px >= 1, py >= 1, px < intrinsics.width - 1, py < intrinsics.height - 1 else { continue }
            var covered = true
            for sy in 0 ..< ss where covered {
                for sx in 0 ..< ss where covered {
                    let at = (py * ss + sy) * visibility.width + px * ss + sx
                    let triangle = visibility.triangles[at]
                    guard triangle >= 0 else { covered = false; continue }
                    let seen = surfacePoint(triangle: Int(triangle), barycentrics: visibility.barycentrics[at])
                    if Check.length(seen - point) > 0.005 { covered = false }
                }
            }
            if covered { found.append((v, SIMD2(px, py))) }
        }
        return found
    }

    static func surfacePoint(triangle: Int, barycentrics b: SIMD2<Float>) -> SIMD3<Double> {
        let t = mesh.triangles[triangle]
        let a = SIMD3<Double>(mesh.positions[Int(t.x)]), p1 = SIMD3<Double>(mesh.positions[Int(t.y)]), p2 = SIMD3<Double>(mesh.positions[Int(t.z)])
        return a * Double(1 - b.x - b.y) + p1 * Double(b.x) + p2 * Double(b.y)
    }

    func testEverySampleSeesAPointThatProjectsBackOntoIt() {
        let renderer = Self.renderer(texture: Small.coordinateTexture(), lighting: .flat)
        for camera in Self.cameras() {
            let (_, visibility) = renderer.renderWithVisibility(intrinsics: Self.intrinsics, pose: camera.pose, settings: Self.ideal)
            let ss = Double(visibility.supersampling)
            var checked = 0, worst = 0.0
            for at in stride(from: 0, to: visibility.triangles.count, by: 5) where visibility.triangles[at] >= 0 {
                let point = Self.surfacePoint(triangle: Int(visibility.triangles[at]), barycentrics: visibility.barycentrics[at])
                let (pixel, depth) = Check.project(point, pose: camera.pose, intrinsics: Self.intrinsics)
                XCTAssertGreaterThan(depth, 0)
                let sampleCentre = SIMD2((Double(at % visibility.width) + 0.5) / ss, (Double(at / visibility.width) + 0.5) / ss)
                let error = pixel - sampleCentre
                worst = max(worst, (error.x * error.x + error.y * error.y).squareRoot())
                checked += 1
            }
            XCTAssertGreaterThan(checked, 5_000, "the garment should fill a good part of the frame")
            XCTAssertLessThan(worst, 0.01, "a sample's surface point reprojects \(worst) px from the sample")
        }
    }

    func testEachVisibleVertexShowsItsOwnTextureCoordinates() throws {
        let renderer = Self.renderer(texture: Small.coordinateTexture(), lighting: .flat)
        for camera in Self.cameras() {
            let (image, visibility) = renderer.renderWithVisibility(intrinsics: Self.intrinsics, pose: camera.pose, settings: Self.ideal)
            let vertices = Self.visibleVertices(visibility, pose: camera.pose)
            XCTAssertGreaterThan(vertices.count, 300)
            var worst = 0.0
            for (vertex, pixel) in vertices {
                let uv = Self.mesh.uvs[vertex]
                // The vertex is inside the pixel, not at its centre: allow for the texture's change over a pixel.
                let rendered = image[pixel.x, pixel.y]
                let expected = (Double(uv.x) * 256 - 0.5, Double(uv.y) * 256 - 0.5)
                worst = max(worst, abs(Double(rendered[rendered.startIndex]) - expected.0), abs(Double(rendered[rendered.startIndex + 1]) - expected.1))
                XCTAssertEqual(rendered[rendered.startIndex + 2], 128)
            }
            XCTAssertLessThan(worst, 3.5, "a pixel's colour is \(worst) codes from its vertex's texture coordinates")
        }
    }

    func testShadingIsLambertianWithAmbientLightAndOcclusion() {
        var garment = Small.garment
        garment.occlusionStrengthMetres = 0.0035
        let mesh = garment.mesh(seed: 3)
        let grey = 190.0
        let renderer = Renderer(scene: Scene(mesh: mesh, texture: Texture(image: Image(width: 8, height: 8, channels: 3, value: UInt8(grey))),
                                             lighting: .studio, studio: Small.studio()))
        let lighting = Lighting.studio
        let ss = Self.ideal.supersampling
        var checked = 0, worst = 0.0, darkest = 255.0, brightest = 0.0
        for camera in Self.cameras(views: 4) {
            let (image, visibility) = renderer.renderWithVisibility(intrinsics: Self.intrinsics, pose: camera.pose, settings: Self.ideal)
            for py in stride(from: 0, to: Self.intrinsics.height, by: 3) {
                for px in stride(from: 0, to: Self.intrinsics.width, by: 3) {
                    // Pixels wholly on the garment: the mean over their samples of
                    // albedo × irradiance(interpolated normal, interpolated occlusion).
                    var light = 0.0, covered = true
                    for sy in 0 ..< ss {
                        for sx in 0 ..< ss {
                            let at = (py * ss + sy) * visibility.width + px * ss + sx
                            let triangle = visibility.triangles[at]
                            guard triangle >= 0 else { covered = false; continue }
                            let t = mesh.triangles[Int(triangle)], b = visibility.barycentrics[at]
                            let weights = SIMD3(1 - b.x - b.y, b.x, b.y)
                            let n = mesh.normals[Int(t.x)] * weights.x + mesh.normals[Int(t.y)] * weights.y + mesh.normals[Int(t.z)] * weights.z
                            let occlusion = mesh.occlusion[Int(t.x)] * weights.x + mesh.occlusion[Int(t.y)] * weights.y + mesh.occlusion[Int(t.z)] * weights.z
                            let unit = n / (n.x * n.x + n.y * n.y + n.z * n.z).squareRoot()
                            light += Double(lighting.irradiance(normal: unit, occlusion: occlusion))
                        }
                    }
                    guard covered else { continue }
                    let expected = Check.srgbCode(Check.linear(code: grey) * light / Double(ss * ss))
                    let rendered = Double(image[px, py].first!)
                    worst = max(worst, abs(rendered - expected))
                    darkest = min(darkest, rendered)
                    brightest = max(brightest, rendered)
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 2_000)
        XCTAssertLessThan(worst, 1.01, "shading differs from albedo × irradiance by up to \(worst) codes")
        XCTAssertGreaterThan(brightest - darkest, 40, "the light should model the folds")
    }

    func testIrradianceAddsAmbientKeyAndFill() {
        let lighting = Lighting.studio
        let key = lighting.key.direction, fill = lighting.fill.direction
        let keyDotFill = max(0, key.x * fill.x + key.y * fill.y + key.z * fill.z)
        XCTAssertEqual(lighting.irradiance(normal: key, occlusion: 1),
                       lighting.ambient + lighting.key.intensity + lighting.fill.intensity * keyDotFill, accuracy: 1e-5)
        XCTAssertEqual(lighting.irradiance(normal: -key, occlusion: 1),
                       lighting.ambient + lighting.fill.intensity * max(0, -(key.x * fill.x + key.y * fill.y + key.z * fill.z)), accuracy: 1e-5)
        XCTAssertEqual(lighting.irradiance(normal: key, occlusion: 0.6),
                       lighting.ambient * 0.6 + (lighting.key.intensity + lighting.fill.intensity * keyDotFill) * (1 - lighting.occlusionOnDirect * 0.4),
                       accuracy: 1e-5)
        XCTAssertEqual(Lighting.flat.irradiance(normal: [0, 0, 1], occlusion: 1), 1)
    }

    func testTheSameViewGivesTheSameBytesOnAnyNumberOfThreads() {
        let renderer = Self.renderer(texture: PrintedFabric(size: 256).image(seed: 1), lighting: .studio)
        let camera = Self.cameras()[1]
        var settings = RenderSettings(supersampling: 2, sensor: .phone, noiseSeed: 7)
        let first = renderer.render(intrinsics: Self.intrinsics, pose: camera.pose, settings: settings, view: 1)
        let again = renderer.render(intrinsics: Self.intrinsics, pose: camera.pose, settings: settings, view: 1)
        settings.concurrent = false
        let serial = renderer.render(intrinsics: Self.intrinsics, pose: camera.pose, settings: settings, view: 1)
        XCTAssertEqual(first, again)
        XCTAssertEqual(first, serial)
        // Noise differs between views: the same pose as another view index is not the same picture.
        settings.concurrent = true
        XCTAssertNotEqual(first, renderer.render(intrinsics: Self.intrinsics, pose: camera.pose, settings: settings, view: 2))
    }

    func testSensorNoiseHasTheStatedSpread() {
        let renderer = Self.renderer(texture: Image(width: 4, height: 4, channels: 3, value: 128), lighting: .flat)
        // Looking straight up: nothing but the smooth backdrop.
        let pose = CameraPose(centre: [0, 3, 0], lookingAt: [0, 10, 0], up: [0, 0, 1])
        let clean = renderer.render(intrinsics: Self.intrinsics, pose: pose, settings: RenderSettings(supersampling: 1, sensor: .ideal))
        let noisy = renderer.render(intrinsics: Self.intrinsics, pose: pose,
                                    settings: RenderSettings(supersampling: 1, sensor: SensorModel(vignetting: 0, noiseLevels: 2)))
        var sum = 0.0, squares = 0.0
        for i in clean.pixels.indices {
            let d = Double(noisy.pixels[i]) - Double(clean.pixels[i])
            sum += d
            squares += d * d
        }
        let n = Double(clean.pixels.count), mean = sum / n
        // The backdrop is nearly one colour, so rounding biases the difference by up to half a level.
        XCTAssertEqual(mean, 0, accuracy: 0.5)
        // Rounding the noisy value adds about 1/12 of a level squared.
        XCTAssertEqual((squares / n - mean * mean).squareRoot(), (4 + 1.0 / 12).squareRoot(), accuracy: 0.1)
    }

    func testVignettingDarkensTheCornersOnly() {
        let renderer = Self.renderer(texture: Image(width: 4, height: 4, channels: 3, value: 128), lighting: .flat)
        let pose = CameraPose(centre: [0, 3, 0], lookingAt: [0, 10, 0], up: [0, 0, 1])
        let plain = renderer.render(intrinsics: Self.intrinsics, pose: pose, settings: RenderSettings(supersampling: 1, sensor: .ideal))
        let vignetted = renderer.render(intrinsics: Self.intrinsics, pose: pose,
                                        settings: RenderSettings(supersampling: 1, sensor: SensorModel(vignetting: 0.2, noiseLevels: 0)))
        let centre = (plain[160, 120].first!, vignetted[160, 120].first!)
        XCTAssertLessThanOrEqual(abs(Int(centre.0) - Int(centre.1)), 1)
        let corner = (Check.linear(code: Double(plain[0, 0].first!)), Check.linear(code: Double(vignetted[0, 0].first!)))
        XCTAssertEqual(corner.1 / corner.0, 0.8, accuracy: 0.02)
    }
}
