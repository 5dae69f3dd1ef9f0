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
///
/// It runs once per RANSAC sample, so nothing in it allocates but the returned array: the null
/// space, the ten constraint rows (inline `CubicPolynomial`s), the polynomials in `z` (inline
/// `ZPolynomial`s) and the root finder's scratch all live on the stack.
public enum EssentialMatrixFivePoint {
    /// Every real essential matrix (Frobenius norm 1, with `x₂ᵀ E x₁ = 0`) through the five
    /// correspondences, given in normalised (undistorted) camera coordinates; empty when the
    /// configuration is degenerate (coincident points, a rank-deficient system).
    public static func solve(_ normalised1: [SIMD2<Double>], _ normalised2: [SIMD2<Double>]) -> [Matrix3] {
        precondition(normalised1.count == 5 && normalised2.count == 5)
        // E = x X + y Y + z Z + W, entry by entry: (X, Y, Z, W)ᵢ for i in row-major order.
        var entries = EntryForms()
        guard entries.solve(normalised1, normalised2) else { return [] }
        var constraints = ConstraintRows(entries)
        guard constraints.eliminate() else { return [] }
        let b = constraints.hiddenVariableMatrix()
        let determinant = ZPolynomial.determinant(b)

        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 22) { buffer in
            let coefficients = buffer.baseAddress!, roots = coefficients + 11
            for i in 0 ..< 11 { coefficients[i] = determinant.coefficients[i] }
            let rootCount = PolynomialRoots.real(coefficients, count: 11, into: roots)
            guard rootCount > 0 else { return [] }
            var solutions: [Matrix3] = []
            solutions.reserveCapacity(rootCount)
            for k in 0 ..< rootCount {
                let z = roots[k]
                let row0 = b.row(0, at: z), row1 = b.row(1, at: z), row2 = b.row(2, at: z)
                // (x, y, 1) spans the null space of the numeric 3 × 3 matrix: the longest cross
                // product of two of its rows.
                var xy1 = row0.cross(row1)
                let across02 = row0.cross(row2), across12 = row1.cross(row2)
                if across02.length > xy1.length { xy1 = across02 }
                if across12.length > xy1.length { xy1 = across12 }
                guard abs(xy1.z) > 1e-14 * xy1.length else { continue }
                if let e = entries.essentialMatrix(x: xy1.x / xy1.z, y: xy1.y / xy1.z, z: z) { solutions.append(e) }
            }
            return solutions
        }
    }
}

/// The entries of `E = x X + y Y + z Z + W` as linear forms `(X, Y, Z, W)ᵢ`, row-major, inline.
private struct EntryForms {
    var forms = (SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(),
                 SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>(), SIMD4<Double>())

    /// Entry `i` (row-major).
    @inline(__always) subscript(i: Int) -> SIMD4<Double> {
        withUnsafeBytes(of: forms) { $0.load(fromByteOffset: i * MemoryLayout<SIMD4<Double>>.stride, as: SIMD4<Double>.self) }
    }

    /// The null space of the five epipolar constraints `x₂ᵀ E x₁ = 0`; false when degenerate.
    mutating func solve(_ normalised1: [SIMD2<Double>], _ normalised2: [SIMD2<Double>]) -> Bool {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 45 + 36) { buffer in
            let rows = buffer.baseAddress!, basis = rows + 45
            for k in 0 ..< 5 {
                let p = normalised1[k], q = normalised2[k], row = rows + 9 * k
                (row[0], row[1], row[2]) = (q.x * p.x, q.x * p.y, q.x)
                (row[3], row[4], row[5]) = (q.y * p.x, q.y * p.y, q.y)
                (row[6], row[7], row[8]) = (p.x, p.y, 1)
            }
            guard NullSpace.of(rows: 5, columns: 9, values: rows, basis: basis) else { return false }
            withUnsafeMutableBytes(of: &forms) { raw in
                let forms = raw.bindMemory(to: SIMD4<Double>.self)
                for i in 0 ..< 9 { forms[i] = SIMD4(basis[i], basis[9 + i], basis[18 + i], basis[27 + i]) }
            }
            return true
        }
    }

    /// `E(x, y, z)` scaled to Frobenius norm 1; nil when it vanishes or overflows.
    func essentialMatrix(x: Double, y: Double, z: Double) -> Matrix3? {
        var e = SIMD16<Double>()
        var normSquared = 0.0
        for i in 0 ..< 9 {
            let f = self[i]
            e[i] = x * f.x + y * f.y + z * f.z + f.w
            normSquared += e[i] * e[i]
        }
        let norm = normSquared.squareRoot()
        guard norm > 0, norm.isFinite else { return nil }
        return Matrix3(rows: SIMD3(e[0] / norm, e[1] / norm, e[2] / norm), SIMD3(e[3] / norm, e[4] / norm, e[5] / norm),
                       SIMD3(e[6] / norm, e[7] / norm, e[8] / norm))
    }
}

