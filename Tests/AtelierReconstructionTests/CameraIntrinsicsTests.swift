import AtelierReconstruction
import XCTest

final class CameraIntrinsicsTests: XCTestCase {
    /// Projecting and then unprojecting gives the same ray back across the whole frame, with
    /// strong barrel distortion.
    func testDistortionRoundTrip() {
        let camera = CameraIntrinsics(width: 1024, height: 768, focalLengthPixels: 900, principalPoint: [515, 380], k1: -0.12, k2: 0.03)
        for y in stride(from: 0.0, through: 768, by: 96) {
            for x in stride(from: 0.0, through: 1024, by: 128) {
                let n = camera.normalised(fromPixel: [x, y])
                let back = camera.pixel(fromNormalised: n)
                XCTAssertEqual(back.x, x, accuracy: 1e-9)
                XCTAssertEqual(back.y, y, accuracy: 1e-9)
            }
        }
    }

    /// COLMAP's RADIAL projection, written out by hand for one point.
    func testProjectionMatchesTheModel() throws {
        let camera = CameraIntrinsics(width: 640, height: 480, focalLengthPixels: 500, k1: 0.1, k2: -0.02)
        let p = try XCTUnwrap(camera.project([0.2, -0.1, 2]))
        let u = 0.1, v = -0.05, r2 = u * u + v * v, d = 1 + 0.1 * r2 - 0.02 * r2 * r2
        XCTAssertEqual(p.x, 500 * u * d + 320, accuracy: 1e-12)
        XCTAssertEqual(p.y, 500 * v * d + 240, accuracy: 1e-12)
        XCTAssertNil(camera.project([0, 0, -1]))
    }

    /// 35 mm on a 36 × 24 frame: the diagonal rule, both ways.
    func testFocalLengthFromThirtyFiveMillimetre() {
        let camera = CameraIntrinsics(width: 4032, height: 3024, focalLength35mm: 26)
        XCTAssertEqual(camera.focalLengthPixels, 26 * 5040 / 43.266615305567875, accuracy: 1e-9)
        XCTAssertEqual(camera.focalLength35mm, 26, accuracy: 1e-12)
    }
}
