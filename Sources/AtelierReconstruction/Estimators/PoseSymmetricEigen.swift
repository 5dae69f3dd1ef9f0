import AtelierGeometry
import Foundation

/// The eigen-decomposition of a small dense symmetric matrix (3×3 to 12×12) by the cyclic Jacobi
/// method (Golub & Van Loan, *Matrix Computations*, §8.5): plane rotations zero the
/// off-diagonal entries one at a time until the matrix is diagonal to working precision.
///
/// Used by the pose solvers where LAPACK would otherwise be needed: the 12×12 null space of
/// EPnP's `MᵀM`, the principal axes of a point cloud, Horn's 4×4 quaternion matrix and the
/// degenerate conic of Lambda Twist. Jacobi is slower than QR iteration for large matrices but at
/// these sizes it is a few microseconds, and it is accurate for small eigenvalues, which is what
/// a null space needs. Prefixed `Pose` because the two-view estimators may bring their own.
struct PoseSymmetricEigen {
    /// The eigenvalues, ascending.
    var values: [Double]
    /// `vectors[k]` is the unit eigenvector of `values[k]`; the vectors are orthonormal.
    var vectors: [[Double]]

    /// Decomposes the `size × size` matrix stored by rows in `matrix` (only its upper triangle
    /// is read, so a slightly asymmetric input is treated as symmetric). Nil for non-finite input.
    init?(_ matrix: [Double], size n: Int, maxSweeps: Int = 60) {
        precondition(matrix.count == n * n && n > 0)
        guard matrix.allSatisfy(\.isFinite) else { return nil }
        var a = matrix
        for r in 0 ..< n { for c in 0 ..< r { a[r * n + c] = a[c * n + r] } }
        var v = [Double](repeating: 0, count: n * n)
        for i in 0 ..< n { v[i * n + i] = 1 }

        let total = a.reduce(0) { $0 + $1 * $1 }
        for _ in 0 ..< maxSweeps {
            var off = 0.0
            for p in 0 ..< n { for q in p + 1 ..< n { off += a[p * n + q] * a[p * n + q] } }
            if off <= 1e-32 * total || off == 0 { break }
            for p in 0 ..< n - 1 {
                for q in p + 1 ..< n {
                    let apq = a[p * n + q]
                    guard apq != 0 else { continue }
                    // The rotation angle φ with tan φ = t zeroes a[p][q]; the smaller root keeps |φ| ≤ π/4.
                    let theta = (a[q * n + q] - a[p * n + p]) / (2 * apq)
                    let t = abs(theta) > 1e150 ? 1 / (2 * theta)
                        : (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0 ..< n {   // columns p and q of A·J
                        let akp = a[k * n + p], akq = a[k * n + q]
                        a[k * n + p] = c * akp - s * akq
                        a[k * n + q] = s * akp + c * akq
                    }
                    for k in 0 ..< n {   // rows p and q of Jᵀ·(A·J)
                        let apk = a[p * n + k], aqk = a[q * n + k]
                        a[p * n + k] = c * apk - s * aqk
                        a[q * n + k] = s * apk + c * aqk
                    }
                    for k in 0 ..< n {   // V·J
                        let vkp = v[k * n + p], vkq = v[k * n + q]
                        v[k * n + p] = c * vkp - s * vkq
                        v[k * n + q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0 ..< n).sorted { a[$0 * n + $0] < a[$1 * n + $1] }
        values = order.map { a[$0 * n + $0] }
        vectors = order.map { column in (0 ..< n).map { v[$0 * n + column] } }
    }

    /// The decomposition of a symmetric 3×3 matrix, with the eigenvectors as `SIMD3`s.
    static func of(_ m: Matrix3) -> (values: SIMD3<Double>, vectors: [SIMD3<Double>])? {
        let flat = [m.row0.x, m.row0.y, m.row0.z, m.row1.x, m.row1.y, m.row1.z, m.row2.x, m.row2.y, m.row2.z]
        guard let eigen = PoseSymmetricEigen(flat, size: 3) else { return nil }
        return (SIMD3(eigen.values[0], eigen.values[1], eigen.values[2]),
                eigen.vectors.map { SIMD3($0[0], $0[1], $0[2]) })
    }
}
