import AtelierGeometry
import Foundation

/// The similarity that moves a point set's centroid to the origin and scales its mean distance
/// from it to √2, which makes the linear (DLT, eight-point) systems well conditioned.
///
/// Hartley, "In defense of the eight-point algorithm" (PAMI 1997): without it the entries of the
/// design matrix span six orders of magnitude for pixel coordinates and the least-squares fit is
/// dominated by rounding.
struct HartleyNormalisation {
    /// `normalisedFromInput`: `(x', y', 1)ᵀ = T (x, y, 1)ᵀ`.
    var transform: Matrix3
    /// The points after the transform.
    var points: [SIMD2<Double>]

    /// Nil when all points coincide (there is no scale to fix).
    init?(_ input: [SIMD2<Double>]) {
        guard !input.isEmpty else { return nil }
        let centroid = input.reduce(SIMD2<Double>.zero, +) / Double(input.count)
        let meanDistance = input.reduce(0.0) { $0 + (($1 - centroid) * ($1 - centroid)).sum().squareRoot() } / Double(input.count)
        guard meanDistance > 1e-12 * max(1, abs(centroid.x), abs(centroid.y)) else { return nil }
        let s = 2.0.squareRoot() / meanDistance
        transform = Matrix3(rows: [s, 0, -s * centroid.x], [0, s, -s * centroid.y], [0, 0, 1])
        points = input.map { ($0 - centroid) * s }
    }
}
