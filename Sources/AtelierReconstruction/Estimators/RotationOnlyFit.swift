import AtelierGeometry
import Foundation

/// The rotation that best maps camera 1's rays onto camera 2's, and how many matches it explains:
/// the test that tells a camera turning on the spot (panoramic) from one that moved in front of
/// a plane, when a homography fits either.
///
/// The rotation is the orthogonal Procrustes solution `argmax Σ b₂ᵀ R b₁` over unit bearings
/// (Arun, Huang & Blostein, PAMI 1987: `R = U diag(1, 1, det) Vᵀ` from the SVD of `Σ b₂ b₁ᵀ`),
/// refitted twice on its own inliers so a few wrong matches do not pull it.
struct RotationOnlyFit {
    /// `cam2FromCam1`'s rotation.
    var rotation: Matrix3
    /// Matches whose transfer `R b₁` lands within `maxErrorPixels` of `b₂` in image 2.
    var inlierCount: Int

    /// Nil for fewer than two matches (a rotation needs two independent rays).
    init?(normalised1: [SIMD2<Double>], normalised2: [SIMD2<Double>], maxErrorPixels: Double, focalLength2Pixels: Double) {
        guard normalised1.count >= 2 else { return nil }
        let bearings1 = normalised1.map { SIMD3($0.x, $0.y, 1).normalized }
        let bearings2 = normalised2.map { SIMD3($0.x, $0.y, 1).normalized }
        let threshold = maxErrorPixels / focalLength2Pixels
        var used = Array(bearings1.indices)
        var fitted = Matrix3.identity, inliers: [Int] = []
        for _ in 0 ..< 3 {
            guard used.count >= 2 else { break }
            var correlation = Matrix3.zero
            for i in used { correlation = correlation + Matrix3.outer(bearings2[i], bearings1[i]) }
            let svd = correlation.rotationSVD   // U, V proper: U Vᵀ is already a rotation
            fitted = svd.u * svd.v.transposed
            inliers = bearings1.indices.filter { i in
                let mapped = fitted * bearings1[i]
                guard mapped.z > 0 else { return false }
                let dx = mapped.x / mapped.z - normalised2[i].x, dy = mapped.y / mapped.z - normalised2[i].y
                return (dx * dx + dy * dy).squareRoot() <= threshold
            }
            used = inliers
        }
        rotation = fitted
        inlierCount = inliers.count
    }
}