/// The ten cubic constraints in `x, y, z` (nine from the trace constraint, then `det E`), the rows
/// of the 10 × 20 coefficient matrix, inline.
private struct ConstraintRows {
    typealias Row = CubicPolynomial
    var rows: (Row, Row, Row, Row, Row, Row, Row, Row, Row, Row)

    init(_ e: EntryForms) {
        @inline(__always) func entry(_ r: Int, _ c: Int) -> CubicPolynomial { .linear(e[3 * r + c]) }
        @inline(__always) func eet(_ r: Int, _ c: Int) -> CubicPolynomial {   // (E Eᵀ)ᵣ꜀, quadratic
            Row.product(e[3 * r], e[3 * c]) + Row.product(e[3 * r + 1], e[3 * c + 1]) + Row.product(e[3 * r + 2], e[3 * c + 2])
        }
        let (eet00, eet01, eet02, eet11, eet12, eet22) = (eet(0, 0), eet(0, 1), eet(0, 2), eet(1, 1), eet(1, 2), eet(2, 2))
        let trace = eet00 + eet11 + eet22
        // Row r of E Eᵀ (symmetric), times column c of E: 2 E Eᵀ E − tr(E Eᵀ) E.
        @inline(__always) func traceRow(_ r0: Row, _ r1: Row, _ r2: Row, _ r: Int, _ c: Int) -> Row {
            2 * (r0 * entry(0, c) + r1 * entry(1, c) + r2 * entry(2, c)) - trace * entry(r, c)
        }
        let minor0 = Row.product(e[4], e[8]) - Row.product(e[5], e[7])
        let minor1 = Row.product(e[3], e[8]) - Row.product(e[5], e[6])
        let minor2 = Row.product(e[3], e[7]) - Row.product(e[4], e[6])
        let determinant = minor0 * entry(0, 0) - minor1 * entry(0, 1) + minor2 * entry(0, 2)
        rows = (traceRow(eet00, eet01, eet02, 0, 0), traceRow(eet00, eet01, eet02, 0, 1), traceRow(eet00, eet01, eet02, 0, 2),
                traceRow(eet01, eet11, eet12, 1, 0), traceRow(eet01, eet11, eet12, 1, 1), traceRow(eet01, eet11, eet12, 1, 2),
                traceRow(eet02, eet12, eet22, 2, 0), traceRow(eet02, eet12, eet22, 2, 1), traceRow(eet02, eet12, eet22, 2, 2),
                determinant)
    }

    /// Gauss–Jordan elimination of the first ten columns with partial pivoting, whole rows at a
    /// time (row `i` then reads `monomialᵢ + Σⱼ≥₁₀ Rᵢⱼ monomialⱼ = 0`); false when singular.
    mutating func eliminate() -> Bool {
        withUnsafeMutableBytes(of: &rows) { raw in
            let m = raw.bindMemory(to: Row.self).baseAddress!
            var scale = 0.0
            for r in 0 ..< 10 {
                for j in 0 ..< 20 { scale = max(scale, abs(m[r][j])) }
            }
            for col in 0 ..< 10 {
                var pivot = col
                for r in col + 1 ..< 10 where abs(m[r][col]) > abs(m[pivot][col]) { pivot = r }
                guard abs(m[pivot][col]) > 1e-12 * scale else { return false }
                if pivot != col { swap(&m[col], &m[pivot]) }
                let pivotRow = (1 / m[col][col]) * m[col]
                m[col] = pivotRow
                for r in 0 ..< 10 where r != col {
                    let factor = m[r][col]
                    if factor != 0 { m[r] = m[r] - factor * pivotRow }
                }
            }
            return true
        }
    }

