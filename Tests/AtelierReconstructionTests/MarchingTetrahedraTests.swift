import AtelierFormats
import AtelierReconstruction
import XCTest

final class MarchingTetrahedraTests: XCTestCase {
    /// The signed distance to a sphere of radius 0.3, sampled every 2 cm.
    static let sphere = ScalarVolume(nx: 51, ny: 51, nz: 51, origin: [-0.5, -0.5, -0.5], spacing: 0.02) { p in
        Float((p * p).sum().squareRoot() - 0.3)
    }

    /// Volume enclosed by a closed, outward-facing mesh (divergence theorem).
    static func enclosedVolume(_ mesh: TexturedMesh) -> Double {
        mesh.triangles.reduce(0.0) { sum, t in
            let a = SIMD3<Double>(mesh.positions[Int(t.x)]), b = SIMD3<Double>(mesh.positions[Int(t.y)]), c = SIMD3<Double>(mesh.positions[Int(t.z)])
            return sum + (a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)) / 6
        }
    }

    func testSphereIsClosedOnTheSurfaceAndFacesOut() {
        let mesh = MarchingTetrahedra.extract(Self.sphere)
        XCTAssertNil(mesh.inconsistency)
        XCTAssertGreaterThan(mesh.triangles.count, 5000)
        XCTAssertTrue(QuadricSimplifierTests.edgeUse(mesh).values.allSatisfy { $0 == 2 }, "closed and manifold")
        let worst = mesh.positions.map { abs(Double((($0 * $0).sum()).squareRoot()) - 0.3) }.max()!
        XCTAssertLessThan(worst, 0.002, "vertices within 2 mm of the sphere")
        let volume = Self.enclosedVolume(mesh), truth = 4.0 / 3 * Double.pi * 0.027
        XCTAssertEqual(volume, truth, accuracy: 0.01 * truth, "positive: the faces point outwards")
    }

    /// Extraction then simplification, as part 2 will run them: still closed, much lighter, the
    /// same volume within 2 %.
    func testExtractThenSimplify() {
        let mesh = MarchingTetrahedra.extract(Self.sphere)
        let simple = QuadricSimplifier.simplify(mesh, targetTriangles: 2000)
        XCTAssertLessThanOrEqual(simple.triangles.count, 2000)
        XCTAssertTrue(QuadricSimplifierTests.edgeUse(simple).values.allSatisfy { $0 == 2 })
        let truth = 4.0 / 3 * Double.pi * 0.027
        XCTAssertEqual(Self.enclosedVolume(simple), truth, accuracy: 0.02 * truth)
    }

    /// Unknown samples (NaN) stop the surface: half the volume unknown leaves an open hemisphere.
    func testUnknownSamplesLeaveTheSurfaceOpen() {
        var volume = Self.sphere
        for z in 0 ..< volume.nz { for y in 0 ..< volume.ny { for x in 0 ..< 26 { volume.values[(z * volume.ny + y) * volume.nx + x] = .nan } } }
        let mesh = MarchingTetrahedra.extract(volume)
        XCTAssertGreaterThan(mesh.triangles.count, 1000)
        XCTAssertTrue(mesh.positions.allSatisfy { $0.x >= 0.0 - 1e-6 }, "nothing where the field is unknown")
        XCTAssertTrue(QuadricSimplifierTests.edgeUse(mesh).values.contains(1), "an open rim")
    }

    func testNoCrossingNoSurface() {
        let empty = ScalarVolume(nx: 4, ny: 4, nz: 4, origin: .zero, spacing: 1) { _ in 1 }
        XCTAssertTrue(MarchingTetrahedra.extract(empty).triangles.isEmpty)
    }
}
