import AtelierGeometry
/// COLMAP's text model format (`cameras.txt`, `images.txt`, `points3D.txt`), as COLMAP itself
/// writes it, so COLMAP, OpenMVS, nerfstudio and our own reader load the ground truth as a
/// model: one PINHOLE camera shared by all images, and images with no 2D points (an empty second
/// line each).
///
/// Numbers are written with Swift's shortest round-trip spelling, so reading them back gives
/// exactly the doubles the renderer used.
public enum COLMAPText {
    /// `cameras.txt` with one PINHOLE camera: `CAMERA_ID PINHOLE WIDTH HEIGHT fx fy cx cy`.
    public static func cameras(_ intrinsics: PinholeIntrinsics, cameraID: Int = 1) -> String {
        """
        # Camera list with one line of data per camera:
        #   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]
        # Number of cameras: 1
        \(cameraID) PINHOLE \(intrinsics.width) \(intrinsics.height) \(intrinsics.focalLengthXPixels) \(intrinsics.focalLengthYPixels) \(intrinsics.principalPointX) \(intrinsics.principalPointY)

        """
    }

    /// `images.txt`: per image `IMAGE_ID QW QX QY QZ TX TY TZ CAMERA_ID NAME`, then an empty line
    /// for its (absent) 2D points. Image ids count from 1 in the order given.
    public static func images(_ images: [(name: String, pose: CameraPose)], cameraID: Int = 1) -> String {
        var text = """
            # Image list with two lines of data per image:
            #   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME
            #   POINTS2D[] as (X, Y, POINT3D_ID)
            # Number of images: \(images.count), mean observations per image: 0

            """
        for (index, image) in images.enumerated() {
            let q = image.pose.quaternion, t = image.pose.translation
            text += "\(index + 1) \(q.w) \(q.x) \(q.y) \(q.z) \(t.x) \(t.y) \(t.z) \(cameraID) \(image.name)\n\n"
        }
        return text
    }

    /// An empty `points3D.txt`, so the truth directory loads as a COLMAP model (for example to
    /// triangulate with known poses).
    public static let emptyPoints3D = """
        # 3D point list with one line of data per point:
        #   POINT3D_ID, X, Y, Z, R, G, B, ERROR, TRACK[] as (IMAGE_ID, POINT2D_IDX)
        # Number of points: 0, mean track length: 0

        """
}
