import AtelierGeometry
import AtelierReconstruction
import AtelierTestSupport
import XCTest

final class EPnPTests: XCTestCase {
    /// 50 exact correspondences: the pose is recovered to numerical precision, over 20 scenes.
    func testExactPointsGiveTheExactPose() throws {
        var random = SamplingRandom(seed: 21)
        for trial in 0 ..< 20 {
            let scene = PoseTestScene(count: 50, random: &random)
            let pose = try XCTUnwrap(EPnPSolver.camFromWorld(normalised: scene.normalised, pointsInWorld: scene.pointsInWorld), "trial \(trial)")
            XCTAssertLessThan(Matrix3.angleBetween(pose.camFromWorld, scene.camFromWorld.camFromWorld), 1e-8, "trial \(trial)")
            XCTAssertLessThan((pose.centre - scene.camFromWorld.centre).length, 1e-7 * scene.meanDepth, "trial \(trial)")
        }
    }

    /// Five and six points (the smallest inputs) still give the exact pose; four are refused.
    func testFewPointsExact() throws {
        var random = SamplingRandom(seed: 22)
        let four = PoseTestScene(count: 4, random: &random)
        XCTAssertNil(EPnPSolver.camFromWorld(normalised: four.normalised, pointsInWorld: four.pointsInWorld))
        for count in [5, 6, 7] {
            let scene = PoseTestScene(count: count, random: &random)
            let pose = try XCTUnwrap(EPnPSolver.camFromWorld(normalised: scene.normalised, pointsInWorld: scene.pointsInWorld))
            XCTAssertLessThan(Matrix3.angleBetween(pose.camFromWorld, scene.camFromWorld.camFromWorld), 1e-6, "\(count) points")
        }
    }

    /// 1 px of Gaussian noise at f = 1000 px: the rotation within 0.2°, over 20 scenes.
    func testNoisyPointsWithinTwoTenthsOfADegree() throws {
        var random = SamplingRandom(seed: 23)
        var worst = 0.0
        for _ in 0 ..< 20 {
            let scene = PoseTestScene(count: 50, random: &random)
            let noisy = scene.normalised.map { $0 + SIMD2(random.gaussian(), random.gaussian()) / 1000 }
            let pose = try XCTUnwrap(EPnPSolver.camFromWorld(normalised: noisy, pointsInWorld: scene.pointsInWorld))
            worst = max(worst, PoseTestScene.rotationErrorDegrees(pose, scene.camFromWorld))
        }
        XCTAssertLessThan(worst, 0.2)
    }

    /// A subset by index gives the same pose as the subset copied out.
    func testIndicesSelectTheSubset() throws {
        var random = SamplingRandom(seed: 24)
        var scene = PoseTestScene(count: 30, random: &random)
        for i in stride(from: 1, to: 30, by: 2) { scene.normalised[i] += SIMD2(0.3, -0.2) }   // corrupt the odd ones
        let even = Array(stride(from: 0, to: 30, by: 2))
        let pose = try XCTUnwrap(EPnPSolver.camFromWorld(normalised: scene.normalised, pointsInWorld: scene.pointsInWorld, indices: even))
        XCTAssertLessThan(Matrix3.angleBetween(pose.camFromWorld, scene.camFromWorld.camFromWorld), 1e-8)
    }

    func testDegenerateInputGivesNil() {
        var random = SamplingRandom(seed: 25)
        let scene = PoseTestScene(count: 3, random: &random)
        XCTAssertNil(EPnPSolver.camFromWorld(normalised: scene.normalised, pointsInWorld: scene.pointsInWorld))
        XCTAssertNil(EPnPSolver.camFromWorld(normalised: [], pointsInWorld: []))
        XCTAssertNil(EPnPSolver.camFromWorld(normalised: scene.normalised, pointsInWorld: Array(scene.pointsInWorld.prefix(2))))
        // All points at one place, and all on one line.
        let same = [SIMD3<Double>](repeating: [1, 2, 3], count: 10)
        XCTAssertNil(EPnPSolver.camFromWorld(normalised: [SIMD2<Double>](repeating: [0, 0], count: 10), pointsInWorld: same))
        let line = (0 ..< 10).map { SIMD3<Double>(Double($0), 0, 5) }
        XCTAssertNil(EPnPSolver.camFromWorld(normalised: line.map { SIMD2($0.x / 5, 0) }, pointsInWorld: line))
    }
}
