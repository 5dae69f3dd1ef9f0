import AtelierGeometry
import Foundation

/// The essential matrices consistent with five correspondences between two calibrated views:
/// the minimal solver of relative pose.
///
/// Nistér, "An efficient solution to the five-point relative pose problem" (PAMI 2004), in the
/// formulation of Stewénius, Engels & Nistér, "Recent developments on direct relative
/// orientation" (ISPRS J. 2006):
/// 1. the epipolar constraints `x₂ᵀ E x₁ = 0` leave a 4-dimensional null space, so
///    `E = x X + y Y + z Z + W`;
/// 2. `det E = 0` and the trace constraint `2 E Eᵀ E − tr(E Eᵀ) E = 0` give ten cubic equations
///    in `x, y, z`, a 10 × 20 coefficient matrix over the monomials in Nistér's order;
/// 3. Gauss–Jordan elimination of its first ten columns; pairs of rows then cancel their
///    leading monomials (`⟨e⟩ − z⟨f⟩`, …), leaving three equations linear in `(x, y, 1)` whose
///    coefficients are polynomials in `z`;
/// 4. their 3 × 3 determinant is a tenth-degree polynomial in `z` whose real roots (at most ten)
///    give `x` and `y` back through the null vector of that 3 × 3 matrix.
public enum EssentialMatrixFivePoint {
    /// Every real essential matrix (Frobenius norm 1, with `x₂ᵀ E x₁ = 0`) through the five
    /// correspondences, given in normalised (undistorted) camera coordinates; empty when the
    /// configuration is degenerate (coincident points, a rank-deficient system).
    public static func solve(_ normalised1: [SIMD2<Double>], _ normalised2: [SIMD2<Double>]) -> [Matrix3] {
        precondition(normalised1.count == 5 && normalised2.count == 5)
        var rows: [Double] = []
        rows.reserveCapacity(45)
        for (p, q) in zip(normalised1, normalised2) {
            rows += [q.x * p.x, q.x * p.y, q.x, q.y * p.x, q.y * p.y, q.y, p.x, p.y, 1]
        }
        guard let basis = NullSpace.of(rows: 5, columns: 9, values: rows) else { return [] }   // X, Y, Z, W

        guard let reduced = eliminatedConstraints(basis) else { return [] }
        // Rows 4–9 lead with x²z, x², y²z, y², xyz, xy; ⟨4⟩ − z⟨5⟩ etc. are free of them.
        let b = [4, 6, 8].map { row in
            [0, 1, 2].map { unknown in
                ZPolynomial.subtract(tail(reduced[row], unknown), ZPolynomial.timesZ(tail(reduced[row + 1], unknown)))
            }
        }
        let determinant = ZPolynomial.determinant(b)
        var solutions: [Matrix3] = []
        for z in PolynomialRoots.real(determinant) {
            let numeric = b.map { row in SIMD3(row.map { PolynomialRoots.evaluate($0, at: z) }) }
            let candidates = [numeric[0].cross(numeric[1]), numeric[0].cross(numeric[2]), numeric[1].cross(numeric[2])]
            let xy1 = candidates.max { $0.length < $1.length }!
            guard abs(xy1.z) > 1e-14 * xy1.length else { continue }
            let x = xy1.x / xy1.z, y = xy1.y / xy1.z
            var e = [Double](repeating: 0, count: 9)
            for i in 0 ..< 9 { e[i] = x * basis[0][i] + y * basis[1][i] + z * basis[2][i] + basis[3][i] }
            let norm = e.reduce(0) { $0 + $1 * $1 }.squareRoot()
            guard norm > 0, norm.isFinite else { continue }
            solutions.append(Matrix3(rowMajor: e.map { $0 / norm }))
        }
        return solutions
    }

