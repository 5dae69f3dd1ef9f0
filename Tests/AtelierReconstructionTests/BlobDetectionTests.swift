import AtelierImaging
import AtelierReconstruction
import XCTest

/// A Gaussian blob of known size and place is found there, at the scale theory predicts.
///
/// The DoG between blurs σ and kσ (k = 2^(1/S)) of a Gaussian blob of standard deviation s peaks
/// at σ = s/√k; the extractor assumes the image already carries σₙ = 0.5 pixel of blur, which a
/// sharply sampled blob does not, so it sees a blob of √(s² − σₙ²). Expected keypoint scale:
/// σ = √(s² − 0.25) / 2^(1/6) for S = 3.
final class BlobDetectionTests: XCTestCase {
    static func expectedScale(blobSigma s: Double) -> Double { (s * s - 0.25).squareRoot() / pow(2, 1.0 / 6) }

    func check(blobSigma: Double, centre: SIMD2<Double>, size: (Int, Int), background: Double, amplitude: Double,
               file: StaticString = #filePath, line: UInt = #line) throws {
        let image = Fixtures.blob(width: size.0, height: size.1, centre: centre, sigma: blobSigma,
                                  background: background, amplitude: amplitude)
        let features = try FeatureExtractor().extract(from: image)
        let strongest = try XCTUnwrap(features.keypoints.first, "no keypoint at all", file: file, line: line)
        let offset = SIMD2(Double(strongest.x), Double(strongest.y)) - centre
        let expected = Self.expectedScale(blobSigma: blobSigma)
        XCTAssertLessThan((offset * offset).sum().squareRoot(), 0.1, "strongest keypoint at \(strongest.x), \(strongest.y)",
                          file: file, line: line)
        XCTAssertEqual(Double(strongest.scale), expected, accuracy: 0.03 * expected, "blob σ \(blobSigma)", file: file, line: line)
        // Nothing else of note: the blob is the only structure (a second orientation of the same
        // point aside, and weak ring responses far below it).
        for other in features.keypoints.dropFirst() where abs(other.x - strongest.x) > 0.01 || abs(other.y - strongest.y) > 0.01 {
            XCTAssertLessThan(other.response, 0.5 * strongest.response, "stray keypoint at \(other.x), \(other.y)", file: file, line: line)
        }
    }

    func testBrightBlobIsFoundAtItsCentreAndScale() throws {
        try check(blobSigma: 4, centre: [60.3, 47.8], size: (120, 96), background: 60, amplitude: 150)
    }

    func testDarkBlobIsFoundAtItsCentreAndScale() throws {
        try check(blobSigma: 2.5, centre: [40.6, 37.2], size: (80, 72), background: 200, amplitude: -140)
    }

    func testLargeBlobIsFoundInACoarseOctave() throws {
        try check(blobSigma: 9, centre: [101.25, 90.5], size: (200, 180), background: 40, amplitude: 180)
    }

    func testScaleFollowsTheBlobAcrossOctaves() throws {
        // Doubling the blob doubles the scale: the octaves are consistent with each other.
        var scales: [Double] = []
        for sigma in [3.0, 6.0, 12.0] {
            let side = Int(16 * sigma) + 16
            let image = Fixtures.blob(width: side, height: side, centre: [Double(side) / 2 + 0.3, Double(side) / 2 - 0.2], sigma: sigma)
            let strongest = try XCTUnwrap(try FeatureExtractor().extract(from: image).keypoints.first)
            scales.append(Double(strongest.scale))
        }
        XCTAssertEqual(scales[1] / scales[0], (35.75 / 8.75).squareRoot(), accuracy: 0.1)
        XCTAssertEqual(scales[2] / scales[1], (143.75 / 35.75).squareRoot(), accuracy: 0.1)
    }

    func testBlobInALargeJPEGIsReportedInOriginalPixels() throws {
        // 1600 × 1200 with a 300-pixel working size: decoded at 1/4 in the DCT (400 × 300), then
        // resized to 300 × 225. The keypoint must still be where the blob is in the full-size
        // picture, at its full-size scale.
        let image = Fixtures.blob(width: 1600, height: 1200, centre: [801.5, 640.25], sigma: 24)
        let jpeg = try JPEG.encode(image, quality: 95)
        var settings = FeatureSettings()
        settings.maxImageSide = 300
        let features = try FeatureExtractor(settings: settings).extract(encoded: jpeg)
        XCTAssertEqual(features.imageWidth, 1600)
        XCTAssertEqual(features.imageHeight, 1200)
        XCTAssertEqual(features.workingWidth, 300)
        XCTAssertEqual(features.workingHeight, 225)
        let strongest = try XCTUnwrap(features.keypoints.first)
        XCTAssertEqual(Double(strongest.x), 801.5, accuracy: 1.5)
        XCTAssertEqual(Double(strongest.y), 640.25, accuracy: 1.5)
        // In the working image the blob has σ = 24 × 300 / 1600 = 4.5 pixels.
        let expected = 1600.0 / 300 * Self.expectedScale(blobSigma: 4.5)
        XCTAssertEqual(Double(strongest.scale), expected, accuracy: 0.08 * expected)
    }
}
