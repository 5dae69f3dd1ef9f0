import AtelierGeometry

/// Reads a sparse model back from COLMAP's text format, as `COLMAPTextModel` writes it (and COLMAP
/// itself: `RADIAL`, `SIMPLE_RADIAL`, `SIMPLE_PINHOLE` and square-pixel `PINHOLE` cameras): what a
/// resumed reconstruction starts from. Image `i` of the result is the image with id `i + 1`;
/// unregistered images are those the file does not list. Every id and index is checked.
public enum COLMAPTextReader {
    public struct Result: Sendable {
        public var model: SparseModel
        /// Per image, its keypoints in pixels (empty for an image the file does not list).
        public var keypoints: [[SIMD2<Double>]]
        public var meanErrors: [Double?]
    }

    /// `names[i]` is image `i`'s name; images are matched to the file by id.
    public static func read(cameras: String, images: String, points3D: String, names: [String]) throws(ReconstructionError) -> Result {
        func bad(_ file: String, _ line: Int, _ why: String) -> ReconstructionError { .invalidModel("\(file) line \(line): \(why)") }
        func dataLines(_ text: String) -> [(Int, [Substring])] {
            text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
                line.hasPrefix("#") ? nil : (index + 1, line.split(separator: " "))
            }
        }
        var cameraIndex: [Int: Int] = [:], intrinsics: [CameraIntrinsics] = []
        for (number, f) in dataLines(cameras) where !f.isEmpty {
            guard f.count >= 5, let id = Int(f[0]), let width = Int(f[2]), let height = Int(f[3]), width > 0, height > 0 else {
                throw bad("cameras.txt", number, "not a camera line")
            }
            let p = f[4...].compactMap { Double($0) }
            let camera: CameraIntrinsics
            switch (f[1], p.count) {
            case ("RADIAL", 5): camera = CameraIntrinsics(width: width, height: height, focalLengthPixels: p[0], principalPoint: SIMD2(p[1], p[2]), k1: p[3], k2: p[4])
            case ("SIMPLE_RADIAL", 4): camera = CameraIntrinsics(width: width, height: height, focalLengthPixels: p[0], principalPoint: SIMD2(p[1], p[2]), k1: p[3])
            case ("SIMPLE_PINHOLE", 3): camera = CameraIntrinsics(width: width, height: height, focalLengthPixels: p[0], principalPoint: SIMD2(p[1], p[2]))
            case ("PINHOLE", 4) where abs(p[0] - p[1]) <= 1e-9 * p[0]:
                camera = CameraIntrinsics(width: width, height: height, focalLengthPixels: p[0], principalPoint: SIMD2(p[2], p[3]))
            default: throw bad("cameras.txt", number, "camera model \(f[1]) with \(p.count) parameters is not read")
            }
            cameraIndex[id] = intrinsics.count
            intrinsics.append(camera)
        }
        var states = names.map { SparseModel.ImageState(name: $0, camera: 0, camFromWorld: nil) }
        var keypoints = [[SIMD2<Double>]](repeating: [], count: names.count)
        let imageLines = dataLines(images)
        var k = 0
        while k < imageLines.count {
            let (number, f) = imageLines[k]
            k += 1
            if f.isEmpty { continue }
            guard f.count >= 10, let id = Int(f[0]), id >= 1, id <= names.count, let camera = Int(f[8]).flatMap({ cameraIndex[$0] }) else {
                throw bad("images.txt", number, "not an image line of a known image and camera")
            }
            let v = f[1 ... 7].compactMap { Double($0) }
            guard v.count == 7 else { throw bad("images.txt", number, "the pose is not seven numbers") }
            let q = Quaternion(w: v[0], x: v[1], y: v[2], z: v[3])
            states[id - 1].camera = camera
            states[id - 1].camFromWorld = CameraPose(quaternion: q, translation: SIMD3(v[4], v[5], v[6]))
            // The next line lists the keypoints (X Y POINT3D_ID), possibly none.
            guard k < imageLines.count else { break }
            let points = imageLines[k].1
            k += 1
            guard points.count % 3 == 0 else { throw bad("images.txt", imageLines[k - 1].0, "keypoints are not X Y POINT3D_ID triples") }
            var list: [SIMD2<Double>] = []
            list.reserveCapacity(points.count / 3)
            for i in stride(from: 0, to: points.count, by: 3) {
                guard let x = Double(points[i]), let y = Double(points[i + 1]) else { throw bad("images.txt", imageLines[k - 1].0, "a keypoint is not two numbers") }
                list.append(SIMD2(x, y))
            }
            keypoints[id - 1] = list
        }
        let pointLines = dataLines(points3D).filter { !$0.1.isEmpty }
        var model = SparseModel(cameras: intrinsics, images: states, keypointCounts: keypoints.map(\.count), trackCount: pointLines.count)
        var meanErrors: [Double?] = []
        for (track, (number, f)) in pointLines.enumerated() {
            guard f.count >= 8, (f.count - 8) % 2 == 0, let x = Double(f[1]), let y = Double(f[2]), let z = Double(f[3]),
                  let r = UInt8(f[4]), let g = UInt8(f[5]), let b = UInt8(f[6]), let error = Double(f[7]) else {
                throw bad("points3D.txt", number, "not a point line")
            }
            var observations: [TrackElement] = []
            for i in stride(from: 8, to: f.count, by: 2) {
                guard let image = Int(f[i]), image >= 1, image <= names.count, states[image - 1].isRegistered,
                      let keypoint = Int(f[i + 1]), keypoint >= 0, keypoint < keypoints[image - 1].count,
                      model.pointOfKeypoint[image - 1][keypoint] < 0, !observations.contains(where: { $0.image == Int32(image - 1) }) else {
                    throw bad("points3D.txt", number, "an observation names an unknown image or keypoint, or one already used")
                }
                observations.append(TrackElement(image: image - 1, keypoint: keypoint))
            }
            guard observations.count >= 2 else { throw bad("points3D.txt", number, "a point seen by fewer than two images") }
            let id = model.addPoint(position: SIMD3(x, y, z), track: track, observations: observations)
            model.points[id]!.colour = SIMD3(r, g, b)
            meanErrors.append(error)
        }
        return Result(model: model, keypoints: keypoints, meanErrors: meanErrors)
    }
}
