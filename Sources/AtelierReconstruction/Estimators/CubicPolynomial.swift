import Foundation

/// A polynomial of degree at most 3 in `x, y, z`: the entries of the five-point solver's
/// constraint equations, built from the linear entries of `E = x X + y Y + z Z + W`.
///
/// Its 20 coefficients are stored in Nistér's monomial order (PAMI 2004, table 1), which puts the
/// monomials to be eliminated first: x³, y³, x²y, xy², x²z, x², y²z, y², xyz, xy | xz², xz, x,
/// yz², yz, y, z³, z², z, 1. They live inline in two SIMD vectors, so a polynomial is a plain
/// 160-byte value: sums and row operations are vector arithmetic and nothing is allocated.
struct CubicPolynomial {
    /// Coefficients 0 ..< 16.
    var head = SIMD16<Double>()
    /// Coefficients 16 ..< 20: z³, z², z, 1.
    var tail = SIMD4<Double>()

    /// Exponents `(x, y, z)` of each monomial, in storage order.
    static let monomials: [(Int, Int, Int)] = [
        (3, 0, 0), (0, 3, 0), (2, 1, 0), (1, 2, 0), (2, 0, 1), (2, 0, 0), (0, 2, 1), (0, 2, 0), (1, 1, 1), (1, 1, 0),
        (1, 0, 2), (1, 0, 1), (1, 0, 0), (0, 1, 2), (0, 1, 1), (0, 1, 0), (0, 0, 3), (0, 0, 2), (0, 0, 1), (0, 0, 0),
    ]

    /// The coefficient of monomial `i` (storage order).
    @inline(__always) subscript(i: Int) -> Double {
        get { i < 16 ? head[i] : tail[i - 16] }
        set { if i < 16 { head[i] = newValue } else { tail[i - 16] = newValue } }
    }

    /// `a x + b y + c z + d`.
    static func linear(x a: Double, y b: Double, z c: Double, constant d: Double) -> CubicPolynomial {
        linear(SIMD4(a, b, c, d))
    }

    /// The linear polynomial with coefficients `(x, y, z, 1)`.
    @inline(__always) static func linear(_ form: SIMD4<Double>) -> CubicPolynomial {
        var p = CubicPolynomial()
        p.head[12] = form.x
        p.head[15] = form.y
        p.tail[2] = form.z
        p.tail[3] = form.w
        return p
    }

    /// The product of two linear forms `(x, y, z, 1)`, a quadratic.
    @inline(__always) static func product(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> CubicPolynomial {
        var p = CubicPolynomial()
        p.head[5] = a.x * b.x                  // x²
        p.head[7] = a.y * b.y                  // y²
        p.head[9] = a.x * b.y + a.y * b.x      // xy
        p.head[11] = a.x * b.z + a.z * b.x     // xz
        p.head[12] = a.x * b.w + a.w * b.x     // x
        p.head[14] = a.y * b.z + a.z * b.y     // yz
        p.head[15] = a.y * b.w + a.w * b.y     // y
        p.tail[1] = a.z * b.z                  // z²
        p.tail[2] = a.z * b.w + a.w * b.z      // z
        p.tail[3] = a.w * b.w                  // 1
        return p
    }

    @inline(__always) static func + (p: CubicPolynomial, q: CubicPolynomial) -> CubicPolynomial {
        CubicPolynomial(head: p.head + q.head, tail: p.tail + q.tail)
    }

    @inline(__always) static func - (p: CubicPolynomial, q: CubicPolynomial) -> CubicPolynomial {
        CubicPolynomial(head: p.head - q.head, tail: p.tail - q.tail)
    }

    @inline(__always) static func * (s: Double, p: CubicPolynomial) -> CubicPolynomial {
        CubicPolynomial(head: s * p.head, tail: s * p.tail)
    }

    /// The product of `p`, of degree at most 2, and `q`, of degree at most 1 (the only products
    /// the solver forms: its cubic terms, and `q`'s terms above degree 1, are not read). Written
    /// out term by term rather than through a table of monomial pairs: 36 multiplications.
    @inline(__always) static func * (p: CubicPolynomial, q: CubicPolynomial) -> CubicPolynomial {
        let (xx, yy, xy, xz, x) = (p.head[5], p.head[7], p.head[9], p.head[11], p.head[12])
        let (yz, y, zz, z, one) = (p.head[14], p.head[15], p.tail[1], p.tail[2], p.tail[3])
        let (lx, ly, lz, l1) = (q.head[12], q.head[15], q.tail[2], q.tail[3])
        var r = CubicPolynomial()
        r.head[0] = xx * lx                          // x³
        r.head[1] = yy * ly                          // y³
        r.head[2] = xx * ly + xy * lx                // x²y
        r.head[3] = yy * lx + xy * ly                // xy²
        r.head[4] = xx * lz + xz * lx                // x²z
        r.head[5] = xx * l1 + x * lx                 // x²
        r.head[6] = yy * lz + yz * ly                // y²z
        r.head[7] = yy * l1 + y * ly                 // y²
        r.head[8] = xy * lz + xz * ly + yz * lx      // xyz
        r.head[9] = xy * l1 + x * ly + y * lx        // xy
        r.head[10] = xz * lz + zz * lx               // xz²
        r.head[11] = xz * l1 + x * lz + z * lx       // xz
        r.head[12] = x * l1 + one * lx               // x
        r.head[13] = yz * lz + zz * ly               // yz²
        r.head[14] = yz * l1 + y * lz + z * ly       // yz
        r.head[15] = y * l1 + one * ly               // y
        r.tail[0] = zz * lz                          // z³
        r.tail[1] = zz * l1 + z * lz                 // z²
        r.tail[2] = z * l1 + one * lz                // z
        r.tail[3] = one * l1                         // 1
        return r
    }

    /// The value at `(x, y, z)` (used by tests).
    func evaluate(x: Double, y: Double, z: Double) -> Double {
        var value = 0.0
        for (i, e) in Self.monomials.enumerated() {
            value += self[i] * pow(x, Double(e.0)) * pow(y, Double(e.1)) * pow(z, Double(e.2))
        }
        return value
    }
}
