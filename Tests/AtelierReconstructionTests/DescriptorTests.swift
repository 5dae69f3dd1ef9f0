import AtelierImaging
import AtelierReconstruction
import XCTest

/// The descriptors are RootSIFT: non-negative, unit L2 norm (their squares are the L1-normalised
/// SIFT histogram), and quantise the way COLMAP stores them.
final class DescriptorTests: XCTestCase {
    static let features = try! FeatureExtractor().extract(from: Fixtures.printed)

    func testDescriptorsAreNonNegativeWithSquaresSummingToOne() {
        let features = Self.features
        XCTAssertGreaterThan(features.count, 100)
        XCTAssertEqual(features.descriptors.count, features.count * 128)
        for i in 0 ..< features.count {
            let d = features.descriptor(i)
            XCTAssertTrue(d.allSatisfy { $0 >= 0 && $0.isFinite }, "descriptor \(i) has a negative or non-finite entry")
            XCTAssertEqual(d.map { $0 * $0 }.reduce(0, +), 1, accuracy: 1e-4, "descriptor \(i)")
        }
    }

    func testQuantisedDescriptorsFollowCOLMAP() {
        let features = Self.features
        let bytes = features.quantizedDescriptors()
        XCTAssertEqual(bytes.count, features.descriptors.count)
        for (value, byte) in zip(features.descriptors, bytes).prefix(5000) {
            XCTAssertEqual(Float(byte), min(255, (value * 512).rounded()))
        }
    }

    func testKeypointsAreOrderedByResponseWithinTheImage() {
        let keypoints = Self.features.keypoints
        XCTAssertTrue(zip(keypoints, keypoints.dropFirst()).allSatisfy { $0.response >= $1.response })
        for k in keypoints {
            XCTAssertTrue(k.x >= 0 && k.x <= 320 && k.y >= 0 && k.y <= 240, "keypoint outside the image at \(k.x), \(k.y)")
            XCTAssertTrue(k.orientation >= 0 && k.orientation < 2 * .pi)
            XCTAssertGreaterThan(k.scale, 0)
            XCTAssertTrue((-1 ... 6).contains(k.octave))
        }
    }
}
