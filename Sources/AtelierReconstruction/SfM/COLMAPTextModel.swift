import AtelierGeometry

/// A sparse model in COLMAP's text format (`cameras.txt`, `images.txt`, `points3D.txt`), as
/// COLMAP itself writes it, so COLMAP, pycolmap, OpenMVS and nerfstudio load it.
///
/// Ids: camera `c` is `c + 1`; image `i` of the input is `i + 1` whether or not it was
/// registered (only registered images are listed, as COLMAP lists them); points are numbered
/// from 1 in the model's order, skipping removed ones. Each image's second line lists all its
/// keypoints, `X Y POINT3D_ID` with −1 for those without a point, so `POINT2D_IDX` in a track is
/// the keypoint's index in the image's features. Numbers use Swift's shortest round-trip
/// spelling: reading them back gives the same doubles.
public struct COLMAPTextModel: Sendable {
    public var cameras: String
    public var images: String
    public var points3D: String

    /// The text of `model`, whose images have keypoints `keypoints` (pixels) and whose points
    /// carry `meanErrors[id]` (pixels; COLMAP's ERROR column).
    public init(model: SparseModel, keypoints: [[SIMD2<Double>]], meanErrors: [Double?]) {
        var pointIDs = [Int](repeating: -1, count: model.points.count)
        var next = 1
        for (id, point) in model.points.enumerated() where point != nil {
            pointIDs[id] = next
            next += 1
        }

        var cameras = """
            # Camera list with one line of data per camera:
            #   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]
            # Number of cameras: \(model.cameras.count)

            """
        for (index, c) in model.cameras.enumerated() {
            cameras += "\(index + 1) RADIAL \(c.width) \(c.height) \(c.focalLengthPixels) \(c.principalPoint.x) \(c.principalPoint.y) \(c.k1) \(c.k2)\n"
        }

        let registered = model.registeredImages
        let observationCount = model.points.reduce(0) { $0 + ($1?.observations.count ?? 0) }
        let meanObservations = registered.isEmpty ? 0 : Double(observationCount) / Double(registered.count)
        var images = """
            # Image list with two lines of data per image:
            #   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME
            #   POINTS2D[] as (X, Y, POINT3D_ID)
            # Number of images: \(registered.count), mean observations per image: \(meanObservations)

            """
        for i in registered {
            let image = model.images[i], pose = image.camFromWorld!
            let q = pose.quaternion, t = pose.translation
            images += "\(i + 1) \(q.w) \(q.x) \(q.y) \(q.z) \(t.x) \(t.y) \(t.z) \(image.camera + 1) \(Self.safeName(image.name))\n"
            var line = ""
            line.reserveCapacity(keypoints[i].count * 24)
            for (k, p) in keypoints[i].enumerated() {
                let id = model.pointOfKeypoint[i][k]
                if k > 0 { line += " " }
                line += "\(p.x) \(p.y) \(id >= 0 ? pointIDs[Int(id)] : -1)"
            }
            images += line + "\n"
        }

        let pointCount = next - 1
        var points3D = """
            # 3D point list with one line of data per point:
            #   POINT3D_ID, X, Y, Z, R, G, B, ERROR, TRACK[] as (IMAGE_ID, POINT2D_IDX)
            # Number of points: \(pointCount), mean track length: \(pointCount == 0 ? 0 : Double(observationCount) / Double(pointCount))

            """
        for (id, point) in model.points.enumerated() {
            guard let point else { continue }
            let x = point.position
            var line = "\(pointIDs[id]) \(x.x) \(x.y) \(x.z) \(point.colour.x) \(point.colour.y) \(point.colour.z) \(meanErrors[id] ?? 0)"
            for o in point.observations { line += " \(o.image + 1) \(o.keypoint)" }
            points3D += line + "\n"
        }
        self.cameras = cameras
        self.images = images
        self.points3D = points3D
    }

    /// `name` as the text format can hold it: COLMAP reads the name as one space-separated token
    /// and a line break would split the record, so spaces and control characters become `_`
    /// (an empty name becomes `_` too).
    public static func safeName(_ name: String) -> String {
        let safe = String(name.unicodeScalars.map { scalar -> Character in
            scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F ? "_" : Character(scalar)
        })
        return safe.isEmpty ? "_" : safe
    }
}
