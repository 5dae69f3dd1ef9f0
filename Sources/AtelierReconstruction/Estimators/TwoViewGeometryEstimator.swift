import AtelierGeometry
import Foundation

/// Geometric verification of an image pair, as COLMAP's `EstimateCalibratedTwoViewGeometry`
/// does it (Schönberger & Frahm, "Structure-from-Motion Revisited", CVPR 2016, §4.1): fit E, F
/// and H to the putative matches with LO-RANSAC, let their inlier counts decide the
/// configuration, recover the relative pose from E by cheirality, and refine it by minimising the Sampson error.
public enum TwoViewGeometryEstimator {
    /// Verifies putative matches between two images: estimates E (five-point, with the cameras'
    /// intrinsics), F (eight-point) and H (four-point) with LO-RANSAC and decides the configuration
    /// as COLMAP does (E inliers ≥ 0.95 × F inliers → calibrated, else uncalibrated; H inliers /
    /// E-or-F inliers > 0.8 → planar, or panoramic when the translation is tiny); nil when fewer
    /// than minInlierCount inliers or the ratio is below minInlierRatio.
    ///
    /// "The translation is tiny" means a pure rotation, fitted to the bearings of the homography's
    /// inliers, explains as many of them within `maxErrorPixels` as the H-inlier ratio test asks:
    /// then the parallax is below the noise and no pose is returned. `pixels1[i]` and `pixels2[i]`
    /// are one putative match.
    ///
    /// The pose (calibrated, uncalibrated through `E = K₂ᵀ F K₁`, and planar) is E's
    /// decomposition chosen by cheirality, then refined on the points in front by minimising the
    /// Cauchy-robustified Sampson error. For a truly planar scene two poses fit equally well
    /// (Longuet-Higgins 1986) and either may be returned; prefer calibrated pairs to start a
    /// reconstruction.
    public static func estimate(pixels1: [SIMD2<Double>], camera1: CameraIntrinsics,
                                pixels2: [SIMD2<Double>], camera2: CameraIntrinsics,
                                options: TwoViewGeometryOptions) -> TwoViewGeometry? {
        precondition(pixels1.count == pixels2.count)
        let count = pixels1.count
        guard count >= max(5, options.minInlierCount) else { return nil }
        let normalised1 = pixels1.map { camera1.normalised(fromPixel: $0) }
        let normalised2 = pixels2.map { camera2.normalised(fromPixel: $0) }

        // A pair is accepted only with this inlier ratio, so E and F need no more samples than
        // it takes to find such a model; H matters only when it explains nearly as much as E or
        // F, so it needs far fewer (RANSACOptions.minInlierRatio).
        let acceptableRatio = max(options.minInlierRatio, Double(options.minInlierCount) / Double(count))
        func ransacOptions(maxResidual: Double, minInlierRatio: Double) -> RANSACOptions {
            RANSACOptions(maxResidual: maxResidual, confidence: options.confidence,
                          minIterations: min(20, options.maxIterations), maxIterations: options.maxIterations,
                          minInlierRatio: min(1, minInlierRatio), seed: options.seed)
        }
        let essentialThreshold = EssentialMatrixProblem.maxResidual(pixels: options.maxErrorPixels, focalLength1Pixels: camera1.focalLengthPixels,
                                                                    focalLength2Pixels: camera2.focalLengthPixels)
        let e = RANSAC.estimate(EssentialMatrixProblem(normalised1: normalised1, normalised2: normalised2),
                                options: ransacOptions(maxResidual: essentialThreshold, minInlierRatio: acceptableRatio))
        let f = RANSAC.estimate(FundamentalMatrixProblem(pixels1: pixels1, pixels2: pixels2),
                                options: ransacOptions(maxResidual: options.maxErrorPixels, minInlierRatio: acceptableRatio))
        let countE = Double(e?.inliers.count ?? 0), countF = Double(f?.inliers.count ?? 0)
        let interestingH = max(acceptableRatio, options.maxHomographyInlierRatio * max(countE, countF) / Double(count))
        let h = RANSAC.estimate(HomographyProblem(pixels1: pixels1, pixels2: pixels2),
                                options: ransacOptions(maxResidual: options.maxErrorPixels, minInlierRatio: interestingH))
        let countH = Double(h?.inliers.count ?? 0)
        let minCount = Double(options.minInlierCount)

        // COLMAP's decision: the richer of E and F, then whether H explains nearly as much.
        var configuration: TwoViewGeometry.Configuration, inliers: [Int], essential: Matrix3?
        if let e, countE >= options.minEssentialToFundamentalInlierRatio * countF, countE >= minCount {
            configuration = countH > options.maxHomographyInlierRatio * countE ? .planar : .calibrated
            inliers = countE >= countF ? e.inliers : f!.inliers
            essential = e.model
        } else if let f, countF >= minCount {
            configuration = countH > options.maxHomographyInlierRatio * countF ? .planar : .uncalibrated
            inliers = f.inliers
            essential = essentialFromFundamental(f.model, camera1, camera2)
        } else if let h, countH >= minCount {
            configuration = .planar
            inliers = h.inliers
            essential = e?.model
        } else {
            return nil
        }
        if configuration == .planar, let h, h.inliers.count > inliers.count { inliers = h.inliers }
        guard inliers.count >= options.minInlierCount, Double(inliers.count) >= options.minInlierRatio * Double(count) else { return nil }

        if configuration == .planar, let h {
            let rotation = RotationOnlyFit(normalised1: h.inliers.map { normalised1[$0] }, normalised2: h.inliers.map { normalised2[$0] },
                                           maxErrorPixels: options.maxErrorPixels, focalLength2Pixels: camera2.focalLengthPixels)
            if Double(rotation?.inlierCount ?? 0) > options.maxHomographyInlierRatio * countH {
                return TwoViewGeometry(configuration: .panoramic, inliers: inliers, relativePose: nil, medianTriangulationAngle: 0)
            }
        }
        let inlierNormalised1 = inliers.map { normalised1[$0] }, inlierNormalised2 = inliers.map { normalised2[$0] }
        var pose = essential.flatMap { RelativePose.recover(essential: $0, normalised1: inlierNormalised1, normalised2: inlierNormalised2) }
        if let recovered = pose, let refined = RelativePose.refined(recovered.cam2FromCam1, normalised1: recovered.inFront.map { inlierNormalised1[$0] },
                                                                    normalised2: recovered.inFront.map { inlierNormalised2[$0] },
                                                                    cauchyScale: 0.25 * essentialThreshold) {
            pose = RelativePose.cheiralPoints(cam1: .identity, cam2: refined, inlierNormalised1, inlierNormalised2)
        }
        return TwoViewGeometry(configuration: configuration, inliers: inliers, relativePose: pose?.cam2FromCam1,
                               medianTriangulationAngle: pose?.medianTriangulationAngle ?? 0)
    }

    /// `E = K₂ᵀ F K₁`, projected onto the essential manifold (what COLMAP does for uncalibrated
    /// pairs; ignores radial distortion, as F does).
    static func essentialFromFundamental(_ f: Matrix3, _ camera1: CameraIntrinsics, _ camera2: CameraIntrinsics) -> Matrix3 {
        func k(_ c: CameraIntrinsics) -> Matrix3 {
            Matrix3(rows: [c.focalLengthPixels, 0, c.principalPoint.x], [0, c.focalLengthPixels, c.principalPoint.y], [0, 0, 1])
        }
        return EssentialMatrix.projected(k(camera2).transposed * f * k(camera1))
    }
}
