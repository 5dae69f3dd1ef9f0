import AtelierGeometry
import AtelierRecords
import AtelierSynthetic
import XCTest

/// Camera placement: on the rings, aimed at the object, in COLMAP's conventions.
final class CameraRigTests: XCTestCase {
    let target = SIMD3<Double>(0.02, 0.33, -0.01)

    func testCentresLieExactlyOnTheirRingsWithoutJitter() {
        let rings = [CameraRing(elevationDegrees: 15, radiusMetres: 1.5, views: 15),
                     CameraRing(elevationDegrees: 40, radiusMetres: 1.5, views: 15, azimuthOffsetDegrees: 12)]
        let cameras = CameraRig.place(rings: rings, around: target, jitter: .none, seed: 9)
        XCTAssertEqual(cameras.count, 30)
        for (index, camera) in cameras.enumerated() {
            let offset = camera.pose.centre - target
            XCTAssertEqual(Check.length(offset), 1.5, accuracy: 1e-9)
            let elevation = asin(offset.y / Check.length(offset)) * 180 / .pi
            XCTAssertEqual(elevation, index < 15 ? 15 : 40, accuracy: 1e-7)
            let azimuth = atan2(offset.x, offset.z) * 180 / .pi
            let expected = index < 15 ? 24.0 * Double(index) : 12 + 24.0 * Double(index - 15)
            let difference = (azimuth - expected).truncatingRemainder(dividingBy: 360)
            XCTAssertEqual(min(abs(difference), 360 - abs(difference)), 0, accuracy: 1e-7, "camera \(index)")
        }
    }

    func testJitteredCentresStayNearTheirRings() {
        let ring = CameraRing(elevationDegrees: 25, radiusMetres: 1.5, views: 24)
        let cameras = CameraRig.place(rings: [ring], around: target, jitter: .handheld, seed: 4)
        var departures = 0
        for camera in cameras {
            let offset = camera.pose.centre - target
            let distance = Check.length(offset)
            XCTAssertEqual(distance, 1.5, accuracy: 1.5 * 0.015 + 1e-9)
            XCTAssertEqual(distance, camera.distanceMetres, accuracy: 1e-9)
            XCTAssertEqual(asin(offset.y / distance) * 180 / .pi, 25, accuracy: 1.5 + 1e-9)
            if abs(distance - 1.5) > 1e-4 { departures += 1 }
        }
        XCTAssertGreaterThan(departures, 20, "the jitter should move almost every camera")
    }

    func testEveryPresetCameraSeesTheWholeGarmentInFrontOfIt() throws {
        let mesh = DrapedGarment().mesh(seed: 1)
        let centre = mesh.boundingBox.centre
        let intrinsics = PinholeIntrinsics(width: 1024, height: 768, focalLength35mm: 35)
        for preset in CapturePreset.allCases {
            let cameras = CameraRig.place(rings: preset.rings(), around: centre, jitter: .handheld, seed: 1)
            XCTAssertEqual(cameras.count, preset.views)
            for (index, camera) in cameras.enumerated() {
                let (pixel, depth) = Check.project(centre, pose: camera.pose, intrinsics: intrinsics)
                XCTAssertGreaterThan(depth, 1, "\(preset) camera \(index): object centre not in front")
                XCTAssertEqual(pixel.x, 512, accuracy: 40, "\(preset) camera \(index) aims off centre")
                XCTAssertEqual(pixel.y, 384, accuracy: 40, "\(preset) camera \(index) aims off centre")
                for p in stride(from: 0, to: mesh.positions.count, by: 7) {
                    let (q, z) = Check.project(SIMD3<Double>(mesh.positions[p]), pose: camera.pose, intrinsics: intrinsics)
                    guard z > 0, q.x > 8, q.y > 8, q.x < 1016, q.y < 760 else {
                        return XCTFail("\(preset) camera \(index): vertex \(p) falls outside the frame at \(q)")
                    }
                }
            }
        }
    }

