@testable import AtelierReconstruction
import XCTest

final class DenseCholeskyTests: XCTestCase {
    /// A random symmetric positive definite system (AᵀA + I) is solved to working precision.
    func testSolvesPositiveDefiniteSystem() {
        var random = SamplingRandom(seed: 2)
        for n in [1, 2, 5, 17, 64] {
            let b = (0 ..< n * n).map { _ in random.unit() - 0.5 }
            var a = [Double](repeating: 0, count: n * n)
            for i in 0 ..< n { for j in 0 ..< n {
                var sum = i == j ? 1.0 : 0
                for k in 0 ..< n { sum += b[k * n + i] * b[k * n + j] }
                a[i * n + j] = sum
            } }
            let x = (0 ..< n).map { _ in random.unit() * 10 - 5 }
            var rhs = (0 ..< n).map { i in (0 ..< n).reduce(0.0) { $0 + a[i * n + $1] * x[$1] } }
            var factor = a
            factor.withUnsafeMutableBufferPointer { f in
                XCTAssertTrue(DenseCholesky.factor(f.baseAddress!, n: n))
                rhs.withUnsafeMutableBufferPointer { DenseCholesky.solve(f.baseAddress!, n: n, $0.baseAddress!) }
            }
            for i in 0 ..< n { XCTAssertEqual(rhs[i], x[i], accuracy: 1e-10, "n = \(n)") }
        }
    }

    /// Indefinite, singular and NaN matrices report failure instead of returning garbage.
    func testRejectsMatricesThatAreNotPositiveDefinite() {
        for var a in [[1.0, 2, 2, 1], [1.0, 1, 1, 1], [Double.nan, 0, 0, 1], [0.0, 0, 0, 0]] {
            XCTAssertFalse(a.withUnsafeMutableBufferPointer { DenseCholesky.factor($0.baseAddress!, n: 2) }, "\(a)")
        }
    }
}
