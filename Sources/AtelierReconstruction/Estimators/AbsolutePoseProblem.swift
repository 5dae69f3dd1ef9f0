import AtelierGeometry
import Foundation

/// Absolute pose (PnP) as a RANSAC problem: 2D–3D correspondences between an image's undistorted
/// normalised points and triangulated world points, with a camera of known focal length.
///
/// Minimal samples of three go to Lambda Twist P3P (up to four poses each). The residual is the
/// squared reprojection error in pixels, `f²·|π(R·X + t) − x|²` (normalised error scaled by the
/// focal length, so `RANSACOptions.maxResidual` is in pixels); a point on or behind the camera
/// plane has an infinite residual, so it is never an inlier. Local optimisation re-fits with EPnP
/// on the inliers and polishes with a few Levenberg–Marquardt steps (`PoseRefiner`), as COLMAP
/// pairs P3P with EPnP in its LO-RANSAC (Schönberger & Frahm, CVPR 2016).
public struct AbsolutePoseProblem: RANSACProblem {
    public typealias Model = CameraPose

    public let normalised: [SIMD2<Double>]
    public let pointsInWorld: [SIMD3<Double>]
    public let focalLengthPixels: Double
    /// `(x, y, 1)` normalised to unit length: the rays P3P wants.
    let bearings: [SIMD3<Double>]

    /// `normalised[i]` is the undistorted normalised image point `(x/z, y/z)` of `pointsInWorld[i]`.
    public init(normalised: [SIMD2<Double>], pointsInWorld: [SIMD3<Double>], focalLengthPixels: Double) {
        precondition(normalised.count == pointsInWorld.count, "one world point per image point")
        self.normalised = normalised
        self.pointsInWorld = pointsInWorld
        self.focalLengthPixels = focalLengthPixels
        bearings = normalised.map { SIMD3($0.x, $0.y, 1).normalized }
    }

    public var dataCount: Int { normalised.count }
    public var minimalSampleSize: Int { 3 }

    public func minimalModels(sample: [Int]) -> [CameraPose] {
        P3PSolver.camFromWorld(bearings: sample.map { bearings[$0] }, pointsInWorld: sample.map { pointsInWorld[$0] })
    }

    public func squaredResidual(_ model: CameraPose, index: Int) -> Double {
        let p = model.camFromWorld * pointsInWorld[index] + model.translation
        guard p.z > 0 else { return .infinity }
        let observed = normalised[index]
        let dx = p.x / p.z - observed.x, dy = p.y / p.z - observed.y
        return focalLengthPixels * focalLengthPixels * (dx * dx + dy * dy)
    }

    /// EPnP on the inliers when it beats `model` on them (it fails on coplanar points, where
    /// `model` is kept as the start), then a short robust Levenberg–Marquardt polish.
    public func refinedModel(_ model: CameraPose, inliers: [Int]) -> CameraPose? {
        var start = model
        if let fitted = EPnPSolver.camFromWorld(normalised: normalised, pointsInWorld: pointsInWorld, indices: inliers),
           sumOfSquaredResiduals(fitted, inliers) < sumOfSquaredResiduals(model, inliers) {
            start = fitted
        }
        var options = PoseRefinerOptions()
        options.maxIterations = 10
        return PoseRefiner.refine(camFromWorld: start, focalLengthPixels: focalLengthPixels, normalised: normalised,
                                  pointsInWorld: pointsInWorld, indices: inliers, options: options).camFromWorld
    }

    func sumOfSquaredResiduals(_ model: CameraPose, _ indices: [Int]) -> Double {
        indices.reduce(0) { $0 + squaredResidual(model, index: $1) }
    }
}
