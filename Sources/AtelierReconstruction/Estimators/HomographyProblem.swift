import AtelierGeometry
import Foundation

/// A homography between two images as a RANSAC problem: four-point minimal samples, transfer
/// error in pixels, and the DLT least-squares fit on the inliers for local optimisation.
public struct HomographyProblem: RANSACProblem {
    public let pixels1: [SIMD2<Double>]
    public let pixels2: [SIMD2<Double>]

    public init(pixels1: [SIMD2<Double>], pixels2: [SIMD2<Double>]) {
        precondition(pixels1.count == pixels2.count)
        self.pixels1 = pixels1
        self.pixels2 = pixels2
    }

    public var dataCount: Int { pixels1.count }
    public var minimalSampleSize: Int { 4 }

    public func minimalModels(sample: [Int]) -> [Matrix3] {
        HomographyFourPoint.fit(sample.map { pixels1[$0] }, sample.map { pixels2[$0] }).map { [$0] } ?? []
    }

    @inlinable public func squaredResidual(_ model: Matrix3, index: Int) -> Double {
        HomographyFourPoint.squaredTransferError(model, pixels1[index], pixels2[index])
    }

    public func refinedModel(_ model: Matrix3, inliers: [Int]) -> Matrix3? {
        HomographyFourPoint.fit(inliers.map { pixels1[$0] }, inliers.map { pixels2[$0] })
    }
}
