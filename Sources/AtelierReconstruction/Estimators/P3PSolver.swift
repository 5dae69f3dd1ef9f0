import AtelierGeometry
import Foundation

/// The minimal absolute-pose solver: the camera poses that see three known world points along
/// three given rays. Lambda Twist (Persson & Nordberg, "Lambda Twist: An Accurate Fast Robust
/// Perspective Three Point (P3P) Solver", ECCV 2018).
///
/// With depths `λᵢ` along unit bearings `yᵢ`, rigidity says `|λᵢyᵢ − λⱼyⱼ|² = |xᵢ − xⱼ|² = aᵢⱼ`:
/// three quadrics `λᵀMᵢⱼλ = aᵢⱼ`. Two homogeneous combinations `D₁ = a₂₃M₁₂ − a₁₂M₂₃` and
/// `D₂ = a₂₃M₁₃ − a₁₃M₂₃` vanish on every solution, so the solutions lie on each conic of the pencil
/// `D₁ + γD₂`. The cubic `det(D₁ + γD₂) = 0` picks a degenerate member, `σ₁(e₁·λ)² + σ₂(e₂·λ)²`,
/// which splits into two planes through the origin. Each plane cuts `λᵀD₁λ = 0` in at most two rays;
/// the scale follows from the `aᵢⱼ`, Gauss–Newton polishes the depths, and the pose is read off the
/// triangle in both frames. Up to four poses; no quartic is ever solved.
///
/// This version differs from the paper's code in two places, both for robustness rather than
/// speed: it solves the cubic for every real root and keeps the most clearly indefinite `D₀`
/// (the paper takes one root by Newton's method), and it parametrises each plane by an
/// orthonormal basis rather than dividing by one coordinate.
public enum P3PSolver {
    /// The poses (camFromWorld) under which `pointsInWorld[i]` lies along `bearings[i]` in front of
    /// the camera, for exactly three correspondences; up to four. Bearings are in the camera
    /// frame and need not be unit length. Empty for degenerate input: a wrong count, collinear or
    /// coincident world points, parallel bearings, or non-finite values.
    public static func camFromWorld(bearings: [SIMD3<Double>], pointsInWorld: [SIMD3<Double>]) -> [CameraPose] {
        guard bearings.count == 3, pointsInWorld.count == 3 else { return [] }
        let y = bearings.map(\.normalized), x = pointsInWorld
        guard y.allSatisfy({ abs($0.length - 1) < 1e-9 }), x.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return [] }
        for (i, j) in [(0, 1), (0, 2), (1, 2)] where y[i].cross(y[j]).length < 1e-9 { return [] }

        let d12 = x[0] - x[1], d13 = x[0] - x[2], d23 = x[1] - x[2]
        let scale = max(d12.dot(d12), d13.dot(d13), d23.dot(d23))
        guard scale > 0 else { return [] }
        let normal = d12.cross(d13)
        guard normal.dot(normal) > 1e-18 * scale * scale else { return [] }   // collinear (sin of the angle < 1e-9)

        // Work with distances scaled so the longest side is 1; depths are scaled back at the end.
        let a12 = d12.dot(d12) / scale, a13 = d13.dot(d13) / scale, a23 = d23.dot(d23) / scale
        let b12 = y[0].dot(y[1]), b13 = y[0].dot(y[2]), b23 = y[1].dot(y[2])
        let m12 = Matrix3(rows: [1, -b12, 0], [-b12, 1, 0], [0, 0, 0])
        let m13 = Matrix3(rows: [1, 0, -b13], [0, 0, 0], [-b13, 0, 1])
        let m23 = Matrix3(rows: [0, 0, 0], [0, 1, -b23], [0, -b23, 1])
        let d1 = a23 * m12 - a12 * m23, d2 = a23 * m13 - a13 * m23

