import AtelierGeometry
import AtelierReconstruction
import XCTest

final class P3PTests: XCTestCase {
    /// 200 random cameras and triangles in front of them: the true pose is among the solutions,
    /// and every solution reprojects the three points exactly and has them in front.
    func testTruePoseIsAmongTheSolutions() {
        var random = SamplingRandom(seed: 11)
        var worstRotation = 0.0, worstCentre = 0.0, solutionCounts = [Int](repeating: 0, count: 5)
        for trial in 0 ..< 200 {
            let scene = PoseTestScene(count: 3, random: &random, depths: 1 ... 10, halfField: 0.7)
            let bearings = scene.normalised.map { SIMD3($0.x, $0.y, 1).normalized }
            let poses = P3PSolver.camFromWorld(bearings: bearings, pointsInWorld: scene.pointsInWorld)
            XCTAssertLessThanOrEqual(poses.count, 4)
            solutionCounts[min(poses.count, 4)] += 1
            let rotationErrors = poses.map { Matrix3.angleBetween($0.camFromWorld, scene.camFromWorld.camFromWorld) }
            guard let best = rotationErrors.indices.min(by: { rotationErrors[$0] < rotationErrors[$1] }) else {
                XCTFail("trial \(trial): no solution"); continue
            }
            worstRotation = max(worstRotation, rotationErrors[best])
            worstCentre = max(worstCentre, (poses[best].centre - scene.camFromWorld.centre).length / scene.meanDepth)
            for pose in poses {
                for (point, observed) in zip(scene.pointsInWorld, bearings) {
                    let p = pose.pointInCam(point)
                    XCTAssertGreaterThan(p.z, 0)
                    XCTAssertLessThan(p.normalized.cross(observed).length, 1e-7, "trial \(trial): a solution that does not reproject")
                }
            }
        }
        XCTAssertLessThan(worstRotation, 1e-6, "rotation error in radians")
        XCTAssertLessThan(worstCentre, 1e-6, "centre error relative to depth")
        XCTAssertEqual(solutionCounts[0], 0)
    }

    /// Bearings need not be unit length, and the solver does not depend on the world's scale.
    func testScaleOfInputsDoesNotMatter() throws {
        var random = SamplingRandom(seed: 12)
        let scene = PoseTestScene(count: 3, random: &random)
        let bearings = scene.normalised.map { SIMD3($0.x, $0.y, 1) * 7 }
        let world = scene.pointsInWorld.map { $0 * 1000 }
        let truth = CameraPose(quaternion: scene.camFromWorld.quaternion, translation: scene.camFromWorld.translation * 1000)
        let poses = P3PSolver.camFromWorld(bearings: bearings, pointsInWorld: world)
        let best = try XCTUnwrap(poses.min { Matrix3.angleBetween($0.camFromWorld, truth.camFromWorld) < Matrix3.angleBetween($1.camFromWorld, truth.camFromWorld) })
        XCTAssertLessThan(Matrix3.angleBetween(best.camFromWorld, truth.camFromWorld), 1e-8)
        XCTAssertLessThan((best.centre - truth.centre).length, 1e-5)
    }

    func testDegenerateInputGivesNoPose() {
        let bearings: [SIMD3<Double>] = [[0, 0, 1], [0.1, 0, 1], [0, 0.1, 1]]
        let collinear: [SIMD3<Double>] = [[0, 0, 5], [1, 1, 5], [2, 2, 5]]
        XCTAssertEqual(P3PSolver.camFromWorld(bearings: bearings, pointsInWorld: collinear), [])
        let coincident: [SIMD3<Double>] = [[0, 0, 5], [0, 0, 5], [1, 0, 5]]
        XCTAssertEqual(P3PSolver.camFromWorld(bearings: bearings, pointsInWorld: coincident), [])
        let triangle: [SIMD3<Double>] = [[0, 0, 5], [0.5, 0, 5], [0, 0.5, 5]]
        let parallel: [SIMD3<Double>] = [[0, 0, 1], [0, 0, 2], [0, 0.1, 1]]
        XCTAssertEqual(P3PSolver.camFromWorld(bearings: parallel, pointsInWorld: triangle), [])
        XCTAssertEqual(P3PSolver.camFromWorld(bearings: [[0, 0, 0], [0.1, 0, 1], [0, 0.1, 1]], pointsInWorld: triangle), [])
        XCTAssertEqual(P3PSolver.camFromWorld(bearings: Array(bearings.prefix(2)), pointsInWorld: Array(triangle.prefix(2))), [])
        XCTAssertEqual(P3PSolver.camFromWorld(bearings: bearings, pointsInWorld: [[0, 0, .nan], [0.5, 0, 5], [0, 0.5, 5]]), [])
        // The exact case still works: the sanity check that these refusals are not blanket ones.
        XCTAssertFalse(P3PSolver.camFromWorld(bearings: bearings, pointsInWorld: triangle).isEmpty)
    }
}
