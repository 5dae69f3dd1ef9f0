import AtelierGeometry
import Foundation

/// The homography `x₂ ~ H x₁` of four or more correspondences, in pixels: the model of a planar
/// scene or of a camera that only rotates.
///
/// The normalised direct linear transform (Hartley & Zisserman, algorithm 4.2): each
/// correspondence gives two rows of `A h = 0` (from `x₂ × H x₁ = 0`); `h` is the right singular
/// vector of the smallest singular value, exact for four points and the algebraic least-squares
/// fit for more. Hartley normalisation of both point sets keeps the system well conditioned.
public enum HomographyFourPoint {
    /// `H` with Frobenius norm 1; nil for fewer than four points or a degenerate configuration
    /// (three of four points collinear, coincident points, a singular result).
    public static func fit(_ points1: [SIMD2<Double>], _ points2: [SIMD2<Double>]) -> Matrix3? {
        precondition(points1.count == points2.count)
        guard points1.count >= 4, let n1 = HartleyNormalisation(points1), let n2 = HartleyNormalisation(points2),
              let denormalise = n2.transform.inverse else { return nil }
        var rows: [Double] = []
        rows.reserveCapacity(18 * points1.count)
        for (p, q) in zip(n1.points, n2.points) {
            rows += [-p.x, -p.y, -1, 0, 0, 0, q.x * p.x, q.x * p.y, q.x]
            rows += [0, 0, 0, -p.x, -p.y, -1, q.y * p.x, q.y * p.y, q.y]
        }
        guard let h = FundamentalMatrixEightPoint.leastSquaresNullVector(rows: 2 * points1.count, values: rows) else { return nil }
        let normalisedH = Matrix3(rowMajor: h)
        // Three collinear points of four make H singular even when the null space is 1-D.
        guard abs(normalisedH.determinant) > 1e-10 else { return nil }
        return (denormalise * normalisedH * n1.transform).normalisedToUnitNorm
    }

    /// The squared distance in image 2 between `p2` and `H p1` (the one-sided transfer error
    /// COLMAP scores homographies by); infinity when `p1` maps to infinity.
    @inlinable public static func squaredTransferError(_ h: Matrix3, _ p1: SIMD2<Double>, _ p2: SIMD2<Double>) -> Double {
        let x = h.row0.x * p1.x + h.row0.y * p1.y + h.row0.z
        let y = h.row1.x * p1.x + h.row1.y * p1.y + h.row1.z
        let z = h.row2.x * p1.x + h.row2.y * p1.y + h.row2.z
        guard abs(z) > 1e-300 else { return .infinity }
        let dx = x / z - p2.x, dy = y / z - p2.y
        return dx * dx + dy * dy
    }
}
