@testable import AtelierReconstruction
import XCTest

/// Photos left out for one cause are told once, with the photos it concerns (issue 27: the
/// error repeated one sentence thirty times).
final class SkippedCauseTests: XCTestCase {
    func testOneLinePerCauseInFirstSeenOrder() {
        let skipped = (1 ... 30).map { SkippedImage(name: String(format: "img_%04d.jpg", $0), reason: $0 == 7 ? "cannot be read" : "no verified matches") }
        let causes = SkippedCause.grouping(skipped)
        XCTAssertEqual(causes.map(\.reason), ["no verified matches", "cannot be read"])
        XCTAssertEqual(causes[0].names.count, 29)
        XCTAssertEqual(causes[0].description, "img_0001.jpg–img_0006.jpg, img_0008.jpg–img_0030.jpg: no verified matches")
        XCTAssertEqual(causes[1].description, "img_0007.jpg: cannot be read")
        let error = ReconstructionError.nothingRegistered(reasons: skipped).description
        XCTAssertEqual(error.components(separatedBy: "no verified matches").count, 2, error)
        XCTAssertEqual(error, "no two photos could be aligned; img_0001.jpg–img_0006.jpg, img_0008.jpg–img_0030.jpg: no verified matches; img_0007.jpg: cannot be read")
    }

    func testNamesThatAreNotARunStayListed() {
        XCTAssertEqual(PhotoNameRanges.describe(["a1.jpg", "a2.jpg"]), "a1.jpg, a2.jpg")
        XCTAssertEqual(PhotoNameRanges.describe(["a1.jpg", "a2.jpg", "a3.jpg"]), "a1.jpg–a3.jpg")
        // Another width, another stem or a gap breaks the run.
        XCTAssertEqual(PhotoNameRanges.describe(["p9.png", "p10.png", "p11.png"]), "p9.png, p10.png, p11.png")
        XCTAssertEqual(PhotoNameRanges.describe(["x_01.jpg", "y_02.jpg", "y_03.jpg", "y_05.jpg"]), "x_01.jpg, y_02.jpg, y_03.jpg, y_05.jpg")
        XCTAssertEqual(PhotoNameRanges.describe(["front.jpg", "back.jpg", "side 2.jpg"]), "front.jpg, back.jpg, side 2.jpg")
        XCTAssertEqual(PhotoNameRanges.describe([]), "")
        // A number too long for Int is not a run, and does not trap.
        XCTAssertEqual(PhotoNameRanges.describe(["1234567890123456789012.jpg", "1234567890123456789013.jpg", "1234567890123456789014.jpg"]).components(separatedBy: ", ").count, 3)
    }
}
