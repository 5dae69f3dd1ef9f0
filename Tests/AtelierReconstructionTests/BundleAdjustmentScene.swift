import AtelierGeometry
@testable import AtelierReconstruction
import Foundation

/// A synthetic bundle adjustment scene with exact ground truth: cameras on a ring around a ball
/// of points, one shared RADIAL camera, noisy observations with a share of gross outliers.
struct BundleAdjustmentScene {
    var truth: BundleAdjustmentProblem
    /// Observations whose pixel was replaced by a gross outlier.
    var outliers: Set<Int>
    let ringRadius: Double

    /// `imageCount` cameras on a ring of radius 2.5 (alternately 0.4 above and below the plane)
    /// looking at the centre, `pointCount` points uniform in the unit ball, each seen by each
    /// camera with probability `visibility` when it lands in the 1200 × 900 image.
    init(imageCount: Int = 30, pointCount: Int = 2000, visibility: Double = 0.5, noisePixels: Double = 0.5,
         outlierRatio: Double = 0.05, k1: Double = -0.05, seed: UInt64 = 1) {
        var random = SamplingRandom(seed: seed)
        ringRadius = 2.5
        let camera = CameraIntrinsics(width: 1200, height: 900, focalLengthPixels: 1000, k1: k1, k2: 0)
        var poses: [CameraPose] = []
        for i in 0 ..< imageCount {
            let angle = 2 * Double.pi * Double(i) / Double(imageCount)
            let centre = SIMD3(ringRadius * cos(angle), i % 2 == 0 ? 0.4 : -0.4, ringRadius * sin(angle))
            poses.append(CameraPose(centre: centre, lookingAt: [0, 0, 0], up: [0, 1, 0]))
        }
        var points: [SIMD3<Double>] = []
        while points.count < pointCount {
            let p = SIMD3(random.unit(), random.unit(), random.unit()) * 2 - 1
            if p.length <= 1 { points.append(p) }
        }
        var observations: [BundleAdjustmentObservation] = []
        var outliers = Set<Int>()
        for (j, point) in points.enumerated() {
            for (i, pose) in poses.enumerated() where random.unit() < visibility {
                guard let pixel = camera.project(pose.pointInCam(point)),
                      pixel.x >= 0, pixel.x < 1200, pixel.y >= 0, pixel.y < 900 else { continue }
                var observed = pixel + noisePixels * Self.gaussian2(&random)
                if random.unit() < outlierRatio {
                    let angle = 2 * Double.pi * random.unit()
                    observed = pixel + (20 + 80 * random.unit()) * SIMD2(cos(angle), sin(angle))
                    outliers.insert(observations.count)
                }
                observations.append(BundleAdjustmentObservation(image: Int32(i), point: Int32(j), pixel: observed))
            }
        }
        truth = BundleAdjustmentProblem(cameras: [camera], imageCamera: Array(repeating: 0, count: imageCount),
                                        poses: poses, points: points, observations: observations)
        self.outliers = outliers
    }

    /// Two independent standard normal numbers (Box–Muller).
    static func gaussian2(_ random: inout SamplingRandom) -> SIMD2<Double> {
        let u = max(random.unit(), 1e-300), v = random.unit()
        let radius = (-2 * log(u)).squareRoot()
        return radius * SIMD2(cos(2 * .pi * v), sin(2 * .pi * v))
    }

    /// A unit vector uniform on the sphere.
    static func direction(_ random: inout SamplingRandom) -> SIMD3<Double> {
        while true {
            let v = SIMD3(random.unit(), random.unit(), random.unit()) * 2 - 1
            let l = v.length
            if l > 0.1, l <= 1 { return v / l }
        }
    }

    /// The image-1 translation axis to hold: the largest component of its translation relative
    /// to image 0, so holding it fixes the scale.
    var gaugeAxis: Int {
        let p0 = truth.poses[0], p1 = truth.poses[1]
        let relative = p1.camFromWorld * (p0.centre - p1.centre)
        let magnitudes = [abs(relative.x), abs(relative.y), abs(relative.z)]
        return magnitudes.firstIndex(of: magnitudes.max()!)!
    }

    /// The truth with every pose but image 0 turned by `rotationDegrees` about a random axis and
    /// moved by `centreShift` (image 1 keeps its held translation component), points moved by up
    /// to `pointShift`, the focal length scaled by `1 + focalError` and k1 reset to 0.
    func perturbed(seed: UInt64, rotationDegrees: Double = 0.5, centreShiftRatio: Double = 0.01,
                   pointShift: Double = 0.02, focalError: Double = 0.03) -> BundleAdjustmentProblem {
        var random = SamplingRandom(seed: seed)
        var problem = truth
        for i in 1 ..< problem.poses.count {
            let pose = problem.poses[i]
            let turn = Matrix3.rotation(vector: Self.direction(&random) * (rotationDegrees * .pi / 180))
            let rotation = turn * pose.camFromWorld
            let centre = pose.centre + Self.direction(&random) * (centreShiftRatio * ringRadius)
            var translation = -(Quaternion(rotation).rotationMatrix * centre)
            if i == 1 { translation[gaugeAxis] = pose.translation[gaugeAxis] }
            problem.poses[i] = CameraPose(quaternion: Quaternion(rotation), translation: translation)
        }
        for j in problem.points.indices {
            problem.points[j] += Self.direction(&random) * (pointShift * random.unit())
        }
        problem.cameras[0].focalLengthPixels *= 1 + focalError
        problem.cameras[0].k1 = 0
        return problem
    }

    /// Options holding the gauge as COLMAP does: image 0's pose and one translation component
    /// of image 1.
    var gaugeOptions: BundleAdjustmentOptions {
        var options = BundleAdjustmentOptions()
        options.constantPoses = [0]
        options.constantTranslationComponent = (image: 1, axis: gaugeAxis)
        return options
    }

    /// RMS reprojection error (pixels) of the inlier observations of `problem`.
    func inlierRMS(_ problem: BundleAdjustmentProblem) -> Double {
        var sum = 0.0, count = 0
        for (k, o) in problem.observations.enumerated() where !outliers.contains(k) {
            let camera = problem.cameras[problem.imageCamera[Int(o.image)]]
            guard let pixel = camera.project(problem.poses[Int(o.image)].pointInCam(problem.points[Int(o.point)])) else { return .infinity }
            sum += ((pixel - o.pixel) * (pixel - o.pixel)).sum()
            count += 1
        }
        return (sum / Double(count)).squareRoot()
    }
}
