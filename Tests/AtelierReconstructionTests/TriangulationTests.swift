import AtelierGeometry
import AtelierReconstruction
import XCTest

final class TriangulationTests: XCTestCase {
    private func normalised(_ point: SIMD3<Double>, _ pose: CameraPose) -> SIMD2<Double> {
        let p = pose.pointInCam(point)
        return SIMD2(p.x / p.z, p.y / p.z)
    }

    /// Exact observations in 2 and in 6 cameras looking at the origin: the point comes back to
    /// 1e-9, far from the origin too (where the conditioning shift matters).
    func testExactObservationsReproduceThePoint() throws {
        var random = SamplingRandom(seed: 3)
        for views in [2, 6] {
            for _ in 0 ..< 20 {
                let offset = SIMD3(1000.0, -500, 200)
                let poses = (0 ..< views).map { _ in
                    CameraPose(centre: offset + SIMD3(random.unit() * 4 - 2, random.unit() * 2 - 1, -5 - random.unit()), lookingAt: offset)
                }
                let point = offset + SIMD3(random.unit() - 0.5, random.unit() - 0.5, random.unit() - 0.5)
                let found = try XCTUnwrap(Triangulation.point(poses.map { ($0, normalised(point, $0)) }))
                XCTAssertLessThan((found - point).length, 1e-9)
                for pose in poses {
                    XCTAssertTrue(Triangulation.isInFront(found, of: pose))
                    XCTAssertEqual(Triangulation.depth(of: found, in: pose), pose.pointInCam(point).z, accuracy: 1e-9)
                }
            }
        }
    }

    /// Two cameras side by side seeing the same direction: the rays are parallel, no point.
    func testParallelRaysGiveNil() {
        let a = CameraPose(centre: [0, 0, 0], lookingAt: [0, 0, 1]), b = CameraPose(centre: [1, 0, 0], lookingAt: [1, 0, 1])
        XCTAssertNil(Triangulation.point([(a, [0.1, 0.2]), (b, [0.1, 0.2])]))
    }

    func testDegenerateInputsGiveNil() {
        let a = CameraPose(centre: [0, 0, 0], lookingAt: [0, 0, 1])
        XCTAssertNil(Triangulation.point([(a, [0.1, 0.2])]), "one view")
        XCTAssertNil(Triangulation.point([(a, [0.1, 0.2]), (a, [0.3, 0.2])]), "one centre")
    }

    /// A point behind a camera triangulates but fails the cheirality test.
    func testPointBehindTheCamera() throws {
        let a = CameraPose(centre: [0, 0, 0], lookingAt: [0, 0, 1]), b = CameraPose(centre: [1, 0, 0], lookingAt: [1, 0, 1])
        let point = SIMD3<Double>(0.5, 0.2, -4)
        let found = try XCTUnwrap(Triangulation.point([(a, normalised(point, a)), (b, normalised(point, b))]))
        XCTAssertLessThan((found - point).length, 1e-9)
        XCTAssertFalse(Triangulation.isInFront(found, of: a))
        XCTAssertLessThan(Triangulation.depth(of: found, in: a), 0)
    }

    func testTriangulationAngle() {
        XCTAssertEqual(Triangulation.angleRadians(centre1: [-1, 0, 0], centre2: [1, 0, 0], point: [0, 0, 1]), .pi / 2, accuracy: 1e-15)
        XCTAssertEqual(Triangulation.angleRadians(centre1: [-1, 0, 0], centre2: [1, 0, 0], point: [0, 0, 1e6]), 2e-6, accuracy: 1e-12)
        XCTAssertEqual(Triangulation.angleRadians(centre1: [0, 0, 0], centre2: [0, 0, 0], point: [0, 0, 1]), 0)
    }
}
