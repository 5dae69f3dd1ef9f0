import AtelierGeometry
import Foundation

/// The algebra of essential matrices: building one from a relative pose, projecting a 3 × 3
/// matrix onto the essential manifold, and splitting one back into its four poses.
///
/// An essential matrix is `E = [t]× R` for `cam2FromCam1 = (R, t)`; it has two equal singular
/// values and a zero one (Hartley & Zisserman §9.6), and is defined up to scale and sign.
public enum EssentialMatrix {
    /// `[t]× R`, the essential matrix of `cam2FromCam1`, so that `x₂ᵀ E x₁ = 0` for the normalised
    /// coordinates of one point in both cameras.
    public static func from(cam2FromCam1: CameraPose) -> Matrix3 {
        Matrix3.crossProduct(cam2FromCam1.translation) * cam2FromCam1.camFromWorld
    }

    /// `[t]× R` for a rotation and translation given apart.
    static func from(_ rotation: Matrix3, _ translation: SIMD3<Double>) -> Matrix3 {
        Matrix3.crossProduct(translation) * rotation
    }

    /// The closest essential matrix in Frobenius norm (singular values set to `(1, 1, 0)`,
    /// Hartley & Zisserman result 9.18 up to scale), Frobenius norm 1.
    public static func projected(_ m: Matrix3) -> Matrix3 {
        let svd = m.rotationSVD
        let e = Matrix3(columns: svd.u.column(0), svd.u.column(1), .zero) * svd.v.transposed
        return e.normalisedToUnitNorm
    }

    /// The four `cam2FromCam1` rotations and unit translations with `[t]× R ∝ E`: `(R₁, t)`,
    /// `(R₁, −t)`, `(R₂, t)`, `(R₂, −t)` with `R₁ = U W Vᵀ`, `R₂ = U Wᵀ Vᵀ`, `t = u₃`
    /// (Hartley & Zisserman result 9.19). Only one puts the scene in front of both cameras.
    public static func decompose(_ e: Matrix3) -> [(rotation: Matrix3, translation: SIMD3<Double>)] {
        let svd = e.rotationSVD   // U, V proper rotations, so R₁, R₂ are too
        let w = Matrix3(rows: [0, -1, 0], [1, 0, 0], [0, 0, 1])
        let r1 = svd.u * w * svd.v.transposed
        let r2 = svd.u * w.transposed * svd.v.transposed
        let t = svd.u.column(2).normalized
        return [(r1, t), (r1, -t), (r2, t), (r2, -t)]
    }
}
