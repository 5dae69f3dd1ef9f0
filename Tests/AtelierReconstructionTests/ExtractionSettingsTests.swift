import AtelierImaging
import AtelierReconstruction
import AtelierSynthetic
import XCTest

/// Threads, sensitivity, cap, mask and the failure paths.
final class ExtractionSettingsTests: XCTestCase {
    func testSameOutputOnOneThreadOrTwo() throws {
        let image = Fixtures.printed
        let one = try FeatureExtractor(settings: FeatureSettings(threads: 1)).extract(from: image)
        let two = try FeatureExtractor(settings: FeatureSettings(threads: 2)).extract(from: image)
        let again = try FeatureExtractor(settings: FeatureSettings(threads: 2)).extract(from: image)
        XCTAssertGreaterThan(one.count, 100)
        XCTAssertEqual(one, two)
        XCTAssertEqual(two, again)
    }

    func testHighSensitivityFindsClearlyMoreOnPlainWeave() throws {
        let capture = try SyntheticCapture(spec: Fixtures.captureSpec(.fabric30))
        let image = capture.render(0)
        let normal = try FeatureExtractor(settings: FeatureSettings(sensitivity: .normal)).extract(from: image)
        let high = try FeatureExtractor(settings: FeatureSettings(sensitivity: .high)).extract(from: image)
        XCTAssertGreaterThan(normal.count, 20, "plain weave is low-texture, not textureless")
        XCTAssertGreaterThan(Double(high.count), 1.8 * Double(normal.count), "high \(high.count) vs normal \(normal.count)")
        XCTAssertTrue(normal.keypoints.allSatisfy { $0.response >= 0.02 / 3 })
        XCTAssertTrue(high.keypoints.allSatisfy { $0.response >= 0.008 / 3 })
        XCTAssertTrue(high.keypoints.contains { $0.response < 0.02 / 3 }, "the extra features are the weaker ones")
    }

    func testCapKeepsTheStrongestSpreadOverTheImage() throws {
        let image = Fixtures.printed
        let all = try FeatureExtractor().extract(from: image)
        var settings = FeatureSettings()
        settings.maxFeatures = 64
        let capped = try FeatureExtractor(settings: settings).extract(from: image)
        XCTAssertLessThan(64, all.count)
        XCTAssertEqual(capped.count, 64)
        // Spread: the capped set reaches every quarter of the picture …
        for (qx, qy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            XCTAssertTrue(capped.keypoints.contains { Int($0.x / 160) == qx && Int($0.y / 120) == qy }, "no feature in quarter \(qx), \(qy)")
        }
        // … and every capped keypoint is one of the full set's.
        for k in capped.keypoints {
            XCTAssertTrue(all.keypoints.contains { $0.x == k.x && $0.y == k.y && $0.orientation == k.orientation })
        }
    }

    func testMaskKeepsOnlyFeaturesWhereItIsSet() throws {
        let image = Fixtures.printed
        // A coarse mask (16 × 12 cells over 320 × 240): the left half only.
        let cells = (0 ..< 12).flatMap { _ in (0 ..< 16).map { $0 < 8 ? UInt8(255) : 0 } }
        let mask = try FeatureMask(width: 16, height: 12, values: cells)
        let all = try FeatureExtractor().extract(from: image)
        let masked = try FeatureExtractor().extract(from: image, mask: mask)
        XCTAssertGreaterThan(masked.count, 50)
        XCTAssertTrue(masked.keypoints.allSatisfy { $0.x < 160 })
        let leftHalf = all.keypoints.filter { $0.x < 160 }.count
        XCTAssertEqual(masked.count, leftHalf)
    }

    func testUpsamplingTheFirstOctaveFindsTheFinestFeatures() throws {
        var settings = FeatureSettings()
        settings.upsampleFirstOctave = false
        let without = try FeatureExtractor(settings: settings).extract(from: Fixtures.printed)
        let with = try FeatureExtractor().extract(from: Fixtures.printed)
        XCTAssertTrue(without.keypoints.allSatisfy { $0.octave >= 0 })
        XCTAssertTrue(with.keypoints.contains { $0.octave == -1 })
        XCTAssertGreaterThan(Double(with.count), 1.3 * Double(without.count))
    }

    func testFailures() throws {
        XCTAssertThrowsError(try FeatureExtractor().extract(from: Image(width: 12, height: 40, channels: 1, value: 9))) { error in
            XCTAssertEqual(error as? ReconstructionError, .imageTooSmall(width: 12, height: 40, minimumSide: 16))
        }
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: Array("not an image at all".utf8))) { error in
            guard case .unreadableImage(.unsupportedFormat)? = error as? ReconstructionError else { return XCTFail("\(error)") }
        }
        let truncated = Array(try JPEG.encode(Fixtures.printed).prefix(300))
        XCTAssertThrowsError(try FeatureExtractor().extract(encoded: truncated)) { error in
            guard case .unreadableImage? = error as? ReconstructionError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try FeatureExtractor(settings: FeatureSettings(maxOrientations: 0))) { error in
            guard case .invalidSetting(name: "maxOrientations", _)? = error as? ReconstructionError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try FeatureExtractor(settings: FeatureSettings(peakThreshold: -1)))
        XCTAssertThrowsError(try FeatureMask(width: 4, height: 4, values: [1, 2, 3]))
    }

    func testFlatImageHasNoFeatures() throws {
        let features = try FeatureExtractor().extract(from: Image(width: 64, height: 48, channels: 3, value: 128))
        XCTAssertEqual(features.count, 0)
        XCTAssertEqual(features.descriptors.count, 0)
    }
}
