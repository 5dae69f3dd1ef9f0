import AtelierGeometry
@testable import AtelierReconstruction
import XCTest

final class TwoViewGeometryTests: XCTestCase {
    private let camera = TwoViewScene.camera

    /// Verification of a scene with 30% wrong matches: the configuration, the pose to 0.1° and
    /// 0.5°, and the inliers against the truth.
    private func assertRecovers(_ scene: TwoViewScene, file: StaticString = #filePath, line: UInt = #line) throws {
        let geometry = try XCTUnwrap(TwoViewGeometryEstimator.estimate(pixels1: scene.pixels1, camera1: camera, pixels2: scene.pixels2,
                                                                         camera2: camera, options: TwoViewGeometryOptions()), file: file, line: line)
        XCTAssertEqual(geometry.configuration, .calibrated, file: file, line: line)
        let pose = try XCTUnwrap(geometry.relativePose, file: file, line: line)
        XCTAssertLessThan(scene.rotationErrorDegrees(pose), 0.1, file: file, line: line)
        XCTAssertLessThan(scene.translationErrorDegrees(pose), 0.5, file: file, line: line)
        XCTAssertEqual(pose.translation.length, 1, accuracy: 1e-9, file: file, line: line)
        let found = Set(geometry.inliers)
        XCTAssertEqual(geometry.inliers, geometry.inliers.sorted(), file: file, line: line)
        XCTAssertGreaterThanOrEqual(found.intersection(scene.trueInliers).count, scene.trueInliers.count * 97 / 100, file: file, line: line)
        // A wrong match lands in the 8-pixel-wide band around its epipolar line with a chance of a
        // few percent: allow one in twelve.
        let outlierCount = scene.pixels1.count - scene.trueInliers.count
        XCTAssertLessThanOrEqual(found.subtracting(scene.trueInliers).count, outlierCount / 12, file: file, line: line)
        XCTAssertGreaterThan(geometry.medianTriangulationAngle, 1 * .pi / 180, file: file, line: line)
    }

    func testGeneralMotion() throws {
        for seed: UInt64 in [1, 2, 3, 4] { try assertRecovers(TwoViewScene(seed: seed, motion: .general)) }
    }

    func testForwardMotion() throws {
        try assertRecovers(TwoViewScene(seed: 11, motion: .forward))
    }

    func testSidewaysMotion() throws {
        try assertRecovers(TwoViewScene(seed: 12, motion: .sideways))
    }

    /// A camera turning on the spot: every match fits a homography and a rotation, so the pair
    /// is panoramic, never a pose with an invented translation.
    func testPureRotationIsPanoramic() throws {
        for seed: UInt64 in [13, 20] {
            let scene = TwoViewScene(seed: seed, motion: .rotationOnly)
            let geometry = try XCTUnwrap(TwoViewGeometryEstimator.estimate(pixels1: scene.pixels1, camera1: camera, pixels2: scene.pixels2,
                                                                             camera2: camera, options: TwoViewGeometryOptions()))
            XCTAssertEqual(geometry.configuration, .panoramic)
            XCTAssertNil(geometry.relativePose)
            XCTAssertEqual(geometry.medianTriangulationAngle, 0)
            XCTAssertGreaterThanOrEqual(Set(geometry.inliers).intersection(scene.trueInliers).count, scene.trueInliers.count * 95 / 100)
        }
    }

    /// Points on one plane seen from two places: a homography explains them all, and a pose is
    /// still returned. Only its fit is checked: two poses explain a plane equally well
    /// (Longuet-Higgins 1986), and with seed 14 the estimator returns the other one.
    func testPlanarScene() throws {
        for seed: UInt64 in [14, 23] {
            let scene = TwoViewScene(seed: seed, motion: .general, planar: true)
            let geometry = try XCTUnwrap(TwoViewGeometryEstimator.estimate(pixels1: scene.pixels1, camera1: camera, pixels2: scene.pixels2,
                                                                             camera2: camera, options: TwoViewGeometryOptions()))
            XCTAssertEqual(geometry.configuration, .planar)
            XCTAssertGreaterThanOrEqual(Set(geometry.inliers).intersection(scene.trueInliers).count, scene.trueInliers.count * 97 / 100)
            let pose = try XCTUnwrap(geometry.relativePose)
            let e = EssentialMatrix.from(cam2FromCam1: pose)
            let n1 = scene.normalised1, n2 = scene.normalised2
            let rms = (scene.trueInliers.map { FundamentalMatrixEightPoint.squaredSampsonError(e, n1[$0], n2[$0]) }.reduce(0, +)
                / Double(scene.trueInliers.count)).squareRoot() * camera.focalLengthPixels
            XCTAssertLessThan(rms, 1, "RMS Sampson error in pixels")
        }
    }

    func testTooFewMatchesGiveNil() {
        let scene = TwoViewScene(seed: 15, motion: .general, count: 14, outlierRatio: 0)
        XCTAssertNil(TwoViewGeometryEstimator.estimate(pixels1: scene.pixels1, camera1: camera, pixels2: scene.pixels2,
                                                       camera2: camera, options: TwoViewGeometryOptions()))
    }

