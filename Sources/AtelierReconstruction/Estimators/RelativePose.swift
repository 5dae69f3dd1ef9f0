import AtelierGeometry
import Foundation

/// The pose of camera 2 relative to camera 1 from their essential matrix: which of the four
/// decompositions of `E` puts the scene in front of both cameras.
///
/// Hartley & Zisserman §9.6.3: of `(R₁, ±t)`, `(R₂, ±t)` only one triangulates a point in front
/// of both cameras; with noise and a few wrong matches the candidates are voted on by every
/// correspondence (COLMAP's `PoseFromEssentialMatrix`). The translation's scale is unknowable
/// from two views and is set to 1.
public struct RelativePose: Sendable {
    /// `cam2FromCam1`, with `|translation| = 1`.
    public var cam2FromCam1: CameraPose
    /// Indices (into the correspondences given) of the points that triangulate in front of
    /// both cameras, ascending.
    public var inFront: [Int]
    /// Those points, in camera 1's frame, in the order of `inFront`.
    public var pointsInCam1: [SIMD3<Double>]

    /// The decomposition of `essential` that puts the most of the correspondences (normalised
    /// coordinates) in front of both cameras, at a depth below 1000 baselines (COLMAP's bound:
    /// beyond it the side is noise). Nil when no candidate has a point in front.
    public static func recover(essential: Matrix3, normalised1: [SIMD2<Double>], normalised2: [SIMD2<Double>]) -> RelativePose? {
        precondition(normalised1.count == normalised2.count)
        let cam1 = CameraPose.identity
        var best: RelativePose?
        for (rotation, translation) in EssentialMatrix.decompose(essential) {
            let cam2 = CameraPose(quaternion: Quaternion(rotation), translation: translation)
            let candidate = cheiralPoints(cam1: cam1, cam2: cam2, normalised1, normalised2)
            if candidate.inFront.count > (best?.inFront.count ?? 0) { best = candidate }
        }
        return best
    }

    /// The correspondences that triangulate in front of both cameras for one candidate pose.
    static func cheiralPoints(cam1: CameraPose, cam2: CameraPose, _ normalised1: [SIMD2<Double>], _ normalised2: [SIMD2<Double>]) -> RelativePose {
        let maxDepth = 1000 * cam2.translation.length
        var inFront: [Int] = [], points: [SIMD3<Double>] = []
        for index in normalised1.indices {
            guard let point = Triangulation.point([(cam1, normalised1[index]), (cam2, normalised2[index])]),
                  Triangulation.isInFront(point, of: cam1, maxDepth: maxDepth),
                  Triangulation.isInFront(point, of: cam2, maxDepth: maxDepth) else { continue }
            inFront.append(index)
            points.append(point)
        }
        return RelativePose(cam2FromCam1: cam2, inFront: inFront, pointsInCam1: points)
    }

    /// The median triangulation angle (radians) of `pointsInCam1`; 0 when there are none.
    public var medianTriangulationAngle: Double {
        guard !pointsInCam1.isEmpty else { return 0 }
        let centre2 = cam2FromCam1.centre
        var angles = pointsInCam1.map { Triangulation.angleRadians(centre1: .zero, centre2: centre2, point: $0) }
        angles.sort()
        let mid = angles.count / 2
        return angles.count % 2 == 1 ? angles[mid] : 0.5 * (angles[mid - 1] + angles[mid])
    }
}

extension CameraPose {
    /// The pose of the reference camera: no rotation, at the origin.
    static let identity = CameraPose(quaternion: Quaternion(w: 1, x: 0, y: 0, z: 0), translation: .zero)
}
