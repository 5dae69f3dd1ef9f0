import Foundation

/// A 2-D affine map `p ↦ A p + t`: what cropping, resizing, re-framing and a small turn do to a
/// photo's pixel positions (and, when the crop is resized back to a different aspect, a
/// stretch along one axis).
public struct AffineTransform2D: Sendable, Equatable {
    /// `A`, row-major: `x' = a·x + b·y + tx`, `y' = c·x + d·y + ty`.
    public var a: Double, b: Double, c: Double, d: Double
    public var tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    @inlinable public func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(a * p.x + b * p.y + tx, c * p.x + d * p.y + ty)
    }

    public var determinant: Double { a * d - b * c }

    /// The singular values of `A`, larger first: how much it stretches along its two axes.
    public var singularValues: (larger: Double, smaller: Double) {
        // For a 2×2 matrix: σ₁,₂ = (√((a+d)² + (c−b)²) ± √((a−d)² + (b+c)²)) / 2.
        let p = ((a + d) * (a + d) + (c - b) * (c - b)).squareRoot()
        let q = ((a - d) * (a - d) + (b + c) * (b + c)).squareRoot()
        return ((p + q) / 2, abs(p - q) / 2)
    }

    /// The angle of the rotation nearest to `A` (its polar factor), in radians.
    public var rotationAngle: Double { atan2(c - b, a + d) }

    /// The least-squares map from `from` to `to` (at least three points, not all on a line);
    /// nil when they are degenerate.
    public static func fit(from: [SIMD2<Double>], to: [SIMD2<Double>]) -> AffineTransform2D? {
        precondition(from.count == to.count)
        guard from.count >= 3 else { return nil }
        // Centre both sets: the translation drops out and the 2×2 normal equations are well
        // conditioned whatever the pixel offsets.
        let n = Double(from.count)
        let mean1 = from.reduce(SIMD2<Double>.zero, +) / n, mean2 = to.reduce(SIMD2<Double>.zero, +) / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        var ux = SIMD2<Double>.zero, uy = SIMD2<Double>.zero  // Σ p'·x and Σ p'·y
        for (p, q) in zip(from, to) {
            let u = p - mean1, v = q - mean2
            sxx += u.x * u.x
            sxy += u.x * u.y
            syy += u.y * u.y
            ux += v * u.x
            uy += v * u.y
        }
        let det = sxx * syy - sxy * sxy
        let scale = sxx * syy
        guard det > 1e-12 * max(scale, 1e-300), det.isFinite else { return nil }
        // [a b; c d] = [ux uy] · [sxx sxy; sxy syy]⁻¹
        let i11 = syy / det, i12 = -sxy / det, i22 = sxx / det
        let a = ux.x * i11 + uy.x * i12, b = ux.x * i12 + uy.x * i22
        let c = ux.y * i11 + uy.y * i12, d = ux.y * i12 + uy.y * i22
        let t = mean2 - SIMD2(a * mean1.x + b * mean1.y, c * mean1.x + d * mean1.y)
        let map = AffineTransform2D(a: a, b: b, c: c, d: d, tx: t.x, ty: t.y)
        return [a, b, c, d, t.x, t.y].allSatisfy(\.isFinite) ? map : nil
    }
}

/// An affine map between two images as a RANSAC problem: three-point minimal samples, the
/// transfer error in the second image, and the least-squares fit on the inliers.
public struct AffineProblem: RANSACProblem {
    public let points1: [SIMD2<Double>]
    public let points2: [SIMD2<Double>]

    public init(points1: [SIMD2<Double>], points2: [SIMD2<Double>]) {
        precondition(points1.count == points2.count)
        self.points1 = points1
        self.points2 = points2
    }

    public var dataCount: Int { points1.count }
    public var minimalSampleSize: Int { 3 }

    public func minimalModels(sample: [Int]) -> [AffineTransform2D] {
        AffineTransform2D.fit(from: sample.map { points1[$0] }, to: sample.map { points2[$0] }).map { [$0] } ?? []
    }

    @inlinable public func squaredResidual(_ model: AffineTransform2D, index: Int) -> Double {
        let r = model.apply(points1[index]) - points2[index]
        return r.x * r.x + r.y * r.y
    }

    public func refinedModel(_ model: AffineTransform2D, inliers: [Int]) -> AffineTransform2D? {
        AffineTransform2D.fit(from: inliers.map { points1[$0] }, to: inliers.map { points2[$0] })
    }
}