    /// Matches that are all wrong: no model gets a quarter of them.
    func testRandomMatchesGiveNil() {
        let scene = TwoViewScene(seed: 16, motion: .general, outlierRatio: 1)
        XCTAssertNil(TwoViewGeometryEstimator.estimate(pixels1: scene.pixels1, camera1: camera, pixels2: scene.pixels2,
                                                       camera2: camera, options: TwoViewGeometryOptions()))
    }

    /// Each RANSAC problem alone: E has singular values (1, 1, 0) and the true inliers' Sampson
    /// errors are at the noise level; F has rank 2; H maps the planar scene's inliers within a few
    /// pixels.
    func testModelsSatisfyTheirConstraints() throws {
        let scene = TwoViewScene(seed: 17, motion: .general)
        let n1 = scene.normalised1, n2 = scene.normalised2
        let threshold = EssentialMatrixProblem.maxResidual(pixels: 4, focalLength1Pixels: camera.focalLengthPixels, focalLength2Pixels: camera.focalLengthPixels)
        let e = try XCTUnwrap(RANSAC.estimate(EssentialMatrixProblem(normalised1: n1, normalised2: n2), options: RANSACOptions(maxResidual: threshold)))
        let s = e.model.rotationSVD.singularValues
        XCTAssertEqual(s.y / s.x, 1, accuracy: 1e-9)
        XCTAssertEqual(s.z / s.x, 0, accuracy: 1e-9)
        let truthE = EssentialMatrix.from(cam2FromCam1: scene.cam2FromCam1).normalisedToUnitNorm
        XCTAssertLessThan(min((e.model - truthE).frobeniusNormSquared, (e.model + truthE).frobeniusNormSquared).squareRoot(), 0.01)
        let rmsE = (scene.trueInliers.map { FundamentalMatrixEightPoint.squaredSampsonError(e.model, n1[$0], n2[$0]) }
            .reduce(0, +) / Double(scene.trueInliers.count)).squareRoot() * camera.focalLengthPixels
        XCTAssertLessThan(rmsE, 1, "RMS Sampson error in pixels")

        let f = try XCTUnwrap(RANSAC.estimate(FundamentalMatrixProblem(pixels1: scene.pixels1, pixels2: scene.pixels2), options: RANSACOptions(maxResidual: 4)))
        let sf = f.model.rotationSVD.singularValues
        XCTAssertEqual(sf.z / sf.x, 0, accuracy: 1e-12)
        XCTAssertGreaterThanOrEqual(Set(f.inliers).intersection(scene.trueInliers).count, scene.trueInliers.count * 97 / 100)

        let planar = TwoViewScene(seed: 18, motion: .general, planar: true)
        let h = try XCTUnwrap(RANSAC.estimate(HomographyProblem(pixels1: planar.pixels1, pixels2: planar.pixels2), options: RANSACOptions(maxResidual: 4)))
        let worst = planar.trueInliers.map { HomographyFourPoint.squaredTransferError(h.model, planar.pixels1[$0], planar.pixels2[$0]) }.max()!
        XCTAssertLessThan(worst.squareRoot(), 4)
        XCTAssertGreaterThanOrEqual(Set(h.inliers).intersection(planar.trueInliers).count, planar.trueInliers.count * 97 / 100)
    }

    /// Four points with three on a line make no homography; seven points make no F.
    func testLinearSolversRejectDegenerateInput() {
        let collinear: [SIMD2<Double>] = [[0, 0], [1, 1], [2, 2], [5, 1]]
        XCTAssertNil(HomographyFourPoint.fit(collinear, [[0, 0], [1, 0], [0, 1], [1, 1]]))
        XCTAssertNil(FundamentalMatrixEightPoint.fit(Array(repeating: [1, 2], count: 7), Array(repeating: [3, 4], count: 7)))
        XCTAssertNil(FundamentalMatrixEightPoint.fit(Array(repeating: [1, 2], count: 9), Array(repeating: [3, 4], count: 9)))
    }

    /// The four decompositions of E and the cheirality vote on exact data give back the pose.
    func testRelativePoseFromExactEssentialMatrix() throws {
        let scene = TwoViewScene(seed: 19, motion: .general, noisePixels: 0, outlierRatio: 0)
        let e = EssentialMatrix.from(cam2FromCam1: scene.cam2FromCam1)
        let pose = try XCTUnwrap(RelativePose.recover(essential: -3 * e, normalised1: scene.normalised1, normalised2: scene.normalised2))
        XCTAssertEqual(pose.inFront.count, scene.pointsInCam1.count)
        XCTAssertLessThan(scene.rotationErrorDegrees(pose.cam2FromCam1), 1e-6)
        XCTAssertLessThan(scene.translationErrorDegrees(pose.cam2FromCam1), 1e-6)
    }
}