        guard let planeNormals = degenerateConic(d1, d2) else { return [] }
        let equations = (m12: m12, m13: m13, m23: m23, a12: a12, a13: a13, a23: a23)
        var poses: [CameraPose] = []
        for planeNormal in planeNormals {
            for direction in raysInPlane(normal: planeNormal, d1, d2) {
                guard var lambda = depths(along: direction, equations) else { continue }
                lambda = refinedDepths(lambda, equations, b12: b12, b13: b13, b23: b23)
                guard lambda.min() > 0 else { continue }
                lambda *= scale.squareRoot()
                if let pose = pose(depths: lambda, bearings: y, pointsInWorld: x) { poses.append(pose) }
            }
        }
        return poses
    }

    /// The planes whose union is a degenerate member of the pencil `αD₁ + βD₂`. The cubic is solved
    /// in `γ = β/α` or, when its leading coefficient is the smaller end, in `α/β`, so a root at
    /// infinity cannot arise; among the real roots the one whose two non-zero eigenvalues are most
    /// clearly of opposite sign is used.
    private static func degenerateConic(_ d1: Matrix3, _ d2: Matrix3) -> [SIMD3<Double>]? {
        // det(A + tB) = det A + t·tr(adj(A)B) + t²·tr(A·adj(B)) + t³·det B.
        func adjugate(_ m: Matrix3) -> Matrix3 {
            Matrix3(columns: m.row1.cross(m.row2), m.row2.cross(m.row0), m.row0.cross(m.row1))
        }
        let c0 = d1.determinant, c3 = d2.determinant
        let c1 = (adjugate(d1) * d2).trace, c2 = (d1 * adjugate(d2)).trace
        let inGamma = abs(c3) >= abs(c0)
        let roots = inGamma ? PosePolynomial.realRootsOfCubic(c3, c2, c1, c0) : PosePolynomial.realRootsOfCubic(c0, c1, c2, c3)

        var best: (ratio: Double, large: SIMD3<Double>, small: SIMD3<Double>)?
        for root in roots {
            let d0 = inGamma ? d1 + root * d2 : root * d1 + d2
            guard let eigen = PoseSymmetricEigen.of(d0) else { continue }
            // Order by magnitude: the smallest is the (numerical) zero of the degenerate conic.
            let order = [0, 1, 2].sorted { abs(eigen.values[$0]) > abs(eigen.values[$1]) }
            let sigmaLarge = eigen.values[order[0]], sigmaSmall = eigen.values[order[1]]
            guard sigmaLarge != 0 else { continue }
            let ratio = -sigmaSmall / sigmaLarge   // in [−1, 1]; positive when D₀ is indefinite
            if ratio > (best?.ratio ?? -1e-12) {
                best = (ratio, eigen.vectors[order[0]], eigen.vectors[order[1]])
            }
        }
        guard let best else { return nil }
        // σL(eL·λ)² + σS(eS·λ)² = 0  ⇔  eL·λ = ±s·(eS·λ) with s = √(−σS/σL).
        let s = max(0, best.ratio).squareRoot()
        if s < 1e-12 { return [best.large] }
        return [best.large - s * best.small, best.large + s * best.small]
    }

    /// The rays through the origin in the plane with `normal` on the conic `λᵀDλ = 0`, for the
    /// better conditioned of `D₁` and `D₂` (on the plane they are proportional).
    private static func raysInPlane(normal: SIMD3<Double>, _ d1: Matrix3, _ d2: Matrix3) -> [SIMD3<Double>] {
        let n = normal.normalized
        let helper: SIMD3<Double> = abs(n.x) < 0.6 ? [1, 0, 0] : (abs(n.y) < 0.6 ? [0, 1, 0] : [0, 0, 1])
        let p = n.cross(helper).normalized, q = n.cross(p)
        func restricted(_ d: Matrix3) -> (Double, Double, Double) { (p.dot(d * p), p.dot(d * q), q.dot(d * q)) }
        let r1 = restricted(d1), r2 = restricted(d2)
        let (a, b, c) = abs(r1.0) + abs(r1.1) + abs(r1.2) >= abs(r2.0) + abs(r2.1) + abs(r2.2) ? r1 : r2
        // a u² + 2b uv + c v² = 0: with k = −(b + sign(b)·√(b² − ac)), the rays are (k, a) and (c, k).
        let discriminant = b * b - a * c
        guard discriminant >= 0 else { return [] }
        let k = -(b + (b >= 0 ? 1 : -1) * discriminant.squareRoot())
        var rays: [SIMD3<Double>] = []
        for (u, v) in [(k, a), (c, k)] where abs(u) + abs(v) > 0 { rays.append(u * p + v * q) }
        return rays
    }

    private typealias Equations = (m12: Matrix3, m13: Matrix3, m23: Matrix3, a12: Double, a13: Double, a23: Double)

    /// The depths `κ·direction` with positive entries that fit the three distances in the least-
    /// squares sense of their sum; nil when no positive scaling exists.
    private static func depths(along direction: SIMD3<Double>, _ e: Equations) -> SIMD3<Double>? {
        let form = direction.dot((e.m12 + e.m13 + e.m23) * direction)
        guard form > 0 else { return nil }
        let kappa = ((e.a12 + e.a13 + e.a23) / form).squareRoot()
        let lambda = direction.sum() >= 0 ? kappa * direction : -kappa * direction
        return lambda.min() > 0 ? lambda : nil
    }

    /// Gauss–Newton on the three distance equations (the paper's refinement step), keeping the
    /// best iterate.
    private static func refinedDepths(_ start: SIMD3<Double>, _ e: Equations, b12: Double, b13: Double, b23: Double) -> SIMD3<Double> {
        func residual(_ l: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(l.x * l.x + l.y * l.y - 2 * b12 * l.x * l.y - e.a12,
                  l.x * l.x + l.z * l.z - 2 * b13 * l.x * l.z - e.a13,
                  l.y * l.y + l.z * l.z - 2 * b23 * l.y * l.z - e.a23)
        }
        var lambda = start, r = residual(start)
        for _ in 0 ..< 5 {
            let norm = r.dot(r)
            guard norm > 1e-30 else { break }
            let l = lambda
            let jacobian = Matrix3(rows: [2 * (l.x - b12 * l.y), 2 * (l.y - b12 * l.x), 0],
                                   [2 * (l.x - b13 * l.z), 0, 2 * (l.z - b13 * l.x)],
                                   [0, 2 * (l.y - b23 * l.z), 2 * (l.z - b23 * l.y)])
            guard let inverse = jacobian.inverse else { break }
            let next = lambda - inverse * r, nextResidual = residual(next)
            guard nextResidual.dot(nextResidual) < norm else { break }
            lambda = next
            r = nextResidual
        }
        return lambda
    }

    /// The pose carrying the world triangle onto the camera-frame triangle `λᵢyᵢ`:
    /// `R = [λ₁y₁ − λ₂y₂, λ₁y₁ − λ₃y₃, ×]·[x₁ − x₂, x₁ − x₃, ×]⁻¹`, `t` the mean of `λᵢyᵢ − Rxᵢ`.
    private static func pose(depths lambda: SIMD3<Double>, bearings y: [SIMD3<Double>], pointsInWorld x: [SIMD3<Double>]) -> CameraPose? {
        let c = [lambda.x * y[0], lambda.y * y[1], lambda.z * y[2]]
        let e12 = c[0] - c[1], e13 = c[0] - c[2]
        let d12 = x[0] - x[1], d13 = x[0] - x[2]
        guard let worldInverse = Matrix3(columns: d12, d13, d12.cross(d13)).inverse else { return nil }
        let rotation = Matrix3(columns: e12, e13, e12.cross(e13)) * worldInverse
        guard rotation.determinant > 0 else { return nil }
        let quaternion = Quaternion(rotation)
        let proper = quaternion.rotationMatrix
        var translation = SIMD3<Double>.zero
        for i in 0 ..< 3 { translation += (c[i] - proper * x[i]) / 3 }
        guard translation.x.isFinite, translation.y.isFinite, translation.z.isFinite else { return nil }
        return CameraPose(quaternion: quaternion, translation: translation)
    }
}
