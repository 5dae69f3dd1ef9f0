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
enum PolynomialRoots {
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
