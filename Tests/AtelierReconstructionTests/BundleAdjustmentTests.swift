import AtelierGeometry
@testable import AtelierReconstruction
import XCTest

final class BundleAdjustmentTests: XCTestCase {
    /// 30 cameras around 2,000 points, 0.5 px noise and 5% gross outliers, everything but the
    /// gauge perturbed: with the Cauchy loss the inliers' RMS comes down to the noise level
    /// (√2 · 0.5 px for a 2-D error) and poses and intrinsics come back close to the truth.
    func testRecoversRingSceneThroughOutliers() {
        let scene = BundleAdjustmentScene()
        var problem = scene.perturbed(seed: 11)
        let before = scene.inlierRMS(problem)
        let report = BundleAdjuster.adjust(&problem, options: scene.gaugeOptions)

        XCTAssertEqual(report.termination, .converged)
        XCTAssertGreaterThan(before, 10, "the perturbation should be large")
        var truthOptions = scene.gaugeOptions, atTruth = scene.truth
        truthOptions.maxIterations = 0
        let truthCost = BundleAdjuster.adjust(&atTruth, options: truthOptions).initialCost
        XCTAssertLessThan(report.finalCost, truthCost, "the optimum must fit at least as well as the truth")
        XCTAssertLessThan(report.finalCost, report.initialCost / 5)
        let rms = scene.inlierRMS(problem)
        XCTAssertLessThan(rms, 0.75, "inlier RMS \(rms) px, noise is 0.71 px")
        XCTAssertGreaterThan(rms, 0.6, "fitting the noise away would mean too many degrees of freedom")
        for i in problem.poses.indices {
            let degrees = Matrix3.angleBetween(problem.poses[i].camFromWorld, scene.truth.poses[i].camFromWorld) * 180 / .pi
            XCTAssertLessThan(degrees, 0.05, "image \(i)")
        }
        XCTAssertEqual(problem.cameras[0].focalLengthPixels / 1000, 1, accuracy: 0.003)
        XCTAssertEqual(problem.cameras[0].k1, -0.05, accuracy: 0.005)
        XCTAssertEqual(problem.poses[0], scene.truth.poses[0])
        XCTAssertEqual(problem.poses[1].translation[scene.gaugeAxis], scene.truth.poses[1].translation[scene.gaugeAxis])
    }

    /// Without a robust loss the outliers drag the solution away: the test above can fail.
    func testTrivialLossIsHurtByOutliers() {
        let scene = BundleAdjustmentScene(imageCount: 12, pointCount: 500)
        var problem = scene.perturbed(seed: 3)
        var options = scene.gaugeOptions
        options.loss = .trivial
        _ = BundleAdjuster.adjust(&problem, options: options)
        XCTAssertGreaterThan(scene.inlierRMS(problem), 1.0)
    }

    /// With the gauge held, the optimum is unique: two different starts end at the same place.
    func testGaugeFixedSolutionIsUnique() {
        let scene = BundleAdjustmentScene(imageCount: 12, pointCount: 600)
        var options = scene.gaugeOptions
        options.functionTolerance = 1e-14
        options.parameterTolerance = 1e-14
        options.gradientTolerance = 1e-12
        options.maxIterations = 300
        var first = scene.perturbed(seed: 21), second = scene.perturbed(seed: 22, rotationDegrees: 0.3, focalError: -0.02)
        XCTAssertNotEqual(first.poses[3], second.poses[3])
        _ = BundleAdjuster.adjust(&first, options: options)
        _ = BundleAdjuster.adjust(&second, options: options)
        for i in first.poses.indices {
            XCTAssertLessThan((first.poses[i].centre - second.poses[i].centre).length, 1e-6, "image \(i)")
        }
        XCTAssertEqual(first.cameras[0].focalLengthPixels, second.cameras[0].focalLengthPixels, accuracy: 1e-5)
        XCTAssertEqual(first.cameras[0].k1, second.cameras[0].k1, accuracy: 1e-8)
    }

    /// Held poses come back bit-identical; points seen only by held images still move.
    func testConstantPosesStayBitIdentical() {
        let scene = BundleAdjustmentScene(imageCount: 10, pointCount: 400, outlierRatio: 0)
        var problem = scene.perturbed(seed: 5)
        // A point seen only by held images 0 and 3, displaced from the truth.
        problem.points.append(scene.truth.points[0] + [0.01, 0, 0])
        for image in [0, 3] {
            let camera = scene.truth.cameras[0]
            let pixel = camera.project(scene.truth.poses[image].pointInCam(scene.truth.points[0]))!
            problem.observations.append(BundleAdjustmentObservation(image: Int32(image), point: Int32(problem.points.count - 1), pixel: pixel))
        }
        let start = problem
        var options = scene.gaugeOptions
        options.constantPoses = [0, 3, 7]
        let report = BundleAdjuster.adjust(&problem, options: options)
        XCTAssertLessThan(report.finalCost, report.initialCost)
        for i in [0, 3, 7] { XCTAssertEqual(problem.poses[i], start.poses[i]) }
        XCTAssertNotEqual(problem.poses[2], start.poses[2])
        XCTAssertNotEqual(problem.points.last, start.points.last)
    }

