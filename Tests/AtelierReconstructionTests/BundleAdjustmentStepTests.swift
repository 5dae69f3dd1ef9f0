import AtelierGeometry
@testable import AtelierReconstruction
import XCTest

/// The Schur-complement step against a brute-force one: the full Jacobian by finite
/// differences, the damped normal equations `(H + λD) δ = −g` formed densely and solved whole.
final class BundleAdjustmentStepTests: XCTestCase {
    func testSchurStepMatchesDenseStep() throws {
        let scene = BundleAdjustmentScene(imageCount: 5, pointCount: 25, visibility: 1, outlierRatio: 0.1)
        var problem = scene.perturbed(seed: 3)
        problem.cameras.append(problem.cameras[0])
        problem.cameras[1].focalLengthPixels = 950
        problem.imageCamera = [0, 0, 0, 1, 1]
        var options = BundleAdjustmentOptions()
        options.loss = .cauchy(scalePixels: 2)
        options.refinePrincipalPoint = true
        options.constantPoses = [0]
        options.constantTranslationComponent = (image: 1, axis: 2)
        options.constantCameras = [1]
        options.constantPoints = [3]
        let lambda = 1e-3

        // Parameters in the layout's documented order: camera 0's intrinsics, then the poses of
        // images 1–4 (image 1 without δtz), then the variable points.
        enum Parameter { case intrinsic(Int), pose(image: Int, Int), point(Int, Int) }
        var parameters: [Parameter] = (0 ..< 5).map { .intrinsic($0) }
        for image in 1 ..< 5 { for k in 0 ..< 6 where !(image == 1 && k == 5) { parameters.append(.pose(image: image, k)) } }
        for j in problem.points.indices where j != 3 { for axis in 0 ..< 3 { parameters.append(.point(j, axis)) } }

        func moved(_ parameter: Parameter, by h: Double) -> BundleAdjustmentProblem {
            var copy = problem
            switch parameter {
            case .intrinsic(let k):
                let paths: [WritableKeyPath<CameraIntrinsics, Double>] = [\.focalLengthPixels, \.principalPoint.x, \.principalPoint.y, \.k1, \.k2]
                copy.cameras[0][keyPath: paths[k]] += h
            case .pose(let image, let k):
                let pose = copy.poses[image]
                var increment = SIMD3<Double>(repeating: 0)
                increment[k % 3] = h
                copy.poses[image] = k < 3
                    ? CameraPose(quaternion: Quaternion(Matrix3.rotation(vector: increment) * pose.camFromWorld), translation: pose.translation)
                    : CameraPose(quaternion: pose.quaternion, translation: pose.translation + increment)
            case .point(let j, let axis):
                copy.points[j][axis] += h
            }
            return copy
        }
        func residuals(_ p: BundleAdjustmentProblem) -> [Double] {
            p.observations.flatMap { o -> [Double] in
                let camera = p.cameras[p.imageCamera[Int(o.image)]]
                let r = camera.project(p.poses[Int(o.image)].pointInCam(p.points[Int(o.point)]))! - o.pixel
                return [r.x, r.y]
            }
        }
        let r0 = residuals(problem)
        let loss = try XCTUnwrap(RobustLoss(options.loss))
        let rowScale = (0 ..< r0.count).map { i in
            loss.evaluate(r0[i & ~1] * r0[i & ~1] + r0[i | 1] * r0[i | 1]).derivative.squareRoot()
        }
        let n = parameters.count, m = r0.count
        var jacobian = [Double](repeating: 0, count: m * n)   // column-major
        for (c, parameter) in parameters.enumerated() {
            let h: Double
            if case .intrinsic(let k) = parameter { h = k < 3 ? 1e-3 : 1e-6 } else { h = 1e-6 }
            let plus = residuals(moved(parameter, by: h)), minus = residuals(moved(parameter, by: -h))
            for i in 0 ..< m { jacobian[c * m + i] = rowScale[i] * (plus[i] - minus[i]) / (2 * h) }
        }
        var hessian = [Double](repeating: 0, count: n * n), gradient = [Double](repeating: 0, count: n)
        for a in 0 ..< n {
            for i in 0 ..< m { gradient[a] += jacobian[a * m + i] * rowScale[i] * r0[i] }
            for b in 0 ..< n {
                var sum = 0.0
                for i in 0 ..< m { sum += jacobian[a * m + i] * jacobian[b * m + i] }
                hessian[a * n + b] = sum
            }
        }
        var damped = hessian, step = gradient.map { -$0 }
        for a in 0 ..< n { damped[a * n + a] += lambda * min(1e32, max(1e-6, hessian[a * n + a])) }
        damped.withUnsafeMutableBufferPointer { d in
            XCTAssertTrue(DenseCholesky.factor(d.baseAddress!, n: n))
            step.withUnsafeMutableBufferPointer { DenseCholesky.solve(d.baseAddress!, n: n, $0.baseAddress!) }
        }

        let layout = try BundleAdjustmentLayout.make(problem, options: options).get()
        XCTAssertEqual(layout.columnCount + 3 * layout.variablePoints.count, n)
        let workspace = BundleAdjustmentWorkspace(layout: layout, problem: problem, loss: loss, threads: 2)
        _ = workspace.linearise(BundleAdjustmentParameters(cameras: problem.cameras, poses: problem.poses, points: problem.points),
                                imageCamera: problem.imageCamera)
        let solved = try XCTUnwrap(workspace.solve(lambda: lambda))
        let schurStep = (0 ..< layout.columnCount).map { workspace.cameraStep[$0] }
            + (0 ..< 3 * layout.variablePoints.count).map { workspace.pointStep[$0] }
        let stepNorm = step.reduce(0) { $0 + $1 * $1 }.squareRoot()
        XCTAssertGreaterThan(stepNorm, 1e-3)
        for a in 0 ..< n {
            XCTAssertEqual(schurStep[a], step[a], accuracy: 1e-6 * stepNorm, "parameter \(a): \(parameters[a])")
        }
        XCTAssertEqual(solved.stepNorm, stepNorm, accuracy: 1e-6 * stepNorm)
        var modelDecrease = 0.0
        for a in 0 ..< n {
            modelDecrease -= gradient[a] * step[a]
            for b in 0 ..< n { modelDecrease -= 0.5 * step[a] * hessian[a * n + b] * step[b] }
        }
        XCTAssertEqual(solved.modelDecrease, modelDecrease, accuracy: 1e-6 * modelDecrease)
    }
}