    func testPosesFollowTheCOLMAPConvention() {
        let centre = SIMD3<Double>(0.3, 1.0, 1.2)
        let pose = CameraPose(centre: centre, lookingAt: target)
        let r = Check.rotation([pose.quaternion.w, pose.quaternion.x, pose.quaternion.y, pose.quaternion.z])
        // Orthonormal, right-handed: x × y = z.
        for i in 0 ..< 3 {
            for j in 0 ..< 3 { XCTAssertEqual(Check.dot(r[i], r[j]), i == j ? 1 : 0, accuracy: 1e-12) }
        }
        let crossXY = SIMD3(r[0].y * r[1].z - r[0].z * r[1].y, r[0].z * r[1].x - r[0].x * r[1].z, r[0].x * r[1].y - r[0].y * r[1].x)
        XCTAssertEqual(Check.length(crossXY - r[2]), 0, accuracy: 1e-12)
        // z looks at the target, y points down (world −Y), and t = −R·C.
        let view = (target - centre) / Check.length(target - centre)
        XCTAssertEqual(Check.dot(r[2], view), 1, accuracy: 1e-12)
        XCTAssertLessThan(r[1].y, -0.5)
        XCTAssertEqual(Check.length(Check.apply(r, centre) + pose.translation), 0, accuracy: 1e-12)
        XCTAssertGreaterThanOrEqual(pose.quaternion.w, 0)
        // The target lands on the principal point.
        let k = PinholeIntrinsics(width: 640, height: 480, focalLengthPixels: 500)
        let (pixel, _) = Check.project(target, pose: pose, intrinsics: k)
        XCTAssertEqual(pixel.x, 320, accuracy: 1e-9)
        XCTAssertEqual(pixel.y, 240, accuracy: 1e-9)
        // A point to the camera's right lands right of centre; a point above lands higher.
        let rightOf = target + r[0] * 0.1, above = target + SIMD3(0, 0.1, 0)
        XCTAssertGreaterThan(Check.project(rightOf, pose: pose, intrinsics: k).pixel.x, 320)
        XCTAssertLessThan(Check.project(above, pose: pose, intrinsics: k).pixel.y, 240)
    }

    func testPositiveRollTurnsTheContentClockwise() {
        let pose = CameraPose(centre: [0, 0, 2], lookingAt: [0, 0, 0], rollDegrees: 10)
        let k = PinholeIntrinsics(width: 640, height: 480, focalLengthPixels: 500)
        // The content turns clockwise: a point straight above the target appears up and to the right.
        let (pixel, _) = Check.project([0, 0.2, 0], pose: pose, intrinsics: k)
        XCTAssertLessThan(pixel.y, 240)
        XCTAssertGreaterThan(pixel.x, 320)
    }

    func testQuaternionsRoundTripThroughEveryBranch() {
        var random = SplitMix64(seed: 11)
        var matrices: [Matrix3] = [
            .identity,
            Matrix3.rotation(axis: [1, 0, 0], angleRadians: .pi),
            Matrix3.rotation(axis: [0, 1, 0], angleRadians: .pi),
            Matrix3.rotation(axis: [0, 0, 1], angleRadians: .pi),
            Matrix3.rotation(axis: [1, 1, 0], angleRadians: 3),
        ]
        for _ in 0 ..< 200 {
            let axis = SIMD3(random.symmetric(1), random.symmetric(1), random.symmetric(1))
            matrices.append(Matrix3.rotation(axis: axis, angleRadians: random.uniform(0, .pi)))
        }
        for m in matrices {
            let q = Quaternion(m)
            XCTAssertEqual(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z, 1, accuracy: 1e-12)
            XCTAssertGreaterThanOrEqual(q.w, 0)
            let r = Check.rotation([q.w, q.x, q.y, q.z])
            for (row, expected) in zip(r, [m.row0, m.row1, m.row2]) {
                XCTAssertEqual(Check.length(row - expected), 0, accuracy: 1e-12)
            }
        }
    }

    func testFocalLengthFollowsTheDiagonalRule() {
        let k = PinholeIntrinsics(width: 1024, height: 768, focalLength35mm: 35)
        let fullFrameDiagonal: Double = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()
        XCTAssertEqual(k.focalLengthXPixels, 35.0 * 1280.0 / fullFrameDiagonal, accuracy: 1e-9)
        XCTAssertEqual(k.focalLength35mm, 35, accuracy: 1e-12)
        XCTAssertEqual(k.principalPointX, 512)
        XCTAssertEqual(k.principalPointY, 384)
    }
}
