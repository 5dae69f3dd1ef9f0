import AtelierGeometry
@testable import AtelierReconstruction
import XCTest

final class ReprojectionJacobianTests: XCTestCase {
    /// Every analytic column matches central finite differences to 1e-6 relative, for random
    /// cameras, poses and points with strong distortion.
    func testMatchesCentralDifferences() throws {
        var random = SamplingRandom(seed: 4)
        for trial in 0 ..< 50 {
            let camera = CameraIntrinsics(width: 1000, height: 800, focalLengthPixels: 600 + 800 * random.unit(),
                                          principalPoint: [480 + 40 * random.unit(), 390 + 20 * random.unit()],
                                          k1: 0.2 * random.unit() - 0.1, k2: 0.1 * random.unit() - 0.05)
            let pose = CameraPose(quaternion: Quaternion(Matrix3.rotation(vector: BundleAdjustmentScene.direction(&random) * 2 * random.unit())),
                                  translation: BundleAdjustmentScene.direction(&random) * random.unit())
            // A point in front, within a 45° cone.
            let inCam = SIMD3(random.unit() - 0.5, random.unit() - 0.5, 1) * (1 + 4 * random.unit())
            let point = pose.camFromWorld.transposed * (inCam - pose.translation)
            let observed = SIMD2(random.unit() * 1000, random.unit() * 800)
            let jacobian = try XCTUnwrap(ReprojectionJacobian(camera: camera, pose: pose, point: point, observed: observed))
            XCTAssertEqual(jacobian.residual, ReprojectionJacobian.residual(camera: camera, pose: pose, point: point, observed: observed))

            func residual(_ camera: CameraIntrinsics, _ pose: CameraPose, _ point: SIMD3<Double>) -> SIMD2<Double> {
                ReprojectionJacobian.residual(camera: camera, pose: pose, point: point, observed: observed)!
            }
            func check(_ analytic: SIMD2<Double>, step: Double, _ name: String, _ at: (Double) -> SIMD2<Double>) {
                let numeric = (at(step) - at(-step)) / (2 * step)
                let error = ((analytic - numeric) * (analytic - numeric)).sum().squareRoot()
                let size = (analytic * analytic).sum().squareRoot()
                XCTAssertLessThanOrEqual(error, 1e-6 * max(size, 1e-3), "trial \(trial), \(name): \(analytic) vs \(numeric)")
            }
            for axis in 0 ..< 3 {
                var unit = SIMD3<Double>(repeating: 0)
                unit[axis] = 1
                check(SIMD2(jacobian.byPoseX[axis], jacobian.byPoseY[axis]), step: 1e-6, "δθ\(axis)") { h in
                    let turned = Matrix3.rotation(vector: unit * h) * pose.camFromWorld
                    return residual(camera, CameraPose(quaternion: Quaternion(turned), translation: pose.translation), point)
                }
                check(SIMD2(jacobian.byPoseX[3 + axis], jacobian.byPoseY[3 + axis]), step: 1e-6, "δt\(axis)") { h in
                    residual(camera, CameraPose(quaternion: pose.quaternion, translation: pose.translation + unit * h), point)
                }
                check(SIMD2(jacobian.byPointX[axis], jacobian.byPointY[axis]), step: 1e-6, "X\(axis)") { h in
                    residual(camera, pose, point + unit * h)
                }
            }
            let intrinsics: [(String, Double, WritableKeyPath<CameraIntrinsics, Double>)] = [
                ("f", 1e-3, \.focalLengthPixels), ("cx", 1e-3, \.principalPoint.x), ("cy", 1e-3, \.principalPoint.y),
                // The residual is linear in k1 and k2, so a large step loses nothing to truncation
                // and keeps the rounding of ~1000 px pixels small against tiny k2 columns.
                ("k1", 1e-2, \.k1), ("k2", 1e-2, \.k2),
            ]
            for (index, (name, step, path)) in intrinsics.enumerated() {
                check(SIMD2(jacobian.byIntrinsicsX[index], jacobian.byIntrinsicsY[index]), step: step, name) { h in
                    var moved = camera
                    moved[keyPath: path] += h
                    return residual(moved, pose, point)
                }
            }
        }
    }

    func testPointBehindTheCameraHasNoJacobian() {
        let camera = CameraIntrinsics(width: 100, height: 100, focalLengthPixels: 100)
        let pose = CameraPose(quaternion: Quaternion(w: 1, x: 0, y: 0, z: 0), translation: .zero)
        XCTAssertNil(ReprojectionJacobian(camera: camera, pose: pose, point: [0, 0, -1], observed: .zero))
        XCTAssertNil(ReprojectionJacobian.residual(camera: camera, pose: pose, point: [1, 0, 0], observed: .zero))
    }
}
