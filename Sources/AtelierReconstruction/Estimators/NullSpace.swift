import Foundation

/// An orthonormal basis of the null space of a wide matrix (fewer rows than columns, full row
/// rank): the five-point solver's 4-dimensional space of essential matrices through five
/// correspondences, needed once per RANSAC sample.
///
/// Householder QR of `Aᵀ` (Golub & Van Loan §5.2): with `Aᵀ = Q R`, the last `n − m` columns of
/// the orthogonal `Q` are orthogonal to every row of `A`. One pass, a few hundred flops for
/// 5 × 9, where the Jacobi SVD needs several sweeps; as accurate, since `Q` is a product of
/// exact reflections.
enum NullSpace {
    /// The `columns − rows` basis vectors (each of length `columns`) of the matrix stored
    /// row-major in `values`; nil when the rows are linearly dependent to working precision
    /// (the null space is then larger and its basis would be arbitrary).
    static func of(rows m: Int, columns n: Int, values: [Double]) -> [[Double]]? {
        precondition(m < n && values.count == m * n)
        var a = values
        var basis = [Double](repeating: 0, count: (n - m) * n)
        let found = a.withUnsafeMutableBufferPointer { a in
            basis.withUnsafeMutableBufferPointer { basis in
                of(rows: m, columns: n, values: a.baseAddress!, basis: basis.baseAddress!)
            }
        }
        guard found else { return nil }
        return (0 ..< n - m).map { Array(basis[$0 * n ..< ($0 + 1) * n]) }
    }

    /// The same without allocating: `values` (`m × n`, row-major) is overwritten with the
    /// Householder vectors, and the `n − m` basis vectors are written one after the other into
    /// `basis`; false when the rows are linearly dependent to working precision.
    @inline(__always)
    static func of(rows m: Int, columns n: Int, values a: UnsafeMutablePointer<Double>, basis: UnsafeMutablePointer<Double>) -> Bool {
        // Aᵀ is n × m; its column k is row k of A, so `a` already holds Aᵀ column-major. After
        // step k, column k holds the unit reflector u_k (zero above k, so H_k = I − 2 u uᵀ).
        var largest = 0.0, smallest = Double.infinity
        for k in 0 ..< m {
            let column = a + k * n
            var norm = 0.0
            for i in k ..< n { norm += column[i] * column[i] }
            norm = norm.squareRoot()
            let alpha = column[k] > 0 ? -norm : norm
            column[k] -= alpha
            var uu = 0.0
            for i in k ..< n { uu += column[i] * column[i] }
            largest = max(largest, abs(alpha))
            smallest = min(smallest, abs(alpha))
            guard uu > 0 else { return false }
            for c in k + 1 ..< m {
                let other = a + c * n
                var dot = 0.0
                for i in k ..< n { dot += column[i] * other[i] }
                let f = 2 * dot / uu
                for i in k ..< n { other[i] -= f * column[i] }
            }
            let length = uu.squareRoot()
            for i in k ..< n { column[i] /= length }
        }
        guard largest > 0, smallest > 1e-12 * largest else { return false }
        // Q e_j = H₀ H₁ ⋯ H_{m−1} e_j for j ≥ m.
        for j in m ..< n {
            let q = basis + (j - m) * n
            for i in 0 ..< n { q[i] = i == j ? 1 : 0 }
            for k in stride(from: m - 1, through: 0, by: -1) {
                let u = a + k * n
                var dot = 0.0
                for i in k ..< n { dot += u[i] * q[i] }
                for i in k ..< n { q[i] -= 2 * dot * u[i] }
            }
        }
        return true
    }
}
