import AtelierFormats
@testable import AtelierReconstruction
import XCTest

/// The surface no photo showed is laid as flat as its seen rim allows (issue 27): below a dress
/// form photographed from above, fusion leaves the visual hull's cone; relaxed, it is the flat
/// cap the form really has.
final class UnseenSurfaceTests: XCTestCase {
    /// A cylinder of radius 0.15 from y = 0.4 up to 0.8, with the hull's cone hanging below its
    /// rim (40° steep, so 12.6 cm deep); only what lies at y ≥ 0.4 was observed.
    func testTheConeBelowAnOverhangBecomesAFlatCap() throws {
        let spacing = 0.01, rim = 0.4, radius = 0.15
        let slope = tan(40 * Double.pi / 180)
        let volume = ScalarVolume(nx: 41, ny: 81, nz: 41, origin: [-0.2, 0.1, -0.2], spacing: spacing) { p in
            let r = (p.x * p.x + p.z * p.z).squareRoot()
            let side = r - radius, top = p.y - 0.8, cone = (rim - (radius - r) * slope) - p.y
            return Float(max(side, top, cone))
        }
        let observed = (0 ..< volume.values.count).map { volume.position($0).y >= rim - 0.5 * spacing }
        let before = MarchingTetrahedra.extract(volume)
        let deepest = before.positions.map { Double($0.y) }.min()!
        XCTAssertLessThan(deepest, rim - 0.1, "the cone hangs below the rim")

        var mesh = before
        let moved = UnseenSurface.relax(&mesh, volume: volume, observed: observed)
        XCTAssertGreaterThan(moved, 100)
        // Every vertex now lies within a grid step of the rim's plane or above it, and the seen
        // part did not move.
        let lowest = mesh.positions.map { Double($0.y) }.min()!
        XCTAssertGreaterThan(lowest, rim - 1.5 * spacing, "the cap is flat at the rim")
        for (a, b) in zip(before.positions, mesh.positions) where Double(a.y) >= rim + spacing { XCTAssertEqual(a, b) }
        // Still the same closed, outward-facing surface, with the volume of a cylinder.
        XCTAssertNil(mesh.inconsistency)
        let enclosed = MarchingTetrahedraTests.enclosedVolume(mesh), cylinder = Double.pi * radius * radius * 0.4
        XCTAssertEqual(enclosed, cylinder, accuracy: 0.06 * cylinder)
    }

    func testNothingMovesWhenEverythingWasSeen() {
        let volume = MarchingTetrahedraTests.sphere
        var mesh = MarchingTetrahedra.extract(volume)
        let before = mesh
        XCTAssertEqual(UnseenSurface.relax(&mesh, volume: volume, observed: [Bool](repeating: true, count: volume.values.count)), 0)
        XCTAssertEqual(mesh, before)
    }
}
