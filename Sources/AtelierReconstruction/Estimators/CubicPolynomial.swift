import Foundation

/// A polynomial of degree at most 3 in `x, y, z`: the entries of the five-point solver's
/// constraint equations, built from the linear entries of `E = x X + y Y + z Z + W`.
///
/// Its 20 coefficients are stored in Nistér's monomial order (PAMI 2004, table 1), which puts the
/// monomials to be eliminated first: x³, y³, x²y, xy², x²z, x², y²z, y², xyz, xy | xz², xz, x,
/// yz², yz, y, z³, z², z, 1. Products whose degree would exceed 3 never arise in the solver
/// (linear × linear, quadratic × linear) and are dropped.
struct CubicPolynomial {
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
    static func linear(x a: Double, y b: Double, z c: Double, constant d: Double) -> CubicPolynomial {
        var p = [Double](repeating: 0, count: 20)
        p[12] = a
        p[15] = b
        p[18] = c
        p[19] = d
        return CubicPolynomial(coefficients: p)
    }

    static func + (p: CubicPolynomial, q: CubicPolynomial) -> CubicPolynomial {
        CubicPolynomial(coefficients: zip(p.coefficients, q.coefficients).map { $0 + $1 })
    }

    static func - (p: CubicPolynomial, q: CubicPolynomial) -> CubicPolynomial {
        CubicPolynomial(coefficients: zip(p.coefficients, q.coefficients).map { $0 - $1 })
    }

    static func * (s: Double, p: CubicPolynomial) -> CubicPolynomial {
        CubicPolynomial(coefficients: p.coefficients.map { s * $0 })
    }

    /// The product, truncated to degree 3 (exact for the solver's operands).
    static func * (p: CubicPolynomial, q: CubicPolynomial) -> CubicPolynomial {
        var product = [Double](repeating: 0, count: 20)
        for (i, j, k) in products where p.coefficients[i] != 0 && q.coefficients[j] != 0 {
            product[k] += p.coefficients[i] * q.coefficients[j]
        }
        return CubicPolynomial(coefficients: product)
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
