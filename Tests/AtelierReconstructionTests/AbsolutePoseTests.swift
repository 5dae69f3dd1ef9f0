import AtelierGeometry
import AtelierReconstruction
import AtelierTestSupport
import XCTest

final class AbsolutePoseTests: XCTestCase {
    static let focal = 1000.0

    /// `scene` with 1 px Gaussian noise and the given fraction of correspondences replaced by
    /// random image points in the same field; returns the observations and the true inliers.
    private func corrupted(_ scene: PoseTestScene, outlierFraction: Double, random: inout SamplingRandom,
                           focal: Double = focal) -> (normalised: [SIMD2<Double>], inliers: Set<Int>) {
        var observed: [SIMD2<Double>] = [], inliers = Set<Int>()
        for (i, point) in scene.normalised.enumerated() {
            if random.unit() < outlierFraction {
                observed.append(SIMD2(random.unit() - 0.5, random.unit() - 0.5))
            } else {
                inliers.insert(i)
                observed.append(point + SIMD2(random.gaussian(), random.gaussian()) / focal)
            }
        }
        return (observed, inliers)
    }

    /// 200 points, 1 px noise, 40% outliers, over 5 scenes: rotation within 0.1°, centre within
    /// 0.5% of the depth, the inliers the true ones (an outlier may land within 12 px by chance).
    func testRegistersThroughOutliers() throws {
        var random = SamplingRandom(seed: 31)
        for trial in 0 ..< 5 {
            let scene = PoseTestScene(count: 200, random: &random)
            let data = corrupted(scene, outlierFraction: 0.4, random: &random)
            let estimate = try XCTUnwrap(AbsolutePoseEstimator.estimate(normalised: data.normalised, pointsInWorld: scene.pointsInWorld,
                                                                        focalLengthPixels: Self.focal, options: AbsolutePoseOptions()))
            XCTAssertLessThan(PoseTestScene.rotationErrorDegrees(estimate.camFromWorld, scene.camFromWorld), 0.1, "trial \(trial)")
            XCTAssertLessThan((estimate.camFromWorld.centre - scene.camFromWorld.centre).length, 0.005 * scene.meanDepth, "trial \(trial)")
            XCTAssertEqual(estimate.inliers, estimate.inliers.sorted())
            let found = Set(estimate.inliers)
            XCTAssertTrue(data.inliers.isSubset(of: found), "trial \(trial): true inliers missed")
            XCTAssertLessThanOrEqual(found.subtracting(data.inliers).count, 3, "trial \(trial): outliers accepted")
            XCTAssertEqual(estimate.focalLengthPixels, Self.focal)
        }
    }

    /// A flat scene (a garment spread on a table) seen obliquely: EPnP refuses coplanar points,
    /// so local optimisation runs on the non-linear refinement alone, and the pose is still found.
    func testRegistersAPlanarScene() throws {
        var random = SamplingRandom(seed: 36)
        let truth = CameraPose(centre: [1.5, -1, 4], lookingAt: [0.2, 0.1, 0], up: [0, 0, 1])
        var world: [SIMD3<Double>] = [], observed: [SIMD2<Double>] = [], inliers = Set<Int>()
        while world.count < 150 {
            let point = SIMD3(random.unit() * 4 - 2, random.unit() * 4 - 2, 0)
            let inCam = truth.pointInCam(point)
            guard inCam.z > 0 else { continue }
            if random.unit() < 0.3 {
                observed.append(SIMD2(random.unit() - 0.5, random.unit() - 0.5))
            } else {
                inliers.insert(world.count)
                let noise = SIMD2(random.gaussian(), random.gaussian()) / Self.focal
                observed.append(SIMD2(inCam.x / inCam.z, inCam.y / inCam.z) + noise)
            }
            world.append(point)
        }
        XCTAssertNil(EPnPSolver.camFromWorld(normalised: observed, pointsInWorld: world, indices: inliers.sorted()))
        let estimate = try XCTUnwrap(AbsolutePoseEstimator.estimate(normalised: observed, pointsInWorld: world,
                                                                    focalLengthPixels: Self.focal, options: AbsolutePoseOptions()))
        XCTAssertLessThan(PoseTestScene.rotationErrorDegrees(estimate.camFromWorld, truth), 0.1)
        XCTAssertLessThan((estimate.camFromWorld.centre - truth.centre).length, 0.005 * 4.5)
        XCTAssertTrue(inliers.isSubset(of: Set(estimate.inliers)))
    }

    /// The focal length given is 10% too long; refining it with the pose brings it within 1%.
    func testRefinesAFocalLengthTenPercentOff() throws {
        var random = SamplingRandom(seed: 32)
        for trial in 0 ..< 3 {
            let scene = PoseTestScene(count: 200, random: &random, depths: 3 ... 9, halfField: 0.6)
            let data = corrupted(scene, outlierFraction: 0.2, random: &random)
            let guess = Self.focal * 1.1
            // The measured pixel offsets f·normalised, expressed under the guessed focal length.
            let underGuess = data.normalised.map { $0 * (Self.focal / guess) }
            var options = AbsolutePoseOptions()
            options.refineFocalLength = true
            let estimate = try XCTUnwrap(AbsolutePoseEstimator.estimate(normalised: underGuess, pointsInWorld: scene.pointsInWorld,
                                                                        focalLengthPixels: guess, options: options))
            XCTAssertEqual(estimate.focalLengthPixels, Self.focal, accuracy: 0.01 * Self.focal, "trial \(trial)")
            XCTAssertLessThan(PoseTestScene.rotationErrorDegrees(estimate.camFromWorld, scene.camFromWorld), 0.2, "trial \(trial)")
            XCTAssertGreaterThanOrEqual(Set(estimate.inliers).intersection(data.inliers).count, data.inliers.count - 2, "trial \(trial)")

            // Held fixed, the wrong focal length is kept and fits worse.
            options.refineFocalLength = false
            let fixed = AbsolutePoseEstimator.estimate(normalised: underGuess, pointsInWorld: scene.pointsInWorld,
                                                       focalLengthPixels: guess, options: options)
            XCTAssertEqual(fixed?.focalLengthPixels, guess)
        }
    }

