import AtelierGeometry
import AtelierImaging

/// One calibrated photo for texturing: the camera that took it and its pixels.
///
/// The image must be `intrinsics.width × intrinsics.height`; grey or RGBA images are turned into
/// RGB before sampling, so the texture is always RGB.
public struct TextureView: Sendable {
    public var intrinsics: CameraIntrinsics
    public var pose: CameraPose
    public var image: Image

    public init(intrinsics: CameraIntrinsics, pose: CameraPose, image: Image) {
        self.intrinsics = intrinsics
        self.pose = pose
        self.image = image
    }
}
