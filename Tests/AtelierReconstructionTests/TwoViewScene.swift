import AtelierGeometry
import AtelierReconstruction
import AtelierTestSupport
import Foundation

/// Two views of random points with a known relative pose, noisy pixels and wrong matches, made in
/// the test from a seeded `SamplingRandom`.
struct TwoViewScene {
    enum Motion { case general, forward, sideways, rotationOnly }

    static let camera = CameraIntrinsics(width: 1024, height: 768, focalLengthPixels: 650)
    var cam2FromCam1: CameraPose
    var pointsInCam1: [SIMD3<Double>] = []
    var pixels1: [SIMD2<Double>] = []
    var pixels2: [SIMD2<Double>] = []
    var trueInliers = Set<Int>()

    /// `count` matches, each a point in front of both cameras seen with Gaussian pixel noise of
    /// `noisePixels`, except an `outlierRatio` of them whose second pixel is uniform in the image.
    /// A planar scene puts the points on a slanted plane.
    init(seed: UInt64, motion: Motion, planar: Bool = false, count: Int = 200, noisePixels: Double = 0.5, outlierRatio: Double = 0.3) {
        var random = SamplingRandom(seed: seed)
        let axis = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()).normalized
        let angle = (5 + 10 * random.unit()) * .pi / 180
        var rotation = Matrix3.rotation(axis: axis, angleRadians: angle)
        var centre2: SIMD3<Double>
        switch motion {
        case .general:
            centre2 = SIMD3(random.gaussian(), random.gaussian(), random.gaussian()).normalized * (1.5 + 0.5 * random.unit())   // a median triangulation angle of ~8°
        case .forward:
            centre2 = SIMD3(0.05 * random.gaussian(), 0.05 * random.gaussian(), 1.0)
            rotation = Matrix3.rotation(axis: axis, angleRadians: angle / 4)
        case .sideways:
            centre2 = SIMD3(1.0, 0.05 * random.gaussian(), 0.05 * random.gaussian())
            rotation = Matrix3.rotation(axis: [0, 1, 0], angleRadians: -0.1) * Matrix3.rotation(axis: axis, angleRadians: angle / 4)
        case .rotationOnly:
            centre2 = .zero
        }
        cam2FromCam1 = CameraPose(quaternion: Quaternion(rotation), translation: -(rotation * centre2))
        let camera = Self.camera
        let planeNormal = SIMD3(0.3, -0.2, 1.0).normalized, planeDistance = 6.0
        while pointsInCam1.count < count {
            let pixel = SIMD2(random.unit() * Double(camera.width), random.unit() * Double(camera.height))
            let n = camera.normalised(fromPixel: pixel)
            let ray = SIMD3(n.x, n.y, 1)
            let depth = planar ? planeDistance / planeNormal.dot(ray) : 3 + 9 * random.unit()
            let point = ray * depth
            guard let seen = camera.project(cam2FromCam1.pointInCam(point)),
                  seen.x >= 0, seen.y >= 0, seen.x < Double(camera.width), seen.y < Double(camera.height) else { continue }
            let index = pointsInCam1.count
            pointsInCam1.append(point)
            pixels1.append(pixel + noisePixels * SIMD2(random.gaussian(), random.gaussian()))
            if random.unit() < outlierRatio {
                pixels2.append(SIMD2(random.unit() * Double(camera.width), random.unit() * Double(camera.height)))
            } else {
                trueInliers.insert(index)
                pixels2.append(seen + noisePixels * SIMD2(random.gaussian(), random.gaussian()))
            }
        }
    }

    var normalised1: [SIMD2<Double>] { pixels1.map { Self.camera.normalised(fromPixel: $0) } }
    var normalised2: [SIMD2<Double>] { pixels2.map { Self.camera.normalised(fromPixel: $0) } }

    /// The angle (degrees) between the estimated and the true rotation.
    func rotationErrorDegrees(_ estimate: CameraPose) -> Double {
        Matrix3.angleBetween(estimate.camFromWorld, cam2FromCam1.camFromWorld) * 180 / .pi
    }

    /// The angle (degrees) between the estimated and the true translation directions.
    func translationErrorDegrees(_ estimate: CameraPose) -> Double {
        let cosine = estimate.translation.normalized.dot(cam2FromCam1.translation.normalized)
        return acos(max(-1, min(1, cosine))) * 180 / .pi
    }
}