    /// Held cameras keep their intrinsics, and local adjustment costs only the variable columns.
    func testConstantCamerasAndLocalLayout() throws {
        let scene = BundleAdjustmentScene(imageCount: 10, pointCount: 300, outlierRatio: 0)
        var problem = scene.perturbed(seed: 6, focalError: 0)
        var options = BundleAdjustmentOptions()
        options.constantPoses = Set(0 ..< 10).subtracting([4, 5])
        options.constantCameras = [0]
        options.constantPoints = [1, 2]
        let layout = try BundleAdjustmentLayout.make(problem, options: options).get()
        XCTAssertEqual(layout.columnCount, 12)
        XCTAssertFalse(layout.variablePoints.contains(1))
        let camera = problem.cameras[0], held = problem.points[1]
        _ = BundleAdjuster.adjust(&problem, options: options)
        XCTAssertEqual(problem.cameras[0], camera)
        XCTAssertEqual(problem.points[1], held)
    }

    /// One thread or two: the same bits (every sum is taken in a fixed order).
    func testThreadCountDoesNotChangeTheResult() {
        let scene = BundleAdjustmentScene(imageCount: 12, pointCount: 5000, visibility: 0.4)
        var one = scene.perturbed(seed: 8), two = one
        var options = scene.gaugeOptions
        options.maxIterations = 8
        options.threads = 1
        let reportOne = BundleAdjuster.adjust(&one, options: options)
        options.threads = 2
        let reportTwo = BundleAdjuster.adjust(&two, options: options)
        XCTAssertEqual(reportOne.finalCost, reportTwo.finalCost)
        XCTAssertEqual(one.poses, two.poses)
        XCTAssertEqual(one.points, two.points)
        XCTAssertEqual(one.cameras, two.cameras)
    }

    func testEmptyProblemsReturn() {
        var empty = BundleAdjustmentProblem(cameras: [], imageCamera: [], poses: [], points: [], observations: [])
        XCTAssertEqual(BundleAdjuster.adjust(&empty, options: BundleAdjustmentOptions()).termination, .converged)

        let scene = BundleAdjustmentScene(imageCount: 4, pointCount: 20)
        var unobserved = scene.truth
        unobserved.observations = []
        let report = BundleAdjuster.adjust(&unobserved, options: BundleAdjustmentOptions())
        XCTAssertEqual(report.termination, .converged)
        XCTAssertEqual(report.iterations, 0)
        XCTAssertEqual(unobserved.points, scene.truth.points)
    }

    /// An observation of a point behind its camera carries no weight and does not crash; the
    /// point, observed nowhere else, stays put.
    func testPointBehindCameraIsLeftAlone() {
        let scene = BundleAdjustmentScene(imageCount: 6, pointCount: 100, outlierRatio: 0)
        var problem = scene.perturbed(seed: 9)
        let behind = problem.poses[2].centre - 2 * problem.poses[2].forward
        problem.points.append(behind)
        problem.observations.append(BundleAdjustmentObservation(image: 2, point: Int32(problem.points.count - 1), pixel: [600, 450]))
        let report = BundleAdjuster.adjust(&problem, options: scene.gaugeOptions)
        XCTAssertEqual(report.termination, .converged)
        XCTAssertEqual(problem.points.last, behind)
        XCTAssertLessThan(scene.inlierRMS(problem.droppingLastPoint()), 0.8)
    }

    func testMalformedProblemsFail() {
        let scene = BundleAdjustmentScene(imageCount: 3, pointCount: 10)
        var badImage = scene.truth
        badImage.observations.append(BundleAdjustmentObservation(image: 3, point: 0, pixel: [1, 1]))
        guard case .failed = BundleAdjuster.adjust(&badImage, options: BundleAdjustmentOptions()).termination else {
            return XCTFail("an observation of a missing image must fail")
        }
        var badCamera = scene.truth
        badCamera.imageCamera[1] = 2
        guard case .failed = BundleAdjuster.adjust(&badCamera, options: BundleAdjustmentOptions()).termination else {
            return XCTFail("a missing camera must fail")
        }
        var options = BundleAdjustmentOptions()
        options.loss = .cauchy(scalePixels: 0)
        var problem = scene.truth
        guard case .failed = BundleAdjuster.adjust(&problem, options: options).termination else {
            return XCTFail("a zero loss scale must fail")
        }
        XCTAssertEqual(problem.poses, scene.truth.poses)
    }
}

private extension BundleAdjustmentProblem {
    /// The problem without its last point and the observations of it.
    func droppingLastPoint() -> BundleAdjustmentProblem {
        var copy = self
        let last = Int32(points.count - 1)
        copy.points.removeLast()
        copy.observations.removeAll { $0.point == last }
        return copy
    }
}