    /// The 10 × 20 constraint matrix after Gauss–Jordan elimination of its first ten columns
    /// (row `i` then reads `monomialᵢ + Σⱼ≥₁₀ Rᵢⱼ monomialⱼ = 0`); nil when singular.
    private static func eliminatedConstraints(_ basis: [[Double]]) -> [[Double]]? {
        // Each entry of E as a linear polynomial in x, y, z.
        let e = (0 ..< 9).map { i in
            CubicPolynomial.linear(x: basis[0][i], y: basis[1][i], z: basis[2][i], constant: basis[3][i])
        }
        func entry(_ r: Int, _ c: Int) -> CubicPolynomial { e[3 * r + c] }
        var eet: [CubicPolynomial] = []   // E Eᵀ, quadratic
        for r in 0 ..< 3 {
            for c in 0 ..< 3 {
                eet.append(entry(r, 0) * entry(c, 0) + entry(r, 1) * entry(c, 1) + entry(r, 2) * entry(c, 2))
            }
        }
        let trace = eet[0] + eet[4] + eet[8]
        var matrix: [[Double]] = []
        for r in 0 ..< 3 {
            for c in 0 ..< 3 {
                let eetE = eet[3 * r] * entry(0, c) + eet[3 * r + 1] * entry(1, c) + eet[3 * r + 2] * entry(2, c)
                matrix.append((2 * eetE - trace * entry(r, c)).coefficients)
            }
        }
        let det = entry(0, 0) * (entry(1, 1) * entry(2, 2) - entry(1, 2) * entry(2, 1))
            - entry(0, 1) * (entry(1, 0) * entry(2, 2) - entry(1, 2) * entry(2, 0))
            + entry(0, 2) * (entry(1, 0) * entry(2, 1) - entry(1, 1) * entry(2, 0))
        matrix.append(det.coefficients)
        return gaussJordan(matrix, pivotColumns: 10)
    }

    /// Reduces the first `pivotColumns` columns to the identity, with partial pivoting.
    private static func gaussJordan(_ input: [[Double]], pivotColumns: Int) -> [[Double]]? {
        var m = input
        let scale = m.joined().reduce(0) { max($0, abs($1)) }
        for col in 0 ..< pivotColumns {
            let pivot = (col ..< m.count).max { abs(m[$0][col]) < abs(m[$1][col]) }!
            guard abs(m[pivot][col]) > 1e-12 * scale else { return nil }
            m.swapAt(col, pivot)
            let inverse = 1 / m[col][col]
            for j in 0 ..< m[col].count { m[col][j] *= inverse }
            for row in 0 ..< m.count where row != col && m[row][col] != 0 {
                let factor = m[row][col]
                for j in 0 ..< m[row].count { m[row][j] -= factor * m[col][j] }
            }
        }
        return m
    }

    /// The coefficient of `x` (unknown 0), `y` (1) or `1` (2) in the tail of a reduced row, as a
    /// polynomial in `z`, lowest power first. The tail columns are xz², xz, x, yz², yz, y, z³,
    /// z², z, 1.
    private static func tail(_ row: [Double], _ unknown: Int) -> [Double] {
        switch unknown {
        case 0: return [row[12], row[11], row[10]]
        case 1: return [row[15], row[14], row[13]]
        default: return [row[19], row[18], row[17], row[16]]
        }
    }
}

/// Polynomials in one variable `z`, lowest power first: the entries of the five-point solver's
/// 3 × 3 matrix.
enum ZPolynomial {
    static func add(_ a: [Double], _ b: [Double]) -> [Double] {
        (0 ..< max(a.count, b.count)).map { (($0 < a.count) ? a[$0] : 0) + (($0 < b.count) ? b[$0] : 0) }
    }

    static func subtract(_ a: [Double], _ b: [Double]) -> [Double] { add(a, b.map { -$0 }) }

    static func timesZ(_ a: [Double]) -> [Double] { [0] + a }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var product = [Double](repeating: 0, count: a.count + b.count - 1)
        for i in a.indices { for j in b.indices { product[i + j] += a[i] * b[j] } }
        return product
    }

    /// The determinant of a 3 × 3 matrix of polynomials (cofactor expansion on the first row).
    static func determinant(_ m: [[[Double]]]) -> [Double] {
        let c0 = subtract(multiply(m[1][1], m[2][2]), multiply(m[1][2], m[2][1]))
        let c1 = subtract(multiply(m[1][2], m[2][0]), multiply(m[1][0], m[2][2]))
        let c2 = subtract(multiply(m[1][0], m[2][1]), multiply(m[1][1], m[2][0]))
        return add(add(multiply(m[0][0], c0), multiply(m[0][1], c1)), multiply(m[0][2], c2))
    }
}
