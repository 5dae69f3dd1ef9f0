import AtelierGeometry
import Foundation

/// The singular values and right singular vectors of a small dense matrix: what the linear
/// solvers of two-view geometry need (null spaces of 5 × 9, 8 × 9 and 2N × 9 systems, the 2N × 4
/// triangulation system, rank-2 projection of 3 × 3 matrices). Minimal samples' null spaces use
/// the cheaper `NullSpace`.
///
/// One-sided Jacobi (Hestenes 1958; see Demmel & Veselić, "Jacobi's method is more accurate than
/// QR", SIAM J. Matrix Anal. Appl. 1992): plane rotations applied on the right orthogonalise the
/// columns of `A·V`; the column norms are then the singular values. It is slower than
/// Golub–Kahan for big matrices but simple, branch-light and accurate to working precision even
/// for tiny singular values, which is what a null space needs. A tall matrix is first reduced to
/// its `n × n` triangular factor by Householder QR, which has the same singular values and right
/// vectors, so the Jacobi sweeps cost O(n³) whatever the number of rows.
struct SingularValueDecomposition {
    /// Singular values, descending (`min(m, n)` of them are meaningful; the rest are zero).
    var singularValues: [Double]
    /// Right singular vectors, `rightVectors[k]` pairs with `singularValues[k]`; an orthonormal
    /// basis of ℝⁿ, so the last `n − rank` span the null space.
    var rightVectors: [[Double]]
    /// `A·v_k / σ_k` for the nonzero singular values (zero vectors otherwise); empty unless asked
    /// for (asking skips the QR reduction of tall matrices, so it is meant for small ones).
    var leftVectors: [[Double]]

    /// Decomposes the `rows × columns` matrix stored row-major in `values`.
    init(rows: Int, columns n: Int, values: [Double], computeLeftVectors: Bool = false) {
        precondition(values.count == rows * n && n > 0)
        // Column-major working copy (Jacobi touches whole columns): `work[c * m + r]`.
        var work: [Double], m: Int
        if rows > n && !computeLeftVectors {
            work = Self.triangularFactor(rows: rows, columns: n, values: values)
            m = n
        } else {
            m = rows
            work = [Double](repeating: 0, count: m * n)
            for r in 0 ..< m { for c in 0 ..< n { work[c * m + r] = values[r * n + c] } }
        }
        var v = [Double](repeating: 0, count: n * n)   // column k is v[k * n ..< (k + 1) * n]
        for k in 0 ..< n { v[k * n + k] = 1 }
        work.withUnsafeMutableBufferPointer { g in
            v.withUnsafeMutableBufferPointer { v in
                Self.orthogonaliseColumns(g, rows: m, columns: n, accumulating: v)
            }
        }
        var norms = [Double](repeating: 0, count: n)
        for c in 0 ..< n {
            var sum = 0.0
            for r in 0 ..< m { sum += work[c * m + r] * work[c * m + r] }
            norms[c] = sum.squareRoot()
        }
        let order = (0 ..< n).sorted { norms[$0] > norms[$1] }
        singularValues = order.map { norms[$0] }
        rightVectors = order.map { Array(v[$0 * n ..< ($0 + 1) * n]) }
        leftVectors = computeLeftVectors
            ? order.map { k in norms[k] > 0 ? work[k * m ..< (k + 1) * m].map { $0 / norms[k] } : [Double](repeating: 0, count: m) }
            : []
    }

    /// The right singular vector of the smallest singular value: the unit `x` minimising `|A x|`.
    var smallestRightVector: [Double] { rightVectors[rightVectors.count - 1] }

    /// Jacobi sweeps: rotates pairs of columns of `g` (and of `v`) until every pair is orthogonal
    /// to working precision (at most 60 sweeps; 6–10 are typical).
    private static func orthogonaliseColumns(_ g: UnsafeMutableBufferPointer<Double>, rows m: Int, columns n: Int,
                                             accumulating v: UnsafeMutableBufferPointer<Double>) {
        // Columns that have shrunk to rounding noise of the whole matrix are null vectors already;
        // their direction is noise, so rotating them would never converge.
        var frobenius2 = 0.0
        for i in 0 ..< m * n { frobenius2 += g[i] * g[i] }
        let negligible = 1e-26 * frobenius2   // (10⁻¹³ ‖A‖)²
        for _ in 0 ..< 60 {
            var rotated = false
            for p in 0 ..< n - 1 {
                for q in p + 1 ..< n {
                    let gp = g.baseAddress! + p * m, gq = g.baseAddress! + q * m
                    var alpha = 0.0, beta = 0.0, gamma = 0.0
                    for i in 0 ..< m {
                        alpha += gp[i] * gp[i]
                        beta += gq[i] * gq[i]
                        gamma += gp[i] * gq[i]
                    }
                    guard alpha > negligible, beta > negligible, abs(gamma) > 1e-15 * (alpha * beta).squareRoot() else { continue }
                    rotated = true
                    let zeta = (beta - alpha) / (2 * gamma)
                    let t = (zeta >= 0 ? 1.0 : -1.0) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
                    let c = 1 / (1 + t * t).squareRoot(), s = c * t
                    for i in 0 ..< m {
                        let a = gp[i], b = gq[i]
                        gp[i] = c * a - s * b
                        gq[i] = s * a + c * b
                    }
                    let vp = v.baseAddress! + p * n, vq = v.baseAddress! + q * n
                    for i in 0 ..< n {
                        let a = vp[i], b = vq[i]
                        vp[i] = c * a - s * b
                        vq[i] = s * a + c * b
                    }
                }
            }
            if !rotated { return }
        }
    }

