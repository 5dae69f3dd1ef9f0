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
        // Aᵀ is n × m; its column k is row k of A, so `values` already holds Aᵀ column-major.
        var a = values
        var reflectors: [[Double]] = []   // u_k, zero above k
        var diagonal: [Double] = []
        for k in 0 ..< m {
            var norm = 0.0
            for i in k ..< n { norm += a[k * n + i] * a[k * n + i] }
            norm = norm.squareRoot()
            let alpha = a[k * n + k] > 0 ? -norm : norm
            var u = [Double](repeating: 0, count: n)
            for i in k ..< n { u[i] = a[k * n + i] }
            u[k] -= alpha
            let uu = u.reduce(0) { $0 + $1 * $1 }
            diagonal.append(abs(alpha))
            guard uu > 0 else { return nil }
            for c in k ..< m {
                var dot = 0.0
                for i in k ..< n { dot += u[i] * a[c * n + i] }
                let f = 2 * dot / uu
                for i in k ..< n { a[c * n + i] -= f * u[i] }
            }
            reflectors.append(u.map { $0 / uu.squareRoot() })   // unit, so H = I − 2 u uᵀ
        }
        guard let largest = diagonal.max(), largest > 0, diagonal.allSatisfy({ $0 > 1e-12 * largest }) else { return nil }
        // Q e_j = H₀ H₁ ⋯ H_{m−1} e_j for j ≥ m.
        return (m ..< n).map { j in
            var q = [Double](repeating: 0, count: n)
            q[j] = 1
            for u in reflectors.reversed() {
                let dot = zip(u, q).reduce(0) { $0 + $1.0 * $1.1 }
                for i in 0 ..< n { q[i] -= 2 * dot * u[i] }
            }
            return q
        }
    }
}
