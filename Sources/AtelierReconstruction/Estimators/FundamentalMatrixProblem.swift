import AtelierGeometry
import Foundation

/// Uncalibrated two-view geometry as a RANSAC problem: eight-point minimal samples and Sampson
/// residuals, in pixels; the (Sampson-reweighted) eight-point fit on the inliers for local
/// optimisation.
///
/// COLMAP samples seven points; eight keeps one solution per sample and one solver for both
/// sample and refit, at the cost of a few more samples (0.7⁸ against 0.7⁷ all-inlier chances).
public struct FundamentalMatrixProblem: RANSACProblem {
    public let pixels1: [SIMD2<Double>]
    public let pixels2: [SIMD2<Double>]

    public init(pixels1: [SIMD2<Double>], pixels2: [SIMD2<Double>]) {
        precondition(pixels1.count == pixels2.count)
        self.pixels1 = pixels1
        self.pixels2 = pixels2
    }

    public var dataCount: Int { pixels1.count }
    public var minimalSampleSize: Int { 8 }

    public func minimalModels(sample: [Int]) -> [Matrix3] {
        FundamentalMatrixEightPoint.fit(sample.map { pixels1[$0] }, sample.map { pixels2[$0] }).map { [$0] } ?? []
    }

    @inlinable public func squaredResidual(_ model: Matrix3, index: Int) -> Double {
        FundamentalMatrixEightPoint.squaredSampsonError(model, pixels1[index], pixels2[index])
    }

    /// The eight-point fit on the inliers, Sampson-reweighted from `model`, rank 2.
    public func refinedModel(_ model: Matrix3, inliers: [Int]) -> Matrix3? {
        FundamentalMatrixEightPoint.reweightedFit(inliers.map { pixels1[$0] }, inliers.map { pixels2[$0] }, start: model,
                                                  project: FundamentalMatrixEightPoint.rank2)
    }
}
