import Foundation
import AtelierGeometry

/// The floor or turntable a garment stands on, found among the dense points: the plane, roughly
/// perpendicular to the cameras' up direction, that holds the most points at the bottom of the
/// cloud (RANSAC). `up` is the unit normal, pointing from the ground towards the cameras;
/// points with `up·x < height` are below it.
struct GroundPlane: Sendable {
    var up: SIMD3<Double>
    var height: Double

    /// The mean of the cameras' up directions (the image's −y axis in the world): people hold
    /// the phone upright, so this is gravity's opposite to within a few degrees.
    static func cameraUp(_ poses: [CameraPose]) -> SIMD3<Double> {
        poses.reduce(SIMD3<Double>.zero) { $0 - $1.camFromWorld.row1 }.normalized
    }

    /// The plane, or nil when no flat support holding at least 5% of the points lies in the
    /// lowest tenth of the cloud.
    static func find(points: [SIMD3<Float>], up: SIMD3<Double>, tolerance: Double) -> GroundPlane? {
        guard points.count >= 100 else { return nil }
        let heights = points.map { up.dot(SIMD3<Double>($0)) }.sorted()
        let low = heights[heights.count / 10]
        var random = PixelRandom(seed: 0x6A09_E667_F3BC_C908, x: points.count, y: 0, round: 0)
        var best: (up: SIMD3<Double>, height: Double, count: Int)?
        let maxTilt = cos(15 * Double.pi / 180)
        for _ in 0 ..< 300 {
            let a = SIMD3<Double>(points[Int(random.next() % UInt64(points.count))])
            let b = SIMD3<Double>(points[Int(random.next() % UInt64(points.count))])
            let c = SIMD3<Double>(points[Int(random.next() % UInt64(points.count))])
            var n = (b - a).cross(c - a)
            guard n.length > 0 else { continue }
            n = n.normalized
            if n.dot(up) < 0 { n = -n }
            guard n.dot(up) > maxTilt else { continue }
            let h = n.dot(a)
            guard up.dot(a) <= low + tolerance * 4 else { continue }
            var count = 0
            for p in points where abs(n.dot(SIMD3<Double>(p)) - h) < tolerance { count += 1 }
            if count > best?.count ?? 0 { best = (n, h, count) }
        }
        guard let best, best.count * 20 >= points.count else { return nil }
        return GroundPlane(up: best.up, height: best.height)
    }
}