    /// The refiner alone: from a pose 2° and 5% of the depth off, on exact data with 30% gross
    /// outliers, the Cauchy loss brings it back to the truth.
    func testPoseRefinerRecoversThePoseDespiteOutliers() {
        var random = SamplingRandom(seed: 33)
        let scene = PoseTestScene(count: 100, random: &random)
        var observed = scene.normalised
        for i in stride(from: 0, to: 100, by: 3) { observed[i] += SIMD2(0.05, -0.04) }
        let truth = scene.camFromWorld
        let start = CameraPose(quaternion: Quaternion(Matrix3.rotation(vector: [0.02, -0.025, 0.01]) * truth.camFromWorld),
                               translation: truth.translation + SIMD3(0.1, -0.2, 0.15))
        let refined = PoseRefiner.refine(camFromWorld: start, focalLengthPixels: Self.focal, normalised: observed,
                                         pointsInWorld: scene.pointsInWorld, indices: Array(0 ..< 100))
        XCTAssertLessThan(PoseTestScene.rotationErrorDegrees(refined.camFromWorld, truth), 1e-3)
        XCTAssertLessThan((refined.camFromWorld.centre - truth.centre).length, 1e-4 * scene.meanDepth)
        XCTAssertEqual(refined.focalLengthPixels, Self.focal)
    }

    func testPointsBehindTheCameraHaveInfiniteResidual() {
        let problem = AbsolutePoseProblem(normalised: [[0.1, 0.2], [0.1, 0.2]], pointsInWorld: [[1, 2, -10], [1, 2, 10]], focalLengthPixels: 500)
        let identity = CameraPose(quaternion: Quaternion(w: 1, x: 0, y: 0, z: 0), translation: .zero)
        XCTAssertEqual(problem.squaredResidual(identity, index: 0), .infinity)
        XCTAssertEqual(problem.squaredResidual(identity, index: 1), 0, accuracy: 1e-20)
    }

    /// Points that are all behind the camera that saw them: no rigid pose puts them in front
    /// with these projections, so there is no registration.
    func testAllPointsBehindGiveNil() {
        var random = SamplingRandom(seed: 34)
        let scene = PoseTestScene(count: 100, random: &random)
        let inverse = scene.camFromWorld.camFromWorld.transposed
        // Mirror every point through the camera centre: the same normalised coordinates, negative depth.
        let behind = scene.pointsInWorld.map { point -> SIMD3<Double> in
            let inCam = scene.camFromWorld.pointInCam(point)
            return inverse * (-inCam - scene.camFromWorld.translation)
        }
        XCTAssertTrue(behind.allSatisfy { scene.camFromWorld.pointInCam($0).z < 0 })
        XCTAssertNil(AbsolutePoseEstimator.estimate(normalised: scene.normalised, pointsInWorld: behind,
                                                    focalLengthPixels: Self.focal, options: AbsolutePoseOptions()))
    }

    func testTooFewOrMismatchedCorrespondencesGiveNil() {
        var random = SamplingRandom(seed: 35)
        let scene = PoseTestScene(count: 20, random: &random)
        let options = AbsolutePoseOptions()
        // 20 exact correspondences are fewer than the 30 inliers required.
        XCTAssertNil(AbsolutePoseEstimator.estimate(normalised: scene.normalised, pointsInWorld: scene.pointsInWorld,
                                                    focalLengthPixels: Self.focal, options: options))
        var lenient = options
        lenient.minInlierCount = 10
        XCTAssertNotNil(AbsolutePoseEstimator.estimate(normalised: scene.normalised, pointsInWorld: scene.pointsInWorld,
                                                       focalLengthPixels: Self.focal, options: lenient))
        XCTAssertNil(AbsolutePoseEstimator.estimate(normalised: Array(scene.normalised.prefix(2)), pointsInWorld: Array(scene.pointsInWorld.prefix(2)),
                                                    focalLengthPixels: Self.focal, options: lenient))
        XCTAssertNil(AbsolutePoseEstimator.estimate(normalised: scene.normalised, pointsInWorld: Array(scene.pointsInWorld.prefix(5)),
                                                    focalLengthPixels: Self.focal, options: lenient))
        XCTAssertNil(AbsolutePoseEstimator.estimate(normalised: scene.normalised, pointsInWorld: scene.pointsInWorld,
                                                    focalLengthPixels: 0, options: lenient))
        // Three collinear world points only: every sample is degenerate.
        let line = (0 ..< 40).map { SIMD3<Double>(Double($0 % 3), 0, 5) }
        XCTAssertNil(AbsolutePoseEstimator.estimate(normalised: line.map { SIMD2($0.x / 5, 0) }, pointsInWorld: line,
                                                    focalLengthPixels: Self.focal, options: lenient))
    }
}