    /// The `n × n` upper-triangular `R` of `A = Q R` (Householder), column-major.
    private static func triangularFactor(rows m: Int, columns n: Int, values: [Double]) -> [Double] {
        var a = [Double](repeating: 0, count: m * n)   // column-major, a[c * m + r]
        for r in 0 ..< m { for c in 0 ..< n { a[c * m + r] = values[r * n + c] } }
        var u = [Double](repeating: 0, count: m)
        a.withUnsafeMutableBufferPointer { a in
            for k in 0 ..< n {
                let ak = a.baseAddress! + k * m
                var norm = 0.0
                for i in k ..< m { norm += ak[i] * ak[i] }
                norm = norm.squareRoot()
                guard norm > 0 else { continue }
                // Householder vector u = x − α e₁ reflects column k onto α e₁.
                let alpha = ak[k] > 0 ? -norm : norm
                for i in k ..< m { u[i] = ak[i] }
                u[k] -= alpha
                var uu = 0.0
                for i in k ..< m { uu += u[i] * u[i] }
                guard uu > 0 else { continue }
                for c in k ..< n {
                    let ac = a.baseAddress! + c * m
                    var dot = 0.0
                    for i in k ..< m { dot += u[i] * ac[i] }
                    let f = 2 * dot / uu
                    for i in k ..< m { ac[i] -= f * u[i] }
                }
            }
        }
        var r = [Double](repeating: 0, count: n * n)
        for c in 0 ..< n { for i in 0 ... c { r[c * n + i] = a[c * m + i] } }
        return r
    }
}

extension Matrix3 {
    /// The matrix as 9 numbers, row by row (the layout of the linear systems' unknowns).
    var rowMajor: [Double] { [row0.x, row0.y, row0.z, row1.x, row1.y, row1.z, row2.x, row2.y, row2.z] }

    /// The matrix from 9 numbers, row by row.
    init(rowMajor e: [Double]) {
        self.init(rows: [e[0], e[1], e[2]], [e[3], e[4], e[5]], [e[6], e[7], e[8]])
    }

    /// The SVD `U · diag(σ) · Vᵀ` with `U` and `V` proper rotations (determinant +1) and σ
    /// descending. Forcing both determinants positive flips the sign of the last singular value
    /// when `det` is negative, so `σ₃` may be negative; the callers use it only through rank-2
    /// projections, where it is dropped.
    var rotationSVD: (u: Matrix3, singularValues: SIMD3<Double>, v: Matrix3) {
        let svd = SingularValueDecomposition(rows: 3, columns: 3, values: rowMajor, computeLeftVectors: true)
        let v0 = SIMD3(svd.rightVectors[0][0], svd.rightVectors[0][1], svd.rightVectors[0][2])
        let v1 = SIMD3(svd.rightVectors[1][0], svd.rightVectors[1][1], svd.rightVectors[1][2])
        let u0 = SIMD3(svd.leftVectors[0][0], svd.leftVectors[0][1], svd.leftVectors[0][2])
        var u1 = SIMD3(svd.leftVectors[1][0], svd.leftVectors[1][1], svd.leftVectors[1][2])
        if svd.singularValues[1] == 0 {   // rank 1: any unit vector orthogonal to u0 will do
            let axis: SIMD3<Double> = abs(u0.x) < 0.6 ? [1, 0, 0] : [0, 1, 0]
            u1 = u0.cross(axis).normalized
        }
        let v2 = v0.cross(v1), u2 = u0.cross(u1)
        let sigma2 = (self * v2).dot(u2)
        return (Matrix3(columns: u0, u1, u2), SIMD3(svd.singularValues[0], svd.singularValues[1], sigma2), Matrix3(columns: v0, v1, v2))
    }
}
