import AtelierImaging
import AtelierReconstruction
import XCTest

/// Turning the picture a quarter turn (an exact permutation of pixels) turns the keypoints with
/// it: same places, same scales, orientations 90° further round, near-identical descriptors.
final class RotationInvarianceTests: XCTestCase {
    static let upright = Fixtures.printed
    /// EXIF orientation 6 rotates 90° clockwise: pixel (x, y) of a W × H image moves to
    /// (H − 1 − y, x), so point (x, y) in pixel-corner coordinates moves to (H − y, x) and a
    /// direction at angle θ (from +x towards +y) turns to θ + 90°.
    static let turned = upright.oriented(6)
    static let features: (upright: Features, turned: Features) = {
        let extractor = try! FeatureExtractor()
        return (try! extractor.extract(from: upright), try! extractor.extract(from: turned))
    }()

    /// For each upright keypoint, the turned keypoint at its predicted place, scale and
    /// orientation, if any.
    static func correspondences() -> [(upright: Int, turned: Int, orientationError: Double)] {
        let (a, b) = features
        let height = Float(upright.height)
        var found: [(Int, Int, Double)] = []
        for (i, p) in a.keypoints.enumerated() {
            let x = height - p.y, y = p.x
            var best: (index: Int, error: Double)?
            for (j, q) in b.keypoints.enumerated() {
                // Coarse octaves sample the turned picture on a shifted grid, so allow a fraction of σ.
                let reach = 0.3 + 0.1 * p.scale
                guard abs(q.x - x) < reach, abs(q.y - y) < reach, abs(q.scale / p.scale - 1) < 0.1 else { continue }
                let error = angleDifferenceDegrees(q.orientation, p.orientation + .pi / 2)
                if error < best?.error ?? .infinity { best = (j, error) }
            }
            if let best { found.append((i, best.index, best.error)) }
        }
        return found
    }

    func testKeypointsTurnWithThePicture() throws {
        let (a, b) = Self.features
        XCTAssertEqual(Self.turned.width, Self.upright.height)
        XCTAssertGreaterThan(a.count, 300, "a busy print should give hundreds of keypoints")
        XCTAssertEqual(Double(b.count), Double(a.count), accuracy: 0.1 * Double(a.count))
        let pairs = Self.correspondences()
        XCTAssertGreaterThan(Double(pairs.count), 0.85 * Double(a.count), "keypoints without a turned counterpart")
        let errors = pairs.map { $0.orientationError }.sorted()
        XCTAssertLessThan(errors[errors.count / 2], 0.5, "median orientation error, degrees")
        XCTAssertLessThan(errors[errors.count * 9 / 10], 2, "90th percentile orientation error, degrees")
    }

    func testDescriptorsOfCorrespondingKeypointsNearlyCoincide() throws {
        let (a, b) = Self.features
        let nearest = BruteForce.nearest(a, b)
        var close = 0, distinct = 0, total = 0
        for (i, j, error) in Self.correspondences() where error < 3 {
            total += 1
            let u = a.descriptor(i), v = b.descriptor(j)
            let distance = zip(u, v).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
            if distance < 0.15 { close += 1 }
            // Its own counterpart is the nearest descriptor, by a wide margin over the next.
            if nearest[i].index == j && nearest[i].best.squareRoot() < 0.5 * nearest[i].second.squareRoot() { distinct += 1 }
        }
        XCTAssertGreaterThan(total, 300)
        XCTAssertGreaterThan(Double(close), 0.9 * Double(total), "descriptor distance of corresponding keypoints under 0.15")
        XCTAssertGreaterThan(Double(distinct), 0.9 * Double(total), "counterpart nearest, at under half the second distance")
    }
}
