import AtelierGeometry
import AtelierImaging
import AtelierReconstruction
import AtelierSynthetic
import XCTest

/// Two neighbouring views of a synthetic capture (15° apart round the garment, with hand-held
/// jitter): descriptors matched by brute force with Lowe's ratio test agree with the true
/// geometry, checked two ways: the epipolar constraint of the true poses for every match, and,
/// for matches on the garment, the true surface point under the first keypoint reprojected
/// into the second view.
final class ViewpointMatchingTests: XCTestCase {
    static let capture = try! SyntheticCapture(spec: Fixtures.captureSpec(.textured24, width: 640, height: 480))

    static let views: (first: Features, second: Features, visibility: VisibilityBuffer) = {
        let extractor = try! FeatureExtractor()
        let (image, visibility) = capture.renderer.renderWithVisibility(
            intrinsics: capture.intrinsics, pose: capture.cameras[0].pose, settings: capture.renderSettings, view: 0)
        // Through JPEG, as the photos will arrive.
        let first = try! extractor.extract(encoded: try! JPEG.encode(image, quality: 92))
        let second = try! extractor.extract(encoded: try! capture.jpeg(1))
        return (first, second, visibility)
    }()

    static let matches = BruteForce.ratioMatches(views.first, views.second, ratio: 0.8)

    func testNeighbouringViewsGiveHundredsOfMatchesThatFitTheTrueEpipolarGeometry() {
        let (a, b, _) = Self.views
        XCTAssertGreaterThan(a.count, 450)
        XCTAssertGreaterThan(b.count, 450)
        let geometry = TrueTwoView(Self.capture.cameras[0].pose, Self.capture.cameras[1].pose, intrinsics: Self.capture.intrinsics)
        let distances = Self.matches.map { i, j in
            geometry.epipolarDistance(SIMD2(Double(a.keypoints[i].x), Double(a.keypoints[i].y)),
                                      SIMD2(Double(b.keypoints[j].x), Double(b.keypoints[j].y)))
        }
        let good = distances.filter { $0 < 2 }.count
        XCTAssertGreaterThan(Self.matches.count, 250, "ratio-test matches")
        XCTAssertGreaterThan(Double(good), 0.88 * Double(Self.matches.count), "\(good) of \(Self.matches.count) within 2 px of their epipolar line")
        let sorted = distances.sorted()
        XCTAssertLessThan(sorted[sorted.count / 2], 0.5, "median epipolar distance, pixels")
    }

    /// For the matches whose first keypoint lies on the garment away from its silhouette (the
    /// 3 × 3 pixels around it all see the mesh): how many there are, and the distance from the
    /// second keypoint to where the true surface point under the first reprojects.
    static func reprojectionErrors() -> [Double] {
        let (a, b, visibility) = views
        let mesh = capture.scene.mesh
        let ss = visibility.supersampling
        var errors: [Double] = []
        for (i, j) in matches {
            let p = a.keypoints[i]
            let px = Int(p.x), py = Int(p.y)
            guard px >= 1, py >= 1, px < capture.intrinsics.width - 1, py < capture.intrinsics.height - 1 else { continue }
            var onSurface = true
            for dy in -1 ... 1 {
                for dx in -1 ... 1 where visibility.triangles[((py + dy) * ss) * visibility.width + (px + dx) * ss] < 0 {
                    onSurface = false
                }
            }
            guard onSurface else { continue }
            // The supersample under the keypoint (sample (i, j) is centred at ((i + ½)/ss, (j + ½)/ss)).
            let at = Int(p.y * Float(ss)) * visibility.width + Int(p.x * Float(ss))
            let triangle = mesh.triangles[Int(visibility.triangles[at])], w = visibility.barycentrics[at]
            let point = SIMD3<Double>(mesh.positions[Int(triangle.x)]) * Double(1 - w.x - w.y)
                + SIMD3<Double>(mesh.positions[Int(triangle.y)]) * Double(w.x) + SIMD3<Double>(mesh.positions[Int(triangle.z)]) * Double(w.y)
            let pose = capture.cameras[1].pose
            guard let projected = capture.intrinsics.project(pose.camFromWorld * point + pose.translation) else { continue }
            let q = b.keypoints[j]
            let dx = projected.x - Double(q.x), dy = projected.y - Double(q.y)
            errors.append((dx * dx + dy * dy).squareRoot())
        }
        return errors
    }

    func testMatchesOnTheGarmentLandWhereTheTrueSurfaceReprojects() {
        let errors = Self.reprojectionErrors()
        let good = errors.filter { $0 < 2 }.count
        XCTAssertGreaterThan(errors.count, 150, "matches on the garment")
        XCTAssertGreaterThan(Double(good), 0.9 * Double(errors.count), "\(good) of \(errors.count) reproject within 2 px")
        XCTAssertLessThan(errors.sorted()[errors.count / 2], 0.5, "median reprojection distance, pixels")
    }
}
