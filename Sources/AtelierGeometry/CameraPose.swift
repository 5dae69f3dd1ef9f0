import Foundation

/// Where a camera is and which way it looks, stored as COLMAP stores it:
/// `pointInCam = camFromWorld · pointInWorld + translation`, with the camera's x axis to the right
/// of the image, y down and z forward (along the optical axis).
///
/// The quaternion is the pose's one source of truth: the rotation matrix is derived from it, so
/// the pose written to `images.txt` is exactly the pose the renderer used.
public struct CameraPose: Sendable, Equatable {
    /// The world-to-camera rotation as a unit quaternion (`QW QX QY QZ` in `images.txt`).
    public let quaternion: Quaternion
    /// The world-to-camera translation (`TX TY TZ` in `images.txt`); not the camera centre.
    public let translation: SIMD3<Double>
    /// The world-to-camera rotation matrix, from the quaternion.
    public let camFromWorld: Matrix3

    @inlinable public init(quaternion: Quaternion, translation: SIMD3<Double>) {
        self.quaternion = quaternion
        self.translation = translation
        camFromWorld = quaternion.rotationMatrix
    }

    /// A camera at `centre` looking at `target`, with the image's up direction as close to `up`
    /// as the view allows, then turned by `rollDegrees` about its optical axis (positive turns the
    /// image content clockwise, that is the camera counter-clockwise as its user sees it).
    @inlinable public init(centre: SIMD3<Double>, lookingAt target: SIMD3<Double>, up: SIMD3<Double> = [0, 1, 0], rollDegrees: Double = 0) {
        let forward = (target - centre).normalized
        var right = forward.cross(up).normalized
        if right.length == 0 { right = forward.cross([1, 0, 0]).normalized }   // looking straight up or down
        let down = forward.cross(right)
        let level = Matrix3(rows: right, down, forward)
        let roll = Matrix3.rotation(axis: [0, 0, 1], angleRadians: rollDegrees * .pi / 180)
        let quaternion = Quaternion(roll * level)
        let rotation = quaternion.rotationMatrix
        self.init(quaternion: quaternion, translation: -(rotation * centre))
    }

    /// The camera centre in world coordinates, `−Rᵀ t`.
    @inlinable public var centre: SIMD3<Double> { -(camFromWorld.transposed * translation) }

    /// The viewing direction (the camera's +z axis) in world coordinates.
    @inlinable public var forward: SIMD3<Double> { camFromWorld.row2 }

    @inlinable public func pointInCam(_ pointInWorld: SIMD3<Double>) -> SIMD3<Double> {
        camFromWorld * pointInWorld + translation
    }
}
