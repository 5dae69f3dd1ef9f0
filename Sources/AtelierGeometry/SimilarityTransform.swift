import Foundation

/// `x ↦ scale · rotation · x + translation`: how one reconstruction's frame maps onto another's
/// (a structure-from-motion model is only defined up to such a transform).
public struct SimilarityTransform: Sendable, Equatable {
    public var scale: Double
    public var rotation: Matrix3
    public var translation: SIMD3<Double>

    public init(scale: Double, rotation: Matrix3, translation: SIMD3<Double>) {
        self.scale = scale
        self.rotation = rotation
        self.translation = translation
    }

    public func apply(_ x: SIMD3<Double>) -> SIMD3<Double> { scale * (rotation * x) + translation }

    /// The camera pose in the target frame of a pose given in the source frame.
    public func apply(_ pose: CameraPose) -> CameraPose {
        // camFromTarget = camFromSource · Rᵀ; the centre maps like any point.
        let camFromWorld = pose.camFromWorld * rotation.transposed
        return CameraPose(quaternion: Quaternion(camFromWorld), translation: -(camFromWorld * apply(pose.centre)))
    }

    /// The least-squares similarity taking `source[i]` to `target[i]` (Horn, "Closed-form solution
    /// of absolute orientation using unit quaternions", JOSA A 1987: the rotation is the
    /// eigenvector of the largest eigenvalue of a 4×4 symmetric matrix built from the
    /// cross-covariance; scale from the ratio of spreads, as Umeyama 1991). With `withScale` false
    /// the scale is held at 1: the rigid motion, as EPnP needs. Nil for fewer than three points,
    /// or points all at one place or on one line (the rotation about that line is then free, which
    /// shows as a top eigenvalue that is not simple).
    public static func aligning(_ source: [SIMD3<Double>], to target: [SIMD3<Double>], withScale: Bool = true) -> SimilarityTransform? {
        precondition(source.count == target.count)
        guard source.count >= 3 else { return nil }
        let n = Double(source.count)
        let meanSource = source.reduce(.zero, +) / n, meanTarget = target.reduce(.zero, +) / n
        var s = Matrix3.zero, spread = 0.0
        for (a, b) in zip(source, target) {
            let da = a - meanSource, db = b - meanTarget
            s = s + Matrix3.outer(da, db)
            spread += da.dot(da)
        }
        guard spread > 1e-300 else { return nil }
        let (sxx, sxy, sxz) = (s[0, 0], s[0, 1], s[0, 2])
        let (syx, syy, syz) = (s[1, 0], s[1, 1], s[1, 2])
        let (szx, szy, szz) = (s[2, 0], s[2, 1], s[2, 2])
        let n4: [[Double]] = [
            [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
            [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
            [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
            [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
        ]
        let (q, top, second) = SymmetricEigen4.largestEigenvector(n4)
        guard top > 0, top - second > 1e-10 * top else { return nil }
        let rotation = Quaternion(w: q[0], x: q[1], y: q[2], z: q[3]).rotationMatrix
        var projected = 0.0
        for (a, b) in zip(source, target) { projected += (b - meanTarget).dot(rotation * (a - meanSource)) }
        let scale = withScale ? projected / spread : 1
        guard scale > 0, scale.isFinite else { return nil }
        return SimilarityTransform(scale: scale, rotation: rotation, translation: meanTarget - scale * (rotation * meanSource))
    }
}

/// Eigen-decomposition of a symmetric 4×4 matrix by cyclic Jacobi rotations: small, exact to
/// rounding, and unconditionally convergent.
enum SymmetricEigen4 {
    /// The unit eigenvector of the largest eigenvalue, that eigenvalue and the next largest.
    static func largestEigenvector(_ matrix: [[Double]]) -> (vector: [Double], largest: Double, second: Double) {
        var a = matrix
        var v: [[Double]] = (0 ..< 4).map { i in (0 ..< 4).map { $0 == i ? 1 : 0 } }
        for _ in 0 ..< 64 {
            var off = 0.0
            for p in 0 ..< 4 { for q in p + 1 ..< 4 { off += a[p][q] * a[p][q] } }
            if off < 1e-30 { break }
            for p in 0 ..< 4 {
                for q in p + 1 ..< 4 where abs(a[p][q]) > 1e-300 {
                    let theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                    let t = (theta >= 0 ? 1 : -1) / (abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0 ..< 4 {
                        let akp = a[k][p], akq = a[k][q]
                        a[k][p] = c * akp - s * akq
                        a[k][q] = s * akp + c * akq
                    }
                    for k in 0 ..< 4 {
                        let apk = a[p][k], aqk = a[q][k]
                        a[p][k] = c * apk - s * aqk
                        a[q][k] = s * apk + c * aqk
                    }
                    for k in 0 ..< 4 {
                        let vkp = v[k][p], vkq = v[k][q]
                        v[k][p] = c * vkp - s * vkq
                        v[k][q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0 ..< 4).sorted { a[$0][$0] > a[$1][$1] }
        let vector = (0 ..< 4).map { v[$0][order[0]] }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return (vector.map { $0 / norm }, a[order[0]][order[0]], a[order[1]][order[1]])
    }
}
