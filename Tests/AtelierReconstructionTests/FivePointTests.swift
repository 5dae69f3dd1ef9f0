import AtelierGeometry
@testable import AtelierReconstruction
import AtelierTestSupport
import XCTest

final class FivePointTests: XCTestCase {
    /// 100 random poses and five random points seen exactly: one of the solutions is the true
    /// E up to scale and sign, and every solution is an essential matrix through the five points.
    func testExactDataContainsTrueEssentialMatrix() {
        var random = SamplingRandom(seed: 5)
        var worstTrueError = 0.0
        for _ in 0 ..< 100 {
            let axis = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()).normalized
            let rotation = Matrix3.rotation(axis: axis, angleRadians: random.unit() * 0.6)
            let translation = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()).normalized
            let pose = CameraPose(quaternion: Quaternion(rotation), translation: translation)
            var n1: [SIMD2<Double>] = [], n2: [SIMD2<Double>] = []
            while n1.count < 5 {
                let point = SIMD3(random.unit() * 4 - 2, random.unit() * 4 - 2, 3 + 5 * random.unit())
                let inCam2 = pose.pointInCam(point)
                guard inCam2.z > 0.5 else { continue }
                n1.append(SIMD2(point.x / point.z, point.y / point.z))
                n2.append(SIMD2(inCam2.x / inCam2.z, inCam2.y / inCam2.z))
            }
            let truth = EssentialMatrix.from(cam2FromCam1: pose).normalisedToUnitNorm
            let solutions = EssentialMatrixFivePoint.solve(n1, n2)
            XCTAssertFalse(solutions.isEmpty)
            XCTAssertLessThanOrEqual(solutions.count, 10)
            let error = solutions.map { min(($0 - truth).frobeniusNormSquared, ($0 + truth).frobeniusNormSquared).squareRoot() }.min() ?? .infinity
            worstTrueError = max(worstTrueError, error)
            for e in solutions {
                for (p, q) in zip(n1, n2) {
                    XCTAssertEqual(SIMD3(q.x, q.y, 1).dot(e * SIMD3(p.x, p.y, 1)), 0, accuracy: 1e-8)
                }
                let s = e.rotationSVD.singularValues
                XCTAssertEqual(s.x, s.y, accuracy: 1e-6 * s.x, "two equal singular values")
                XCTAssertEqual(s.z, 0, accuracy: 1e-6 * s.x, "one zero singular value")
            }
        }
        XCTAssertLessThan(worstTrueError, 1e-6)
    }

    func testDegenerateSampleGivesNoSolution() {
        let same = [SIMD2<Double>](repeating: [0.1, 0.2], count: 5)
        XCTAssertTrue(EssentialMatrixFivePoint.solve(same, same).isEmpty)
    }

    /// The allocation-free solver against the array-based one it replaced (`ReferenceFivePoint`):
    /// the same essential matrices, up to rounding, on 200 samples, half of them exact views of a
    /// random pose and half random (inconsistent) correspondences. The two are bit-identical but
    /// for the summation order of three-term products in the `det E` row, which ill-conditioned
    /// samples amplify to ~1e-8.
    func testSameSolutionsAsReferenceSolver() {
        var random = SamplingRandom(seed: 17)
        var total = 0
        for trial in 0 ..< 200 {
            var n1: [SIMD2<Double>] = [], n2: [SIMD2<Double>] = []
            if trial % 2 == 0 {
                let axis = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()).normalized
                let rotation = Matrix3.rotation(axis: axis, angleRadians: random.unit() * 0.6)
                let translation = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()).normalized
                let pose = CameraPose(quaternion: Quaternion(rotation), translation: translation)
                while n1.count < 5 {
                    let point = SIMD3(random.unit() * 4 - 2, random.unit() * 4 - 2, 3 + 5 * random.unit())
                    let inCam2 = pose.pointInCam(point)
                    guard inCam2.z > 0.5 else { continue }
                    n1.append(SIMD2(point.x / point.z, point.y / point.z))
                    n2.append(SIMD2(inCam2.x / inCam2.z, inCam2.y / inCam2.z))
                }
            } else {
                for _ in 0 ..< 5 {
                    n1.append(SIMD2(random.gaussian(), random.gaussian()))
                    n2.append(SIMD2(random.gaussian(), random.gaussian()))
                }
            }
            let solutions = EssentialMatrixFivePoint.solve(n1, n2), reference = ReferenceFivePoint.solve(n1, n2)
            XCTAssertEqual(solutions.count, reference.count, "trial \(trial)")
            guard solutions.count == reference.count else { continue }
            total += solutions.count
            for (e, r) in zip(solutions, reference) {
                XCTAssertLessThan((e - r).frobeniusNormSquared.squareRoot(), 1e-6, "trial \(trial)")
            }
        }
        XCTAssertGreaterThan(total, 400)
    }

    /// The iterative root finder against the recursive one it replaced, on random polynomials of
    /// degree 10 (some with small leading coefficients): the same roots, bit for bit.
    func testPolynomialRootsMatchReference() {
        var random = SamplingRandom(seed: 23)
        for trial in 0 ..< 500 {
            var p = (0 ..< 11).map { _ in random.gaussian() * pow(10, 2 * random.unit() - 1) }
            if trial % 5 == 0 { p[10] *= 1e-15 }
            if trial % 7 == 0 { p[0] = 0 }
            XCTAssertEqual(PolynomialRoots.real(p), ReferencePolynomialRoots.real(p), "trial \(trial)")
        }
    }

    /// (x + 2)(x − 0.5)(x − 1)(x − 3)(x² + 1): four real roots, the complex pair ignored.
    func testRealPolynomialRoots() {
        var p: [Double] = [1]
        for factor in [[2.0, 1], [-0.5, 1], [-1, 1], [-3, 1], [1, 0, 1]] { p = ReferenceZPolynomial.multiply(p, factor) }
        let roots = PolynomialRoots.real(p)
        XCTAssertEqual(roots.count, 4)
        for (root, truth) in zip(roots, [-2, 0.5, 1, 3]) { XCTAssertEqual(root, truth, accuracy: 1e-12) }
        XCTAssertTrue(PolynomialRoots.real([1, 0, 1]).isEmpty)
        XCTAssertTrue(PolynomialRoots.real([0, 0]).isEmpty)
        XCTAssertEqual(PolynomialRoots.real([-6, 2]), [3])
    }

    /// Singular values of a random 7 × 9 matrix: the right vectors are orthonormal, `|A vₖ| = σₖ`,
    /// the two last vectors span the null space, and Σσ² is the Frobenius norm². The same for a
    /// tall 40 × 9 matrix, which goes through the QR reduction.
    func testSingularValueDecomposition() {
        var random = SamplingRandom(seed: 9)
        for rows in [7, 40] {
            let values = (0 ..< rows * 9).map { _ in random.gaussian() }
            let svd = SingularValueDecomposition(rows: rows, columns: 9, values: values)
            let frobenius = values.reduce(0) { $0 + $1 * $1 }
            XCTAssertEqual(svd.singularValues.reduce(0) { $0 + $1 * $1 }, frobenius, accuracy: 1e-9 * frobenius)
            for k in 0 ..< 9 {
                let v = svd.rightVectors[k]
                let av = (0 ..< rows).map { r in (0 ..< 9).reduce(0) { $0 + values[r * 9 + $1] * v[$1] } }
                XCTAssertEqual(av.reduce(0) { $0 + $1 * $1 }.squareRoot(), svd.singularValues[k], accuracy: 1e-10)
                for j in 0 ..< 9 {
                    let dot = zip(v, svd.rightVectors[j]).reduce(0) { $0 + $1.0 * $1.1 }
                    XCTAssertEqual(dot, j == k ? 1 : 0, accuracy: 1e-12)
                }
            }
            XCTAssertEqual(svd.singularValues[8] < 1e-12, rows == 7)
            XCTAssertTrue(zip(svd.singularValues, svd.singularValues.dropFirst()).allSatisfy { $0 >= $1 })
        }
    }

    /// A symbolic product checked at a point: (x + 2y − z + 1)·(3x − y + 2)·(z − 1).
    func testCubicPolynomialProduct() {
        let a = CubicPolynomial.linear(x: 1, y: 2, z: -1, constant: 1)
        let b = CubicPolynomial.linear(x: 3, y: -1, z: 0, constant: 2)
        let c = CubicPolynomial.linear(x: 0, y: 0, z: 1, constant: -1)
        let (x, y, z) = (0.7, -1.3, 2.1)
        let expected = (x + 2 * y - z + 1) * (3 * x - y + 2) * (z - 1)
        XCTAssertEqual((a * b * c).evaluate(x: x, y: y, z: z), expected, accuracy: 1e-12)
        XCTAssertEqual((2 * (a * b) - c).evaluate(x: x, y: y, z: z), 2 * (x + 2 * y - z + 1) * (3 * x - y + 2) - (z - 1), accuracy: 1e-12)
    }
}