    /// The 3 × 3 matrix, linear in `(x, y, 1)` with entries polynomial in `z`, left after rows 4–9
    /// (which lead with x²z, x², y²z, y², xyz, xy) cancel their leading monomials pairwise:
    /// ⟨4⟩ − z⟨5⟩, ⟨6⟩ − z⟨7⟩, ⟨8⟩ − z⟨9⟩. The tail columns are xz², xz, x, yz², yz, y, z³, z², z, 1.
    func hiddenVariableMatrix() -> HiddenVariableMatrix {
        withUnsafeBytes(of: rows) { raw in
            let m = raw.bindMemory(to: Row.self).baseAddress!
            @inline(__always) func entry(_ row: Int, _ first: Int, _ count: Int) -> ZPolynomial {
                // Coefficient of z^k is m[row][first − k]; minus z times the next row's.
                var p = ZPolynomial()
                for k in 0 ..< count { p.coefficients[k] = m[row][first - k] }
                for k in 0 ..< count { p.coefficients[k + 1] -= m[row + 1][first - k] }
                return p
            }
            return HiddenVariableMatrix(entries: (entry(4, 12, 3), entry(4, 15, 3), entry(4, 19, 4),
                                                  entry(6, 12, 3), entry(6, 15, 3), entry(6, 19, 4),
                                                  entry(8, 12, 3), entry(8, 15, 3), entry(8, 19, 4)))
        }
    }
}

/// The five-point solver's 3 × 3 matrix `B(z)` with `B(z) (x, y, 1)ᵀ = 0`: columns `x` and `y` of
/// degree 3 in `z`, column `1` of degree 4.
struct HiddenVariableMatrix {
    var entries: (ZPolynomial, ZPolynomial, ZPolynomial, ZPolynomial, ZPolynomial, ZPolynomial, ZPolynomial, ZPolynomial, ZPolynomial)

    /// Entry `(r, c)`.
    @inline(__always) subscript(r: Int, c: Int) -> ZPolynomial {
        withUnsafeBytes(of: entries) { $0.load(fromByteOffset: (3 * r + c) * MemoryLayout<ZPolynomial>.stride, as: ZPolynomial.self) }
    }

    /// Row `r` evaluated at `z`.
    @inline(__always) func row(_ r: Int, at z: Double) -> SIMD3<Double> {
        SIMD3(self[r, 0].value(at: z, degree: 3), self[r, 1].value(at: z, degree: 3), self[r, 2].value(at: z, degree: 4))
    }
}

/// A polynomial in one variable `z`, lowest power first, of degree at most 15, inline: the entries
/// of `HiddenVariableMatrix` and their tenth-degree determinant.
struct ZPolynomial {
    var coefficients = SIMD16<Double>()

    static func + (a: ZPolynomial, b: ZPolynomial) -> ZPolynomial { ZPolynomial(coefficients: a.coefficients + b.coefficients) }

    static func - (a: ZPolynomial, b: ZPolynomial) -> ZPolynomial { ZPolynomial(coefficients: a.coefficients - b.coefficients) }

    /// The product of `a` (degree ≤ `da`) and `b` (degree ≤ `db`), `da + db ≤ 15`.
    @inline(__always) static func multiply(_ a: ZPolynomial, degree da: Int, _ b: ZPolynomial, degree db: Int) -> ZPolynomial {
        var product = ZPolynomial()
        for i in 0 ... da {
            for j in 0 ... db { product.coefficients[i + j] += a.coefficients[i] * b.coefficients[j] }
        }
        return product
    }

    /// The value at `z` by Horner's rule (degree ≤ `degree`).
    @inline(__always) func value(at z: Double, degree: Int) -> Double {
        var value = 0.0
        for i in stride(from: degree, through: 0, by: -1) { value = value * z + coefficients[i] }
        return value
    }

    /// `det B(z)` (cofactor expansion on the first row), of degree 10.
    static func determinant(_ m: HiddenVariableMatrix) -> ZPolynomial {
        let c0 = multiply(m[1, 1], degree: 3, m[2, 2], degree: 4) - multiply(m[1, 2], degree: 4, m[2, 1], degree: 3)
        let c1 = multiply(m[1, 2], degree: 4, m[2, 0], degree: 3) - multiply(m[1, 0], degree: 3, m[2, 2], degree: 4)
        let c2 = multiply(m[1, 0], degree: 3, m[2, 1], degree: 3) - multiply(m[1, 1], degree: 3, m[2, 0], degree: 3)
        return multiply(m[0, 0], degree: 3, c0, degree: 7) + multiply(m[0, 1], degree: 3, c1, degree: 7)
            + multiply(m[0, 2], degree: 4, c2, degree: 6)
    }
}
