import AtelierGeometry
@testable import AtelierReconstruction
import XCTest

/// What `COLMAPTextModel` writes, `COLMAPTextReader` reads back to the same model (what
/// `--checkpoint` relies on), and damaged text is refused with the file and line.
final class COLMAPTextReaderTests: XCTestCase {
    func sampleModel() -> (SparseModel, [[SIMD2<Double>]]) {
        let cameras = [CameraIntrinsics(width: 640, height: 480, focalLengthPixels: 512.25, k1: -0.0123, k2: 0.001),
                       CameraIntrinsics(width: 320, height: 240, focalLengthPixels: 300)]
        var images: [SparseModel.ImageState] = []
        for i in 0 ..< 4 {
            let angle = Double(i)
            let centre = SIMD3<Double>(3 * cos(angle), 0.5, 3 * sin(angle))
            let pose: CameraPose? = i == 2 ? nil : CameraPose(centre: centre, lookingAt: .zero)
            images.append(SparseModel.ImageState(name: "img_\(i).jpg", camera: i == 3 ? 1 : 0, camFromWorld: pose))
        }
        var keypoints: [[SIMD2<Double>]] = []
        for i in 0 ..< 4 {
            var list: [SIMD2<Double>] = []
            for k in 0 ..< 6 { list.append(SIMD2(Double(10 * k + i) + 0.125, Double(7 * k) + 0.5)) }
            keypoints.append(list)
        }
        var model = SparseModel(cameras: cameras, images: images, keypointCounts: keypoints.map(\.count), trackCount: 5)
        for p in 0 ..< 5 {
            let id = model.addPoint(position: SIMD3(Double(p) * 0.1, -0.2, 0.3 + Double(p)), track: p,
                                    observations: [TrackElement(image: 0, keypoint: p), TrackElement(image: 1, keypoint: p), TrackElement(image: 3, keypoint: (p + 1) % 6)])
            model.points[id]!.colour = SIMD3(UInt8(p * 40), 7, 250)
        }
        return (model, keypoints)
    }

    func testRoundTrip() throws {
        let (model, keypoints) = sampleModel()
        let errors: [Double?] = [0.5, 0.25, 1, 0.125, 2]
        let text = COLMAPTextModel(model: model, keypoints: keypoints, meanErrors: errors)
        let read = try COLMAPTextReader.read(cameras: text.cameras, images: text.images, points3D: text.points3D, names: model.images.map(\.name))
        XCTAssertEqual(read.model.cameras, model.cameras)
        XCTAssertEqual(read.model.registeredImages, [0, 1, 3])
        for i in [0, 1, 3] {
            XCTAssertEqual(read.model.images[i].camFromWorld, model.images[i].camFromWorld)
            XCTAssertEqual(read.model.images[i].camera, model.images[i].camera)
            XCTAssertEqual(read.keypoints[i], keypoints[i])
        }
        XCTAssertEqual(read.keypoints[2], [])
        XCTAssertEqual(read.model.pointCount, 5)
        for (a, b) in zip(read.model.points, model.points) {
            XCTAssertEqual(a?.position, b?.position)
            XCTAssertEqual(a?.observations, b?.observations)
            XCTAssertEqual(a?.colour, b?.colour)
        }
        // An unregistered image is not in images.txt: its keypoints are not either.
        for i in [0, 1, 3] { XCTAssertEqual(read.model.pointOfKeypoint[i], model.pointOfKeypoint[i]) }
        XCTAssertEqual(read.model.pointOfKeypoint[2], [])
        XCTAssertEqual(read.meanErrors, errors)
    }

    func testRefusesDamagedText() {
        let (model, keypoints) = sampleModel()
        let text = COLMAPTextModel(model: model, keypoints: keypoints, meanErrors: [Double?](repeating: 0, count: 5))
        let names = model.images.map(\.name)
        let cases: [(String, String, String, String)] = [
            ("cameras.txt line", text.cameras.replacingOccurrences(of: "RADIAL", with: "OPENCV"), text.images, text.points3D),
            ("images.txt line", text.cameras, text.images.replacingOccurrences(of: " 1 img_0.jpg", with: " 9 img_0.jpg"), text.points3D),
            ("points3D.txt line", text.cameras, text.images, text.points3D + "6 0 0 0 1 2 3 0 1 0 1 0\n"),
            ("points3D.txt line", text.cameras, text.images, text.points3D + "6 0 0 0 1 2 3 0 3 0 4 99\n"),
        ]
        for (expected, cameras, images, points) in cases {
            XCTAssertThrowsError(try COLMAPTextReader.read(cameras: cameras, images: images, points3D: points, names: names)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }
}
