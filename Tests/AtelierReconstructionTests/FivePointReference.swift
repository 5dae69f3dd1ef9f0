import AtelierGeometry
import Foundation
@testable import AtelierReconstruction

// The five-point solver as it was before it was rewritten for speed (arrays of arrays, recursive
// root isolation), kept verbatim apart from the names as a reference: `FivePointTests` checks that
// the allocation-free solver finds the same essential matrices.

enum ReferenceFivePoint {
    /// Every real essential matrix (Frobenius norm 1, with `x₂ᵀ E x₁ = 0`) through the five
    /// correspondences, given in normalised (undistorted) camera coordinates; empty when the
    /// configuration is degenerate (coincident points, a rank-deficient system).
    static func solve(_ normalised1: [SIMD2<Double>], _ normalised2: [SIMD2<Double>]) -> [Matrix3] {
        precondition(normalised1.count == 5 && normalised2.count == 5)
        var rows: [Double] = []
        rows.reserveCapacity(45)
        for (p, q) in zip(normalised1, normalised2) {
            rows += [q.x * p.x, q.x * p.y, q.x, q.y * p.x, q.y * p.y, q.y, p.x, p.y, 1]
        }
        guard let basis = ReferenceNullSpace.of(rows: 5, columns: 9, values: rows) else { return [] }   // X, Y, Z, W

        guard let reduced = eliminatedConstraints(basis) else { return [] }
        // Rows 4–9 lead with x²z, x², y²z, y², xyz, xy; ⟨4⟩ − z⟨5⟩ etc. are free of them.
        let b = [4, 6, 8].map { row in
            [0, 1, 2].map { unknown in
                ReferenceZPolynomial.subtract(tail(reduced[row], unknown), ReferenceZPolynomial.timesZ(tail(reduced[row + 1], unknown)))
            }
        }
        let determinant = ReferenceZPolynomial.determinant(b)
        var solutions: [Matrix3] = []
        for z in ReferencePolynomialRoots.real(determinant) {
            let numeric = b.map { row in SIMD3(row.map { ReferencePolynomialRoots.evaluate($0, at: z) }) }
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
            ReferenceCubicPolynomial.linear(x: basis[0][i], y: basis[1][i], z: basis[2][i], constant: basis[3][i])
        }
        func entry(_ r: Int, _ c: Int) -> ReferenceCubicPolynomial { e[3 * r + c] }
        var eet: [ReferenceCubicPolynomial] = []   // E Eᵀ, quadratic
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
enum ReferenceZPolynomial {
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
struct ReferenceCubicPolynomial {
    var coefficients: [Double]

    /// Exponents `(x, y, z)` of each monomial, in storage order.
    static let monomials: [(Int, Int, Int)] = [
        (3, 0, 0), (0, 3, 0), (2, 1, 0), (1, 2, 0), (2, 0, 1), (2, 0, 0), (0, 2, 1), (0, 2, 0), (1, 1, 1), (1, 1, 0),
        (1, 0, 2), (1, 0, 1), (1, 0, 0), (0, 1, 2), (0, 1, 1), (0, 1, 0), (0, 0, 3), (0, 0, 2), (0, 0, 1), (0, 0, 0),
    ]

    /// Every pair of monomials whose product has degree ≤ 3, with the product's index.
    private static let products: [(Int, Int, Int)] = {
        func index(_ e: (Int, Int, Int)) -> Int? { monomials.firstIndex { $0 == e } }
        var table: [(Int, Int, Int)] = []
        for (i, a) in monomials.enumerated() {
            for (j, b) in monomials.enumerated() {
                if let k = index((a.0 + b.0, a.1 + b.1, a.2 + b.2)) { table.append((i, j, k)) }
            }
        }
        return table
    }()

    init(coefficients: [Double]) { self.coefficients = coefficients }

    /// `a x + b y + c z + d`.
    static func linear(x a: Double, y b: Double, z c: Double, constant d: Double) -> ReferenceCubicPolynomial {
        var p = [Double](repeating: 0, count: 20)
        p[12] = a
        p[15] = b
        p[18] = c
        p[19] = d
        return ReferenceCubicPolynomial(coefficients: p)
    }

    static func + (p: ReferenceCubicPolynomial, q: ReferenceCubicPolynomial) -> ReferenceCubicPolynomial {
        ReferenceCubicPolynomial(coefficients: zip(p.coefficients, q.coefficients).map { $0 + $1 })
    }

    static func - (p: ReferenceCubicPolynomial, q: ReferenceCubicPolynomial) -> ReferenceCubicPolynomial {
        ReferenceCubicPolynomial(coefficients: zip(p.coefficients, q.coefficients).map { $0 - $1 })
    }

    static func * (s: Double, p: ReferenceCubicPolynomial) -> ReferenceCubicPolynomial {
        ReferenceCubicPolynomial(coefficients: p.coefficients.map { s * $0 })
    }

    /// The product, truncated to degree 3 (exact for the solver's operands).
    static func * (p: ReferenceCubicPolynomial, q: ReferenceCubicPolynomial) -> ReferenceCubicPolynomial {
        var product = [Double](repeating: 0, count: 20)
        for (i, j, k) in products where p.coefficients[i] != 0 && q.coefficients[j] != 0 {
            product[k] += p.coefficients[i] * q.coefficients[j]
        }
        return ReferenceCubicPolynomial(coefficients: product)
    }

    /// The value at `(x, y, z)` (used by tests).
    func evaluate(x: Double, y: Double, z: Double) -> Double {
        var value = 0.0
        for (c, e) in zip(coefficients, Self.monomials) {
            value += c * pow(x, Double(e.0)) * pow(y, Double(e.1)) * pow(z, Double(e.2))
        }
        return value
    }
}
enum ReferencePolynomialRoots {
    /// The distinct real roots, ascending, of `Σ coefficients[i] · xⁱ` (lowest power first).
    /// Leading coefficients below `1e-14` of the largest are treated as zero; a polynomial that is
    /// zero or constant has no roots.
    static func real(_ coefficients: [Double]) -> [Double] {
        let scale = coefficients.reduce(0) { max($0, abs($1)) }
        guard scale > 0, scale.isFinite else { return [] }
        var degree = coefficients.count - 1
        while degree > 0 && abs(coefficients[degree]) <= 1e-14 * scale { degree -= 1 }
        guard degree > 0 else { return [] }
        let p = Array(coefficients[0 ... degree])
        if degree == 1 { return [-p[0] / p[1]] }

        // Fujiwara's bound: every root has |x| ≤ 2 max |aₙ₋ₖ / aₙ|^(1/k) (much tighter than
        // Cauchy's, so fewer bisection steps from the outer ends).
        var bound = 0.0
        for k in 1 ... degree {
            let ratio = abs(p[degree - k] / p[degree])
            bound = max(bound, k == degree ? pow(ratio / 2, 1 / Double(k)) : pow(ratio, 1 / Double(k)))
        }
        bound = 2 * bound * (1 + 1e-12) + Double.leastNormalMagnitude
        let derivative = (1 ... degree).map { Double($0) * p[$0] }
        var ends = [-bound]
        ends += real(derivative).filter { $0 > -bound && $0 < bound }
        ends.append(bound)

        var roots: [Double] = []
        var lower = ends[0], valueLower = evaluate(p, at: lower)
        for upper in ends.dropFirst() {
            let valueUpper = evaluate(p, at: upper)
            if valueLower == 0 {
                if roots.last != lower { roots.append(lower) }
            } else if valueUpper != 0 && (valueLower < 0) != (valueUpper < 0) {
                roots.append(bracketed(p, lower, upper, valueLower))
            }
            lower = upper
            valueLower = valueUpper
        }
        if valueLower == 0 && roots.last != lower { roots.append(lower) }
        return roots
    }

    /// `p(x)` by Horner's rule.
    @inline(__always) static func evaluate(_ p: [Double], at x: Double) -> Double {
        var value = 0.0
        for c in p.reversed() { value = value * x + c }
        return value
    }

    /// `(p(x), p′(x))` by Horner's rule.
    @inline(__always) private static func evaluateWithDerivative(_ p: [Double], at x: Double) -> (Double, Double) {
        var value = 0.0, slope = 0.0
        for c in p.reversed() {
            slope = slope * x + value
            value = value * x + c
        }
        return (value, slope)
    }

    /// The root of `p` in `[a, b]`, where `p` changes sign once: Newton steps, falling back to
    /// bisection whenever a step would leave the bracket or is not converging fast enough
    /// ("rtsafe", Numerical Recipes §9.4).
    private static func bracketed(_ p: [Double], _ a: Double, _ b: Double, _ valueAtA: Double) -> Double {
        var low = a, high = b
        let lowIsNegative = valueAtA < 0
        var x = 0.5 * (low + high), step = high - low, previousStep = step
        var (value, slope) = evaluateWithDerivative(p, at: x)
        for _ in 0 ..< 100 {
            if value == 0 { return x }
            if (value < 0) == lowIsNegative { low = x } else { high = x }
            let newton = x - value / slope
            if slope == 0 || !(newton > low && newton < high) || abs(2 * value) > abs(previousStep * slope) {
                previousStep = step
                step = 0.5 * (high - low)
                x = low + step
            } else {
                previousStep = step
                step = value / slope
                x = newton
            }
            if abs(step) <= 2 * Double.ulpOfOne * max(1, abs(x)) { break }
            (value, slope) = evaluateWithDerivative(p, at: x)
        }
        return x
    }
}
enum ReferenceNullSpace {
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
