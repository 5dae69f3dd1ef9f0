import AtelierGeometry
import Foundation

/// The fundamental matrix of eight or more correspondences, in pixels: the linear solver for
/// uncalibrated two-view geometry, and the least-squares refit used by local optimisation.
///
/// Hartley's normalised eight-point algorithm ("In defense of the eight-point algorithm", PAMI
/// 1997): normalise both point sets, solve `x₂ᵀ F x₁ = 0` in least squares (the right singular
/// vector of the smallest singular value), enforce rank 2 by zeroing the smallest singular value
/// (the closest rank-2 matrix in Frobenius norm), and undo the normalisation.
public enum FundamentalMatrixEightPoint {
    /// `F` with `x₂ᵀ F x₁ = 0`, rank 2, Frobenius norm 1; nil for fewer than eight points or a
    /// degenerate configuration (the linear system has a null space of dimension > 1, for
    /// example when the points are collinear or coincide).
    public static func fit(_ points1: [SIMD2<Double>], _ points2: [SIMD2<Double>]) -> Matrix3? {
        linearFit(points1, points2).map(rank2)
    }

    /// The closest rank-2 matrix in Frobenius norm (smallest singular value zeroed), norm 1.
    static func rank2(_ m: Matrix3) -> Matrix3 {
        let svd = m.rotationSVD
        let s = svd.singularValues
        return (Matrix3(columns: s.x * svd.u.column(0), s.y * svd.u.column(1), .zero) * svd.v.transposed).normalisedToUnitNorm
    }

    /// `F` refitted to minimise (approximately) the Sampson error rather than the algebraic one:
    /// the eight-point fit with each equation weighted by the inverse Sampson denominator of the
    /// previous estimate, three times (iteratively reweighted least squares; Torr & Murray, IJCV
    /// 1997, §5.2). The plain fit weights points by how far they are from the epipoles, which
    /// biases the epipole of a forward-moving camera by degrees; the reweighted fit does not.
    /// `project` is applied after each fit (rank 2 for F, the essential constraint for E).
    static func reweightedFit(_ points1: [SIMD2<Double>], _ points2: [SIMD2<Double>], start: Matrix3,
                              project: (Matrix3) -> Matrix3) -> Matrix3? {
        var model = start, fitted = false
        var weights = [Double](repeating: 1, count: points1.count)
        for _ in 0 ..< 3 {
            for i in points1.indices {
                let x1 = SIMD3(points1[i].x, points1[i].y, 1), x2 = SIMD3(points2[i].x, points2[i].y, 1)
                let fx1 = model * x1, ftx2 = model.transposed * x2
                let denominator = fx1.x * fx1.x + fx1.y * fx1.y + ftx2.x * ftx2.x + ftx2.y * ftx2.y
                weights[i] = denominator > 0 ? 1 / denominator : 0
            }
            guard let linear = linearFit(points1, points2, weights: weights) else { break }
            model = project(linear)
            fitted = true
        }
        return fitted ? model : nil
    }

    /// The least-squares `F` (or `E`, for normalised coordinates) before any rank constraint,
    /// with the normalisation undone; each equation scaled by `√weight` when weights are given.
    /// Nil when degenerate.
    static func linearFit(_ points1: [SIMD2<Double>], _ points2: [SIMD2<Double>], weights: [Double]? = nil) -> Matrix3? {
        precondition(points1.count == points2.count)
        guard points1.count >= 8, let n1 = HartleyNormalisation(points1), let n2 = HartleyNormalisation(points2) else { return nil }
        var rows: [Double] = []
        rows.reserveCapacity(9 * points1.count)
        for (i, (p, q)) in zip(n1.points, n2.points).enumerated() {
            let w = weights.map { $0[i].squareRoot() } ?? 1
            rows += [w * q.x * p.x, w * q.x * p.y, w * q.x, w * q.y * p.x, w * q.y * p.y, w * q.y, w * p.x, w * p.y, w]
        }
        guard let f = leastSquaresNullVector(rows: points1.count, values: rows) else { return nil }
        let normalisedF = Matrix3(rowMajor: f)
        return (n2.transform.transposed * normalisedF * n1.transform).normalisedToUnitNorm
    }

    /// The unit `x` minimising `|A x|` for an `rows × 9` system: the exact null vector (Householder,
    /// cheap, once per RANSAC sample) for 8 rows, the right singular vector of the smallest
    /// singular value for more. Nil when the solution is not unique: a null space of dimension
    /// above 1 (collinear or coincident points), or fewer than 8 rows.
    static func leastSquaresNullVector(rows: Int, values: [Double]) -> [Double]? {
        if rows == 8 { return NullSpace.of(rows: 8, columns: 9, values: values)?[0] }
        guard rows > 8 else { return nil }
        let svd = SingularValueDecomposition(rows: rows, columns: 9, values: values)
        guard svd.singularValues[7] > 1e-10 * svd.singularValues[0] else { return nil }
        return svd.smallestRightVector
    }

    /// The squared Sampson distance of a correspondence to `x₂ᵀ F x₁ = 0` (Hartley & Zisserman,
    /// eq. 11.9): the first-order approximation of the squared reprojection distance, in the
    /// units of the points (pixels for F, normalised coordinates for E).
    ///
    /// Written out in scalars: it runs for every datum of every RANSAC model.
    @inlinable public static func squaredSampsonError(_ f: Matrix3, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>) -> Double {
        let (r0, r1, r2) = (f.row0, f.row1, f.row2)
        let fx1x = r0.x * p1.x + r0.y * p1.y + r0.z
        let fx1y = r1.x * p1.x + r1.y * p1.y + r1.z
        let fx1z = r2.x * p1.x + r2.y * p1.y + r2.z
        let ftx2x = r0.x * p2.x + r1.x * p2.y + r2.x
        let ftx2y = r0.y * p2.x + r1.y * p2.y + r2.y
        let numerator = p2.x * fx1x + p2.y * fx1y + fx1z
        let denominator = fx1x * fx1x + fx1y * fx1y + ftx2x * ftx2x + ftx2y * ftx2y
        return denominator > 0 ? numerator * numerator / denominator : .infinity
    }
}

extension Matrix3 {
    /// The matrix divided by its Frobenius norm (homogeneous quantities: F, E, H); unchanged
    /// when zero.
    var normalisedToUnitNorm: Matrix3 {
        let norm = frobeniusNormSquared.squareRoot()
        return norm > 0 ? (1 / norm) * self : self
    }
}
