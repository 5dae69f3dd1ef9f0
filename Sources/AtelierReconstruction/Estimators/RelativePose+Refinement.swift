import AtelierGeometry
import Foundation

extension RelativePose {
    /// `cam2FromCam1` refined to minimise the Cauchy-robustified Sampson errors of the
    /// correspondences (normalised coordinates) over the five degrees of freedom of a relative
    /// pose, by Levenberg–Marquardt; the unit translation moves on its sphere. Nil when the
    /// refinement cannot start (fewer than five correspondences).
    ///
    /// The linear fits inside RANSAC minimise an algebraic error, which leaves the translation
    /// off by tenths of a degree at half a pixel of noise; this is the maximum-likelihood step
    /// COLMAP takes with `RefineRelativePose` (there with Ceres). The Cauchy loss
    /// `s² log(1 + r²/s²)` with scale `cauchyScale` (normalised units; about a pixel over the
    /// focal length) keeps a wrong match that slipped under the RANSAC threshold from pulling the
    /// pose by as much as half a degree.
    public static func refined(_ cam2FromCam1: CameraPose, normalised1: [SIMD2<Double>], normalised2: [SIMD2<Double>],
                               cauchyScale: Double, iterations: Int = 30) -> CameraPose? {
        precondition(normalised1.count == normalised2.count)
        guard normalised1.count >= 5 else { return nil }
        var rotation = cam2FromCam1.camFromWorld, translation = cam2FromCam1.translation.normalized
        let scale2 = cauchyScale * cauchyScale
        var cost = robustCost(rotation, translation, normalised1, normalised2, scale2)
        var lambda = 1e-4
        var residuals = [Double](repeating: 0, count: normalised1.count)
        var jacobian = [SIMD8<Double>](repeating: .zero, count: normalised1.count)   // 5 used
        for _ in 0 ..< iterations {
            let (b1, b2) = tangentBasis(translation)
            func perturbed(_ delta: [Double]) -> (Matrix3, SIMD3<Double>) {
                (Matrix3.rotation(vector: SIMD3(delta[0], delta[1], delta[2])) * rotation,
                 (translation + delta[3] * b1 + delta[4] * b2).normalized)
            }
            for i in normalised1.indices {
                residuals[i] = signedSampson(EssentialMatrix.from(rotation, translation), normalised1[i], normalised2[i])
            }
            // Central differences: residuals are smooth and cheap, five parameters.
            let step = 1e-7
            for k in 0 ..< 5 {
                var delta = [Double](repeating: 0, count: 5)
                delta[k] = step
                let (rPlus, tPlus) = perturbed(delta)
                delta[k] = -step
                let (rMinus, tMinus) = perturbed(delta)
                let ePlus = EssentialMatrix.from(rPlus, tPlus), eMinus = EssentialMatrix.from(rMinus, tMinus)
                for i in normalised1.indices {
                    jacobian[i][k] = (signedSampson(ePlus, normalised1[i], normalised2[i])
                        - signedSampson(eMinus, normalised1[i], normalised2[i])) / (2 * step)
                }
            }
            var normal = [Double](repeating: 0, count: 25), gradient = [Double](repeating: 0, count: 5)
            for i in normalised1.indices {
                // Iteratively reweighted: the Cauchy loss's weight ρ′(r²) = 1 / (1 + r²/s²).
                let j = jacobian[i], weight = 1 / (1 + residuals[i] * residuals[i] / scale2)
                for a in 0 ..< 5 {
                    gradient[a] += weight * j[a] * residuals[i]
                    for b in 0 ..< 5 { normal[a * 5 + b] += weight * j[a] * j[b] }
                }
            }
            var improved = false
            while lambda < 1e10 {
                var damped = normal
                for a in 0 ..< 5 { damped[a * 5 + a] += lambda * max(normal[a * 5 + a], 1e-12) }
                guard let step = solveSymmetric(damped, gradient.map { -$0 }) else { lambda *= 10; continue }
                let (r, t) = perturbed(step)
                let newCost = robustCost(r, t, normalised1, normalised2, scale2)
                if newCost < cost {
                    let relative = (cost - newCost) / max(cost, 1e-300)
                    rotation = r
                    translation = t
                    cost = newCost
                    lambda = max(lambda / 10, 1e-12)
                    improved = relative > 1e-12
                    break
                }
                lambda *= 10
            }
            if !improved { break }
        }
        return CameraPose(quaternion: Quaternion(rotation), translation: translation)
    }

    /// The Sampson error with the sign of the epipolar residual, so its square is the Sampson
    /// distance and it is differentiable through zero.
    private static func signedSampson(_ e: Matrix3, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>) -> Double {
        let x1 = SIMD3(p1.x, p1.y, 1), x2 = SIMD3(p2.x, p2.y, 1)
        let ex1 = e * x1, etx2 = e.transposed * x2
        let denominator = ex1.x * ex1.x + ex1.y * ex1.y + etx2.x * etx2.x + etx2.y * etx2.y
        return denominator > 0 ? x2.dot(ex1) / denominator.squareRoot() : 0
    }

    /// `Σ s² log(1 + rᵢ² / s²)` over the Sampson errors `rᵢ`.
    private static func robustCost(_ r: Matrix3, _ t: SIMD3<Double>, _ n1: [SIMD2<Double>], _ n2: [SIMD2<Double>], _ scale2: Double) -> Double {
        let e = EssentialMatrix.from(r, t)
        var cost = 0.0
        for i in n1.indices {
            let s = signedSampson(e, n1[i], n2[i])
            cost += scale2 * log1p(s * s / scale2)
        }
        return cost
    }

    /// Two unit vectors orthogonal to `t` and to each other.
    private static func tangentBasis(_ t: SIMD3<Double>) -> (SIMD3<Double>, SIMD3<Double>) {
        let axis: SIMD3<Double> = abs(t.x) < 0.6 ? [1, 0, 0] : [0, 1, 0]
        let b1 = t.cross(axis).normalized
        return (b1, t.cross(b1).normalized)
    }

    /// `A x = b` for a symmetric positive definite 5 × 5 `A` (Cholesky); nil when not positive.
    private static func solveSymmetric(_ a: [Double], _ b: [Double]) -> [Double]? {
        let n = b.count
        var l = [Double](repeating: 0, count: n * n)
        for i in 0 ..< n {
            for j in 0 ... i {
                var sum = a[i * n + j]
                for k in 0 ..< j { sum -= l[i * n + k] * l[j * n + k] }
                if i == j {
                    guard sum > 0 else { return nil }
                    l[i * n + i] = sum.squareRoot()
                } else {
                    l[i * n + j] = sum / l[j * n + j]
                }
            }
        }
        var y = b
        for i in 0 ..< n {
            for k in 0 ..< i { y[i] -= l[i * n + k] * y[k] }
            y[i] /= l[i * n + i]
        }
        for i in stride(from: n - 1, through: 0, by: -1) {
            for k in i + 1 ..< n { y[i] -= l[k * n + i] * y[k] }
            y[i] /= l[i * n + i]
        }
        return y
    }
}
