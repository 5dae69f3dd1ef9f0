import AtelierGeometry
import AtelierRecords
import Foundation

/// One ring of cameras around the object: every camera at the same nominal elevation and distance,
/// evenly spaced in azimuth, as a person walking round a garment with a phone would take them.
public struct CameraRing: Sendable, Equatable {
    /// Angle above the horizontal plane through the object centre, seen from that centre.
    public var elevationDegrees: Double
    /// Distance from the object centre to each camera centre.
    public var radiusMetres: Double
    public var views: Int
    /// Azimuth of the first view; 0 puts it on the +Z axis. A second ring is usually staggered by
    /// half a step.
    public var azimuthOffsetDegrees: Double

    public init(elevationDegrees: Double, radiusMetres: Double, views: Int, azimuthOffsetDegrees: Double = 0) {
        self.elevationDegrees = elevationDegrees
        self.radiusMetres = radiusMetres
        self.views = views
        self.azimuthOffsetDegrees = azimuthOffsetDegrees
    }
}

/// How far each camera departs from its ideal place on the ring, so the capture is not perfectly
/// regular. Every value is the half-width of a uniform distribution.
public struct CameraJitter: Sendable, Equatable {
    /// Distance, as a fraction of the ring radius.
    public var radiusFraction: Double
    public var elevationDegrees: Double
    public var azimuthDegrees: Double
    /// How far from the object centre each camera aims, per axis.
    public var aimMetres: Double
    /// Turn about the optical axis.
    public var rollDegrees: Double

    public init(radiusFraction: Double, elevationDegrees: Double, azimuthDegrees: Double, aimMetres: Double, rollDegrees: Double) {
        self.radiusFraction = radiusFraction
        self.elevationDegrees = elevationDegrees
        self.azimuthDegrees = azimuthDegrees
        self.aimMetres = aimMetres
        self.rollDegrees = rollDegrees
    }

    /// A steady hand: ±1.5% distance, ±1.5° elevation, ±3° azimuth, ±2 cm aim, ±1.5° roll.
    public static let handheld = CameraJitter(radiusFraction: 0.015, elevationDegrees: 1.5, azimuthDegrees: 3, aimMetres: 0.02, rollDegrees: 1.5)
    /// Cameras exactly on their rings, aimed exactly at the centre.
    public static let none = CameraJitter(radiusFraction: 0, elevationDegrees: 0, azimuthDegrees: 0, aimMetres: 0, rollDegrees: 0)
}

/// A camera the rig placed: its pose and where it is on which ring.
public struct PlacedCamera: Sendable, Equatable {
    /// Index into the rig's rings.
    public var ring: Int
    /// The camera's actual azimuth, elevation and distance from the object centre (after jitter).
    public var azimuthDegrees: Double
    public var elevationDegrees: Double
    public var distanceMetres: Double
    public var pose: CameraPose
}

/// Places cameras on rings around a target point, +Y up, ring by ring in azimuth order.
public enum CameraRig {
    public static func place(rings: [CameraRing], around target: SIMD3<Double>, jitter: CameraJitter, seed: UInt64) -> [PlacedCamera] {
        var random = SplitMix64(seed: seed, stream: 0xCA3E_4A)
        var cameras: [PlacedCamera] = []
        for (index, ring) in rings.enumerated() {
            for view in 0 ..< ring.views {
                let azimuth = ring.azimuthOffsetDegrees + 360 * Double(view) / Double(ring.views) + random.symmetric(jitter.azimuthDegrees)
                let elevation = ring.elevationDegrees + random.symmetric(jitter.elevationDegrees)
                let distance = ring.radiusMetres * (1 + random.symmetric(jitter.radiusFraction))
                let aim = SIMD3(random.symmetric(jitter.aimMetres), random.symmetric(jitter.aimMetres), random.symmetric(jitter.aimMetres))
                let roll = random.symmetric(jitter.rollDegrees)
                let a = azimuth * .pi / 180, e = elevation * .pi / 180
                let centre = target + distance * SIMD3(cos(e) * sin(a), sin(e), cos(e) * cos(a))
                let pose = CameraPose(centre: centre, lookingAt: target + aim, rollDegrees: roll)
                cameras.append(PlacedCamera(ring: index, azimuthDegrees: azimuth, elevationDegrees: elevation, distanceMetres: distance, pose: pose))
            }
        }
        return cameras
    }
}
