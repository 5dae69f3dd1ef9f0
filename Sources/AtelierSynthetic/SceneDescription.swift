import AtelierGeometry
/// `truth/scene.json`: the ground truth of a capture in one document, for tests and benchmarks
/// that compare a reconstruction against it. Poses follow COLMAP (see `CameraPose`); lengths are
/// metres; the world has +Y up and the ground at y = 0.
public struct SceneDescription: Codable, Sendable, Equatable {
    public var format = "atelier-synthetic-capture"
    public var version = 1
    public var preset: String
    public var seed: UInt64
    public var surface: String
    public var units = "metres"
    public var upAxis = "+Y"
    public var groundPlaneY = 0.0
    public var poseConvention = "COLMAP: pointInCam = R(q) pointInWorld + t, q = (qw, qx, qy, qz) Hamilton, camera x right, y down, z forward; centre = -R(q)^T t"
    public var camera: Camera
    public var rings: [Ring]
    public var jitter: Jitter
    /// The point the cameras aim at (give or take the aim jitter): the centre of the bounding box.
    public var objectCentre: [Double]
    public var boundingBox: Box
    public var turntableRadiusMetres: Double
    public var mesh: Mesh
    public var render: Render
    public var images: [View]

    /// The shared pinhole camera (COLMAP PINHOLE) and its focal length as EXIF states it.
    public struct Camera: Codable, Sendable, Equatable {
        public var model = "PINHOLE"
        public var width: Int
        public var height: Int
        public var fx: Double
        public var fy: Double
        public var cx: Double
        public var cy: Double
        /// The 35 mm equivalent focal length written to EXIF; fx = this × √(w² + h²) / 43.27.
        public var focalLength35mm: Int
    }

    /// A ring as planned, before jitter.
    public struct Ring: Codable, Sendable, Equatable {
        public var elevationDegrees: Double
        public var radiusMetres: Double
        public var views: Int
        public var azimuthOffsetDegrees: Double
    }

    /// Half-widths of the uniform placement jitter.
    public struct Jitter: Codable, Sendable, Equatable {
        public var radiusFraction: Double
        public var elevationDegrees: Double
        public var azimuthDegrees: Double
        public var aimMetres: Double
        public var rollDegrees: Double
    }

    /// An axis-aligned box, `[x, y, z]` corners.
    public struct Box: Codable, Sendable, Equatable {
        public var min: [Double]
        public var max: [Double]
    }

    /// The true surface: `truth/mesh.ply`.
    public struct Mesh: Codable, Sendable, Equatable {
        public var file = "mesh.ply"
        public var vertices: Int
        public var faces: Int
        /// False: the cloth is open at the hem.
        public var closed = false
    }

    public struct Render: Codable, Sendable, Equatable {
        public var supersampling: Int
        public var jpegQuality: Int
        public var vignetting: Double
        public var noiseLevels: Double
        public var textureSize: Int
    }

    /// One image: its pose as in `images.txt`, its centre, and where it sits on its ring.
    public struct View: Codable, Sendable, Equatable {
        public var id: Int
        public var name: String
        public var ring: Int
        /// qw, qx, qy, qz of the world-to-camera rotation.
        public var qvec: [Double]
        /// World-to-camera translation.
        public var tvec: [Double]
        /// Camera centre in world coordinates.
        public var centre: [Double]
        public var azimuthDegrees: Double
        public var elevationDegrees: Double
        public var distanceMetres: Double
    }
}
