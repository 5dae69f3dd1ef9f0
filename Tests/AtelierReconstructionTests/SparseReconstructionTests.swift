import AtelierGeometry
import AtelierReconstruction
import AtelierSynthetic
import XCTest

/// The whole sparse pipeline on synthetic captures, scored against their truth with the issue's
/// thresholds: every image registered, median rotation error under 0.5°, median centre error
/// under 1% of the ring radius, mean reprojection error under 1 px.
final class SparseReconstructionTests: XCTestCase {
    func reconstruct(_ spec: CaptureSpec, options: ReconstructionOptions = ReconstructionOptions()) throws -> (SparseReconstruction, ModelAccuracy) {
        let onDisk = try CaptureOnDisk(spec)
        defer { onDisk.remove() }
        let result = try SparseReconstructor(options: options).reconstruct(onDisk.sources)
        let accuracy = try XCTUnwrap(ModelAccuracy(result.model, capture: onDisk.capture))
        return (result, accuracy)
    }

    func assertMeetsTheBar(_ result: SparseReconstruction, _ accuracy: ModelAccuracy, images: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.registeredCount, images, "registered; skipped: \(result.skipped)", file: file, line: line)
        XCTAssertLessThan(accuracy.medianRotationErrorDegrees, 0.5, file: file, line: line)
        XCTAssertLessThan(accuracy.medianCentreErrorOfRadius, 0.01, file: file, line: line)
        XCTAssertLessThan(result.mapping.meanReprojectionErrorPixels, 1, file: file, line: line)
        XCTAssertGreaterThan(result.model.pointCount, 500, file: file, line: line)
        XCTAssertGreaterThan(result.mapping.meanTrackLength, 2.5, file: file, line: line)
    }

    func testTexturedRingOfTwentyFour() throws {
        let (result, accuracy) = try reconstruct(Fixtures.captureSpec(.textured24, width: 640, height: 480))
        assertMeetsTheBar(result, accuracy, images: 24)
        print("textured-24 640×480: rotation \(accuracy.medianRotationErrorDegrees)°, centre \(accuracy.medianCentreErrorOfRadius * 100)% of radius, reprojection \(result.mapping.meanReprojectionErrorPixels) px, \(result.model.pointCount) points, \(result.stageSeconds)")
    }

    func testSmallCaptureOfTwelve() throws {
        let (result, accuracy) = try reconstruct(Fixtures.captureSpec(.small12, width: 640, height: 480))
        assertMeetsTheBar(result, accuracy, images: 12)
        print("small-12 640×480: rotation \(accuracy.medianRotationErrorDegrees)°, centre \(accuracy.medianCentreErrorOfRadius * 100)% of radius, reprojection \(result.mapping.meanReprojectionErrorPixels) px, \(result.model.pointCount) points, \(result.stageSeconds)")
    }

    func testLowTextureFabricWithHighSensitivity() throws {
        var options = ReconstructionOptions()
        options.features.sensitivity = .high
        let (result, accuracy) = try reconstruct(Fixtures.captureSpec(.fabric30, width: 640, height: 480), options: options)
        assertMeetsTheBar(result, accuracy, images: 30)
        print("fabric-30 640×480 high: rotation \(accuracy.medianRotationErrorDegrees)°, centre \(accuracy.medianCentreErrorOfRadius * 100)% of radius, reprojection \(result.mapping.meanReprojectionErrorPixels) px, \(result.model.pointCount) points, \(result.stageSeconds)")
    }
}
