import AtelierGeometry
import AtelierReconstruction
import Foundation

/// Ground truth for the absolute-pose tests: a random camera and world points in front of it,
/// all from a seeded `SamplingRandom`.
struct PoseTestScene {
    var camFromWorld: CameraPose
    var pointsInWorld: [SIMD3<Double>]
    /// Exact normalised projections `(x/z, y/z)`.
    var normalised: [SIMD2<Double>]
    /// Mean depth of the points in the camera frame.
    var meanDepth: Double

    /// `count` points with depths in `depths` and normalised coordinates within ±`halfField`,
    /// seen by a camera with a uniformly random rotation and a centre within ±5 of the origin.
    init(count: Int, random: inout SamplingRandom, depths: ClosedRange<Double> = 2 ... 8, halfField: Double = 0.5) {
        camFromWorld = CameraPose(quaternion: Self.randomQuaternion(&random),
                                  translation: SIMD3(random.unit() - 0.5, random.unit() - 0.5, random.unit() - 0.5) * 10)
        var world: [SIMD3<Double>] = [], image: [SIMD2<Double>] = [], depthSum = 0.0
        let inverse = camFromWorld.camFromWorld.transposed
        for _ in 0 ..< count {
            let z = depths.lowerBound + random.unit() * (depths.upperBound - depths.lowerBound)
            let u = (2 * random.unit() - 1) * halfField, v = (2 * random.unit() - 1) * halfField
            let pointInCam = SIMD3(u * z, v * z, z)
            world.append(inverse * (pointInCam - camFromWorld.translation))
            image.append(SIMD2(u, v))
            depthSum += z
        }
        pointsInWorld = world
        normalised = image
        meanDepth = depthSum / Double(max(count, 1))
    }

    /// A uniformly distributed rotation (Shoemake's subgroup algorithm).
    static func randomQuaternion(_ random: inout SamplingRandom) -> Quaternion {
        let u1 = random.unit(), u2 = random.unit() * 2 * .pi, u3 = random.unit() * 2 * .pi
        let a = (1 - u1).squareRoot(), b = u1.squareRoot()
        var q = Quaternion(w: b * cos(u3), x: a * sin(u2), y: a * cos(u2), z: b * sin(u3))
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        return q
    }

    /// The rotation angle in degrees between two poses.
    static func rotationErrorDegrees(_ a: CameraPose, _ b: CameraPose) -> Double {
        Matrix3.angleBetween(a.camFromWorld, b.camFromWorld) * 180 / .pi
    }
}
