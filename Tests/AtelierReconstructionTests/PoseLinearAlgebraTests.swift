import AtelierGeometry
@testable import AtelierReconstruction
import XCTest

/// The hand-written linear algebra under the pose solvers: Jacobi eigen-decomposition, dense
/// solves, cubic roots and Horn's alignment, each against a truth built in the test.
final class PoseLinearAlgebraTests: XCTestCase {
    /// Random symmetric 12×12 matrices with two repeated near-zero eigenvalues (as EPnP's `MᵀM`
    /// has): `A·v = λ·v` for every pair, the vectors orthonormal, the values ascending.
    func testSymmetricEigenOfRandomMatrices() throws {
        var random = SamplingRandom(seed: 7)
        for n in [3, 4, 12] {
            var a = [Double](repeating: 0, count: n * n)
            for r in 0 ..< n { for c in r ..< n {
                let value = random.unit() * 2 - 1
                a[r * n + c] = value; a[c * n + r] = value
            } }
            let eigen = try XCTUnwrap(PoseSymmetricEigen(a, size: n))
            XCTAssertEqual(eigen.values, eigen.values.sorted())
            for k in 0 ..< n {
                let v = eigen.vectors[k]
                for r in 0 ..< n {
                    let av = (0 ..< n).reduce(0) { $0 + a[r * n + $1] * v[$1] }
                    XCTAssertEqual(av, eigen.values[k] * v[r], accuracy: 1e-11)
                }
                for l in 0 ..< n {
                    let dot = (0 ..< n).reduce(0) { $0 + v[$1] * eigen.vectors[l][$1] }
                    XCTAssertEqual(dot, k == l ? 1 : 0, accuracy: 1e-12)
                }
            }
        }
    }

    func testSymmetricEigenFindsAKnownNullSpace() throws {
        // B·Bᵀ with B 12×8 has rank 8: the four smallest eigenvalues vanish.
        var random = SamplingRandom(seed: 8)
        let b = (0 ..< 96).map { _ in random.unit() - 0.5 }
        var a = [Double](repeating: 0, count: 144)
        for r in 0 ..< 12 { for c in 0 ..< 12 { for k in 0 ..< 8 { a[r * 12 + c] += b[r * 8 + k] * b[c * 8 + k] } } }
        let eigen = try XCTUnwrap(PoseSymmetricEigen(a, size: 12))
        for k in 0 ..< 4 { XCTAssertEqual(eigen.values[k], 0, accuracy: 1e-13) }
        XCTAssertGreaterThan(eigen.values[4], 1e-4)
        XCTAssertNil(PoseSymmetricEigen([1, .nan, .nan, 1], size: 2))
    }

    func testSolveAndLeastSquares() throws {
        let a: [Double] = [0, 2, 1, 1, 1, 1, 3, 0, 2]   // needs pivoting: a[0][0] = 0
        let x = try XCTUnwrap(PoseLinearSystem.solve(a, [5, 4, 5], size: 3))
        for (value, truth) in zip(x, [1.0, 2, 1]) { XCTAssertEqual(value, truth, accuracy: 1e-12) }
        XCTAssertNil(PoseLinearSystem.solve([1, 2, 2, 4], [1, 1], size: 2))

        // A line fitted to four points: y = 2x + 1 with residuals that cancel.
        let rows: [Double] = [0, 1, 1, 1, 2, 1, 3, 1]
        let fit = try XCTUnwrap(PoseLinearSystem.leastSquares(rows, rows: 4, columns: 2, [1.1, 2.9, 5.1, 6.9]))
        XCTAssertEqual(fit[0], 1.96, accuracy: 1e-12)
        XCTAssertEqual(fit[1], 1.06, accuracy: 1e-12)
        XCTAssertNil(PoseLinearSystem.leastSquares([1, 2, 2, 4, 3, 6], rows: 3, columns: 2, [1, 2, 3]))
    }

    func testCubicRoots() {
        func check(_ roots: [Double], _ expected: [Double], accuracy: Double = 1e-12, line: UInt = #line) {
            XCTAssertEqual(roots.count, expected.count, line: line)
            for (r, e) in zip(roots, expected) { XCTAssertEqual(r, e, accuracy: accuracy, line: line) }
        }
        // (x − 1)(x − 2)(x + 3) = x³ − 7x + 6
        check(PosePolynomial.realRootsOfCubic(2, 0, -14, 12), [-3, 1, 2])
        // (x − 0.5)(x² + 1): one real root.
        check(PosePolynomial.realRootsOfCubic(1, -0.5, 1, -0.5), [0.5])
        // Widely spread roots 1e-3, 1, 1e3.
        check(PosePolynomial.realRootsOfCubic(1, -1001.001, 1001.001, -1), [1e-3, 1, 1e3], accuracy: 1e-9)
        // Leading coefficient zero: the quadratic x² − 1.
        check(PosePolynomial.realRootsOfCubic(0, 1, 0, -1), [-1, 1])
        check(PosePolynomial.realRootsOfQuadratic(1, 0, 1), [])
    }

    /// Horn's alignment recovers a random rigid motion exactly and refuses collinear points.
    func testRigidAlignment() throws {
        var random = SamplingRandom(seed: 9)
        let truth = CameraPose(quaternion: PoseTestScene.randomQuaternion(&random), translation: [1, -2, 3])
        let world = (0 ..< 6).map { _ in SIMD3(random.unit(), random.unit(), random.unit()) * 4 }
        let pose = try XCTUnwrap(PoseRigidAlignment.camFromWorld(pointsInWorld: world, pointsInCam: world.map(truth.pointInCam)))
        XCTAssertLessThan(Matrix3.angleBetween(pose.camFromWorld, truth.camFromWorld), 1e-12)
        XCTAssertLessThan((pose.translation - truth.translation).length, 1e-12)
        let line = (0 ..< 4).map { SIMD3<Double>(Double($0), 2 * Double($0), 1) }
        XCTAssertNil(PoseRigidAlignment.camFromWorld(pointsInWorld: line, pointsInCam: line.map(truth.pointInCam)))
    }
}
