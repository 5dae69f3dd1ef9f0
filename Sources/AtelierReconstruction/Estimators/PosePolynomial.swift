import Foundation

/// Real roots of the low-degree polynomials in the minimal pose solvers (the cubic of Lambda
/// Twist P3P, the homogeneous quadratics it leaves).
///
/// Closed forms (Cardano's and the trigonometric solution of the depressed cubic) give starting
/// values; a Newton step or two on the original polynomial then polishes each root to full
/// precision, since the closed forms lose digits near multiple roots. Prefixed `Pose` to keep
/// clear of the two-view estimators' helpers.
enum PosePolynomial {
    /// The real roots of `c3 x³ + c2 x² + c1 x + c0`, ascending (a double root may appear once or
    /// twice). Falls back to the quadratic or linear case when the leading coefficients vanish.
    static func realRootsOfCubic(_ c3: Double, _ c2: Double, _ c1: Double, _ c0: Double) -> [Double] {
        let size = max(abs(c2), abs(c1), abs(c0))
        guard abs(c3) > 1e-14 * size, c3 != 0 else { return realRootsOfQuadratic(c2, c1, c0) }
        let a = c2 / c3, b = c1 / c3, c = c0 / c3
        // x = y − a/3 turns x³ + a x² + b x + c into the depressed cubic y³ + p y + q.
        let p = b - a * a / 3, q = 2 * a * a * a / 27 - a * b / 3 + c
        let shift = -a / 3
        var roots: [Double]
        let discriminant = q * q / 4 + p * p * p / 27
        if discriminant > 0 {
            // One real root (Cardano), in the form that avoids cancellation between the cube roots.
            let u = cbrt(-q / 2 - (q >= 0 ? 1 : -1) * discriminant.squareRoot())
            let y = u == 0 ? 0 : u - p / (3 * u)
            roots = [y + shift]
        } else if p == 0 {
            roots = [shift]   // a triple root
        } else {
            // Three real roots: y = 2·√(−p/3)·cos(φ/3 − 2πk/3).
            let r = (-p / 3).squareRoot()
            let cosine = max(-1, min(1, (3 * q) / (2 * p) * (-3 / p).squareRoot()))
            let phi = acos(cosine)
            roots = (0 ..< 3).map { 2 * r * cos(phi / 3 - 2 * Double.pi * Double($0) / 3) + shift }
        }
        return roots.map { polish($0, a, b, c) }.sorted()
    }

    /// The real roots of `c2 x² + c1 x + c0`, ascending; the linear root when `c2` vanishes,
    /// none when every coefficient does.
    static func realRootsOfQuadratic(_ c2: Double, _ c1: Double, _ c0: Double) -> [Double] {
        let size = max(abs(c1), abs(c0))
        guard abs(c2) > 1e-14 * size, c2 != 0 else {
            return c1 != 0 ? [-c0 / c1] : []
        }
        let discriminant = c1 * c1 - 4 * c2 * c0
        guard discriminant >= 0 else { return [] }
        // q = −(b + sign(b)·√Δ)/2 gives both roots without cancellation: q/a and c/q.
        let q = -0.5 * (c1 + (c1 >= 0 ? 1 : -1) * discriminant.squareRoot())
        if q == 0 { return [0, 0] }
        return [q / c2, c0 / q].sorted()
    }

    /// Newton's method on the monic cubic `x³ + a x² + b x + c`, kept only while it reduces |f|.
    private static func polish(_ root: Double, _ a: Double, _ b: Double, _ c: Double) -> Double {
        var x = root
        var fx = ((x + a) * x + b) * x + c
        for _ in 0 ..< 4 {
            let derivative = (3 * x + 2 * a) * x + b
            guard derivative != 0, fx != 0 else { break }
            let next = x - fx / derivative
            let fNext = ((next + a) * next + b) * next + c
            guard abs(fNext) < abs(fx) else { break }
            x = next
            fx = fNext
        }
        return x
    }
}
