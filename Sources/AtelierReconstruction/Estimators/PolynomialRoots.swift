import Foundation

/// Real roots of a real polynomial, for the tenth-degree polynomial of the five-point solver.
///
/// Isolation by derivatives (the idea behind Collins & Loos's real-root isolation, 1976): between
/// two consecutive real roots of `p′` the polynomial is monotonic, so it has a root there exactly
/// when it changes sign, and a safeguarded Newton iteration finds it. The roots of `p′` come from
/// the same method one degree down. Unlike Sturm sequences (which Nistér 2004 uses) nothing here
/// depends on the accuracy of long polynomial remainder chains, and unlike a companion-matrix
/// eigen-solver no complex arithmetic is needed. A root of even multiplicity (the polynomial
/// touching zero without crossing) is found only when it is exactly zero at a critical point;
/// such roots do not occur generically and RANSAC draws another sample when one is missed.
///
/// The recursion runs as two loops over one scratch buffer: down the chain of derivatives, then
/// back up, each level's roots bracketing the next level's. Nothing is allocated for degrees up
/// to about ten (the scratch space is on the stack).
enum PolynomialRoots {
    /// The distinct real roots, ascending, of `Σ coefficients[i] · xⁱ` (lowest power first).
    /// Leading coefficients below `1e-14` of the largest are treated as zero; a polynomial that is
    /// zero or constant has no roots.
    static func real(_ coefficients: [Double]) -> [Double] {
        guard !coefficients.isEmpty else { return [] }
        var roots = [Double](repeating: 0, count: coefficients.count)
        let count = coefficients.withUnsafeBufferPointer { p in
            roots.withUnsafeMutableBufferPointer { real(p.baseAddress!, count: coefficients.count, into: $0.baseAddress!) }
        }
        return Array(roots[0 ..< count])
    }

    /// The same without allocating: the roots of the `count` coefficients at `p` are written to
    /// `roots` (room for `count`), and their number is returned.
    static func real(_ p: UnsafePointer<Double>, count: Int, into roots: UnsafeMutablePointer<Double>) -> Int {
        // Level L holds the L-th derivative (at most `count − L` coefficients), the levels packed
        // one after the other; then each level's root bound and degree (exact as a Double). For
        // degree 10, 88 doubles: on the stack.
        let packed = count * (count + 1) / 2
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: packed + 2 * count) { scratch in
            let levels = scratch.baseAddress!, bounds = levels + packed, degrees = bounds + count
            @inline(__always) func start(_ level: Int) -> UnsafeMutablePointer<Double> {
                levels + level * count - level * (level - 1) / 2
            }
            levels.update(from: p, count: count)
            // Down: trim each level, keep its root bound, differentiate into the next.
            var levelCount = 0   // levels of degree ≥ 2, whose roots the way up finds
            var rootCount = 0    // roots of the lowest level, in `roots`
            var degree = count - 1
            while true {
                let q = start(levelCount)
                var scale = 0.0
                for i in 0 ... degree { scale = max(scale, abs(q[i])) }
                guard scale > 0, scale.isFinite else { break }
                while degree > 0 && abs(q[degree]) <= 1e-14 * scale { degree -= 1 }
                guard degree > 0 else { break }
                if degree == 1 {
                    roots[0] = -q[0] / q[1]
                    rootCount = 1
                    break
                }
                // Fujiwara's bound: every root has |x| ≤ 2 max |aₙ₋ₖ / aₙ|^(1/k) (much tighter than
                // Cauchy's, so fewer bisection steps from the outer ends).
                var bound = 0.0
                for k in 1 ... degree {
                    let ratio = abs(q[degree - k] / q[degree])
                    bound = max(bound, k == degree ? pow(ratio / 2, 1 / Double(k)) : pow(ratio, 1 / Double(k)))
                }
                bounds[levelCount] = 2 * bound * (1 + 1e-12) + Double.leastNormalMagnitude
                degrees[levelCount] = Double(degree)
                let derivative = start(levelCount + 1)
                for i in 1 ... degree { derivative[i - 1] = Double(i) * q[i] }
                levelCount += 1
                degree -= 1
            }
            // Up: the roots of level L + 1 (in `roots`, ascending) split level L into monotonic
            // pieces; its own roots overwrite them in place (the k-th is written after the k-th
            // end has been read).
            for level in stride(from: levelCount - 1, through: 0, by: -1) {
                let q = UnsafePointer(start(level)), degree = Int(degrees[level]), bound = bounds[level]
                var found = 0
                var lower = -bound, valueLower = evaluate(q, degree: degree, at: lower)
                for e in 0 ... rootCount {
                    let upper: Double
                    if e < rootCount {
                        upper = roots[e]
                        guard upper > -bound && upper < bound else { continue }
                    } else {
                        upper = bound
                    }
                    let valueUpper = evaluate(q, degree: degree, at: upper)
                    if valueLower == 0 {
                        if found == 0 || roots[found - 1] != lower { roots[found] = lower; found += 1 }
                    } else if valueUpper != 0 && (valueLower < 0) != (valueUpper < 0) {
                        roots[found] = bracketed(q, degree: degree, lower, upper, valueLower)
                        found += 1
                    }
                    lower = upper
                    valueLower = valueUpper
                }
                if valueLower == 0 && (found == 0 || roots[found - 1] != lower) { roots[found] = lower; found += 1 }
                rootCount = found
            }
            return rootCount
        }
    }

    /// `p(x)` by Horner's rule, for the coefficients `p[0 ... degree]`.
    @inline(__always) static func evaluate(_ p: UnsafePointer<Double>, degree: Int, at x: Double) -> Double {
        var value = 0.0
        for i in stride(from: degree, through: 0, by: -1) { value = value * x + p[i] }
        return value
    }

    /// `(p(x), p′(x))` by Horner's rule.
    @inline(__always) private static func evaluateWithDerivative(_ p: UnsafePointer<Double>, degree: Int, at x: Double) -> (Double, Double) {
        var value = 0.0, slope = 0.0
        for i in stride(from: degree, through: 0, by: -1) {
            slope = slope * x + value
            value = value * x + p[i]
        }
        return (value, slope)
    }

    /// The root of `p` in `[a, b]`, where `p` changes sign once: Newton steps, falling back to
    /// bisection whenever a step would leave the bracket or is not converging fast enough
    /// ("rtsafe", Numerical Recipes §9.4).
    private static func bracketed(_ p: UnsafePointer<Double>, degree: Int, _ a: Double, _ b: Double, _ valueAtA: Double) -> Double {
        var low = a, high = b
        let lowIsNegative = valueAtA < 0
        var x = 0.5 * (low + high), step = high - low, previousStep = step
        var (value, slope) = evaluateWithDerivative(p, degree: degree, at: x)
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
            (value, slope) = evaluateWithDerivative(p, degree: degree, at: x)
        }
        return x
    }
}
