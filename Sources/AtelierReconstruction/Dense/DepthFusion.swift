import Foundation
import AtelierGeometry

/// An oriented, coloured point of the dense cloud.
public struct DensePoint: Sendable, Equatable {
    public var position: SIMD3<Float>
    /// Unit, pointing out of the surface (towards the cameras that saw it).
    public var normal: SIMD3<Float>
    public var colour: SIMD3<UInt8>

    public init(position: SIMD3<Float>, normal: SIMD3<Float>, colour: SIMD3<UInt8>) {
        self.position = position
        self.normal = normal
        self.colour = colour
    }
}

/// Merges depth maps into one point cloud, keeping only what several views agree on
/// (COLMAP's "stereo fusion", simplified): a pixel's point survives when at least
/// `minConsistentViews` of its neighbour views have a depth within `depthTolerance` (relative)
/// and a normal within `normalDegrees` at the pixel where the point lands. The surviving point is
/// the mean of the agreeing views' points. Each surface patch is emitted once: once a point is
/// emitted, the pixels it agreed with in other views are marked as covered.
///
/// Depth maps come back with every pixel that did not survive cleared, for surface fusion.
enum DepthFusion {
    struct Settings {
        var minConsistentViews = 2
        var depthTolerance: Float = 0.01
        var normalDegrees: Float = 30
    }

    static func fuse(views: [DenseView], maps: inout [DepthMap], neighbours: [[Int]], settings: Settings,
                     splitter: WorkSplitter) -> [DensePoint] {
        let frozen = maps
        let cosine = Float(cos(Double(settings.normalDegrees) * .pi / 180))
        // For each view: which pixels several views agree on.
        let agreed: [[Bool]] = splitter.map(views.count, balanced: true) { r in
            var keep = [Bool](repeating: false, count: frozen[r].depth.count)
            let view = views[r], map = frozen[r]
            for y in 0 ..< view.height {
                for x in 0 ..< view.width {
                    let o = y * view.width + x
                    guard map.depth[o] > 0 else { continue }
                    let point = view.point(x: x, y: y, depth: map.depth[o])
                    let normal = SIMD3<Float>(view.pose.camFromWorld.transposed * SIMD3<Double>(map.normal[o]))
                    var count = 0
                    for s in neighbours[r] where agrees(point, normal, views[s], frozen[s], settings, cosine) != nil { count += 1 }
                    keep[o] = count >= settings.minConsistentViews
                }
            }
            return keep
        }
        for r in maps.indices {
            for o in maps[r].depth.indices where !agreed[r][o] { maps[r].depth[o] = 0 }
        }
        // Emit each agreed pixel that no earlier point covered.
        var covered = maps.map { [Bool](repeating: false, count: $0.depth.count) }
        var points: [DensePoint] = []
        for r in views.indices {
            let view = views[r]
            for y in 0 ..< view.height {
                for x in 0 ..< view.width {
                    let o = y * view.width + x
                    guard maps[r].depth[o] > 0, !covered[r][o] else { continue }
                    let point = view.point(x: x, y: y, depth: maps[r].depth[o])
                    let normal = SIMD3<Float>(view.pose.camFromWorld.transposed * SIMD3<Double>(maps[r].normal[o]))
                    var sum = point, normalSum = normal
                    var colourSum = colour(view, o)
                    var count = 1
                    for s in neighbours[r] {
                        guard let (pixel, other) = agrees(point, normal, views[s], maps[s], settings, cosine) else { continue }
                        covered[s][pixel] = true
                        sum += views[s].point(x: pixel % views[s].width, y: pixel / views[s].width, depth: other)
                        normalSum += SIMD3<Float>(views[s].pose.camFromWorld.transposed * SIMD3<Double>(maps[s].normal[pixel]))
                        colourSum += colour(views[s], pixel)
                        count += 1
                    }
                    let n = normalSum / max(1e-6, (normalSum * normalSum).sum().squareRoot())
                    let c = colourSum / Float(count)
                    points.append(DensePoint(position: SIMD3<Float>(sum / Double(count)), normal: n,
                                             colour: SIMD3(UInt8(c.x.rounded()), UInt8(c.y.rounded()), UInt8(c.z.rounded()))))
                }
            }
        }
        return points
    }

    /// Where `point` lands in `view` and that view's depth there, when the depth and normal agree.
    private static func agrees(_ point: SIMD3<Double>, _ normal: SIMD3<Float>, _ view: DenseView, _ map: DepthMap,
                               _ settings: Settings, _ cosine: Float) -> (Int, Float)? {
        let inCam = view.pose.pointInCam(point)
        guard inCam.z > 0 else { return nil }
        let f = view.intrinsics.focalLengthPixels, c = view.intrinsics.principalPoint
        let u = f * inCam.x / inCam.z + c.x, v = f * inCam.y / inCam.z + c.y
        guard u >= 0, v >= 0, u < Double(view.width), v < Double(view.height) else { return nil }
        let pixel = Int(v) * view.width + Int(u)
        let depth = map.depth[pixel]
        guard depth > 0, abs(Float(inCam.z) - depth) <= settings.depthTolerance * depth else { return nil }
        let otherNormal = SIMD3<Float>(view.pose.camFromWorld.transposed * SIMD3<Double>(map.normal[pixel]))
        guard (otherNormal * normal).sum() >= cosine else { return nil }
        return (pixel, depth)
    }

    private static func colour(_ view: DenseView, _ pixel: Int) -> SIMD3<Float> {
        SIMD3(Float(view.colour.pixels[3 * pixel]), Float(view.colour.pixels[3 * pixel + 1]), Float(view.colour.pixels[3 * pixel + 2]))
    }
}
