/// Cholesky factorisation `A = L Lᵀ` of a dense symmetric positive definite matrix, and the
/// solve with its factor: the direct solver for bundle adjustment's reduced camera system.
///
/// Dense Cholesky is what COLMAP asks Ceres for (`DENSE_SCHUR`) up to a few hundred images:
/// the reduced system is nearly dense once images share points and a camera. This is the
/// row-by-row (Cholesky–Banachiewicz) order on a row-major matrix, so every inner product runs
/// over two contiguous row prefixes. About `n³/6` multiply–adds; a few milliseconds at `n = 250`.
enum DenseCholesky {
    /// Replaces the lower triangle of the row-major `n × n` matrix `a` (only that triangle is
    /// read) with `L`. Returns false, leaving `a` partly overwritten, when a pivot is not
    /// positive and finite: the matrix is not positive definite to working precision, and the
    /// caller should increase the damping and rebuild it.
    static func factor(_ a: UnsafeMutablePointer<Double>, n: Int) -> Bool {
        for i in 0 ..< n {
            let rowI = a + i * n
            for j in 0 ... i {
                let rowJ = a + j * n
                let value = rowI[j] - dot(rowI, rowJ, count: j)
                if j == i {
                    guard value > 0, value.isFinite else { return false }
                    rowI[i] = value.squareRoot()
                } else {
                    rowI[j] = value / rowJ[j]
                }
            }
        }
        return true
    }

    /// Solves `L Lᵀ x = b` in place (`b` becomes `x`) with the factor left by `factor`.
    static func solve(_ l: UnsafePointer<Double>, n: Int, _ b: UnsafeMutablePointer<Double>) {
        for i in 0 ..< n {   // L y = b
            let row = l + i * n
            b[i] = (b[i] - dot(row, b, count: i)) / row[i]
        }
        var i = n - 1
        while i >= 0 {   // Lᵀ x = y, reading L by columns
            var value = b[i]
            var k = i + 1
            while k < n {
                value -= l[k * n + i] * b[k]
                k += 1
            }
            b[i] = value / l[i * n + i]
            i -= 1
        }
    }

    /// `Σ x[k] y[k]` for `k < count`, four lanes at a time. The order of additions depends only
    /// on `count`, so results are reproducible.
    @inline(__always)
    static func dot(_ x: UnsafePointer<Double>, _ y: UnsafePointer<Double>, count: Int) -> Double {
        var sum = SIMD4<Double>(repeating: 0)
        var k = 0
        while k + 4 <= count {
            let u = UnsafeRawPointer(x + k).loadUnaligned(as: SIMD4<Double>.self)
            let v = UnsafeRawPointer(y + k).loadUnaligned(as: SIMD4<Double>.self)
            sum += u * v
            k += 4
        }
        var tail = 0.0
        while k < count {
            tail += x[k] * y[k]
            k += 1
        }
        return sum.sum() + tail
    }

    @inline(__always)
    static func dot(_ x: UnsafeMutablePointer<Double>, _ y: UnsafeMutablePointer<Double>, count: Int) -> Double {
        dot(UnsafePointer(x), UnsafePointer(y), count: count)
    }
}
