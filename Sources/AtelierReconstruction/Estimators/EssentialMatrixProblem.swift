import AtelierGeometry
import Foundation

/// Relative pose of two calibrated cameras as a RANSAC problem: five-point minimal samples,
/// Sampson residuals in normalised coordinates, and the essential-constrained eight-point fit on
/// the inliers for local optimisation.
///
/// Residuals are in normalised image units (pixels divided by the focal length); convert a pixel
/// threshold with `maxResidual(pixels:focalLength1Pixels:focalLength2Pixels:)`, which averages
/// the two cameras as COLMAP does (`ImageToCameraThreshold`).
public struct EssentialMatrixProblem: RANSACProblem {
    public let normalised1: [SIMD2<Double>]
    public let normalised2: [SIMD2<Double>]

    /// Correspondences in undistorted normalised coordinates (`CameraIntrinsics.normalised`).
    public init(normalised1: [SIMD2<Double>], normalised2: [SIMD2<Double>]) {
        precondition(normalised1.count == normalised2.count)
        self.normalised1 = normalised1
        self.normalised2 = normalised2
    }

    /// A pixel threshold in normalised units: `pixels / f`, averaged over the two cameras.
    public static func maxResidual(pixels: Double, focalLength1Pixels: Double, focalLength2Pixels: Double) -> Double {
        0.5 * (pixels / focalLength1Pixels + pixels / focalLength2Pixels)
    }

    public var dataCount: Int { normalised1.count }
    public var minimalSampleSize: Int { 5 }

    public func minimalModels(sample: [Int]) -> [Matrix3] {
        EssentialMatrixFivePoint.solve(sample.map { normalised1[$0] }, sample.map { normalised2[$0] })
    }

    @inlinable public func squaredResidual(_ model: Matrix3, index: Int) -> Double {
        FundamentalMatrixEightPoint.squaredSampsonError(model, normalised1[index], normalised2[index])
    }

    /// The eight-point fit on the inliers, Sampson-reweighted from `model` and projected to
    /// singular values (1, 1, 0) after each round.
    public func refinedModel(_ model: Matrix3, inliers: [Int]) -> Matrix3? {
        FundamentalMatrixEightPoint.reweightedFit(inliers.map { normalised1[$0] }, inliers.map { normalised2[$0] }, start: model,
                                                  project: EssentialMatrix.projected)
    }
}
