import Foundation

/// Dense solves of the small linear systems in the pose solvers: the 4×4 to 7×7 normal
/// equations of Gauss–Newton and Levenberg–Marquardt steps, and EPnP's 6×k over-determined
/// systems for its initial betas.
///
/// Matrices are stored by rows in flat arrays. Prefixed `Pose` because the two-view estimators
/// may bring their own small solvers.
enum PoseLinearSystem {
    /// The solution of the square system `a · x = b` (`a` is `size × size`) by Gaussian
    /// elimination with partial pivoting; nil when `a` is singular to working precision (a pivot
    /// below 1e-14 of the largest entry) or the input is not finite.
    static func solve(_ a: [Double], _ b: [Double], size n: Int) -> [Double]? {
        precondition(a.count == n * n && b.count == n)
        var m = a, x = b
        let scale = m.reduce(0) { max($0, abs($1)) }
        guard scale > 0, scale.isFinite, x.allSatisfy(\.isFinite) else { return nil }
        for k in 0 ..< n {
            var pivot = k
            for r in k + 1 ..< n where abs(m[r * n + k]) > abs(m[pivot * n + k]) { pivot = r }
            guard abs(m[pivot * n + k]) > 1e-14 * scale else { return nil }
            if pivot != k {
                for c in 0 ..< n { m.swapAt(k * n + c, pivot * n + c) }
                x.swapAt(k, pivot)
            }
            let inversePivot = 1 / m[k * n + k]
            for r in k + 1 ..< n {
                let factor = m[r * n + k] * inversePivot
                guard factor != 0 else { continue }
                for c in k ..< n { m[r * n + c] -= factor * m[k * n + c] }
                x[r] -= factor * x[k]
            }
        }
        for k in stride(from: n - 1, through: 0, by: -1) {
            var sum = x[k]
            for c in k + 1 ..< n { sum -= m[k * n + c] * x[c] }
            x[k] = sum / m[k * n + k]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }

    /// The least-squares solution of the over-determined system `a · x ≈ b` (`a` is
    /// `rows × columns`, `rows ≥ columns`) by Householder QR, which avoids squaring the condition
    /// number as the normal equations would; nil when `a` is rank deficient to working precision.
    static func leastSquares(_ a: [Double], rows: Int, columns: Int, _ b: [Double]) -> [Double]? {
        precondition(a.count == rows * columns && b.count == rows && rows >= columns)
        var m = a, y = b
        let scale = m.reduce(0) { max($0, abs($1)) }
        guard scale > 0, scale.isFinite, y.allSatisfy(\.isFinite) else { return nil }
        var householder = [Double](repeating: 0, count: rows)
        for k in 0 ..< columns {
            var norm2 = 0.0
            for r in k ..< rows { norm2 += m[r * columns + k] * m[r * columns + k] }
            let norm = norm2.squareRoot()
            guard norm > 1e-14 * scale else { return nil }
            // Reflect column k onto −sign(a_kk)·|column|·e_k (the sign that avoids cancellation).
            let alpha = m[k * columns + k] > 0 ? -norm : norm
            for r in k ..< rows { householder[r] = m[r * columns + k] }
            householder[k] -= alpha
            var v2 = 0.0
            for r in k ..< rows { v2 += householder[r] * householder[r] }
            guard v2 > 0 else { continue }
            for c in k ..< columns {
                var dot = 0.0
                for r in k ..< rows { dot += householder[r] * m[r * columns + c] }
                let factor = 2 * dot / v2
                for r in k ..< rows { m[r * columns + c] -= factor * householder[r] }
            }
            var dot = 0.0
            for r in k ..< rows { dot += householder[r] * y[r] }
            let factor = 2 * dot / v2
            for r in k ..< rows { y[r] -= factor * householder[r] }
        }
        var x = [Double](repeating: 0, count: columns)
        for k in stride(from: columns - 1, through: 0, by: -1) {
            var sum = y[k]
            for c in k + 1 ..< columns { sum -= m[k * columns + c] * x[c] }
            x[k] = sum / m[k * columns + k]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
