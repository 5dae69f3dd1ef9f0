@testable import AtelierReconstruction
import XCTest

final class MemoryBudgetTests: XCTestCase {
    func testSizesParseInPowersOf1024AndNonsenseIsRefused() {
        XCTAssertEqual(MemoryBudget.parse("4G")?.bytes, 4 << 30)
        XCTAssertEqual(MemoryBudget.parse("1.5GB")?.bytes, 3 << 29)
        XCTAssertEqual(MemoryBudget.parse("800m")?.bytes, 800 << 20)
        XCTAssertEqual(MemoryBudget.parse("2GiB")?.bytes, 2 << 30)
        XCTAssertEqual(MemoryBudget.parse("65536")?.bytes, 65536)
        for bad in ["", "G", "lots", "0", "-1G", "4X", "1e30G", "nan"] { XCTAssertNil(MemoryBudget.parse(bad), bad) }
    }

    func testTheSystemBudgetIsWhatLinuxReports() throws {
        let budget = try XCTUnwrap(MemoryBudget.system())
        let total = try XCTUnwrap(MemoryBudget.meminfo("MemTotal"))
        XCTAssertGreaterThan(budget.bytes, 0)
        XCTAssertLessThanOrEqual(budget.bytes, total)
        XCTAssertGreaterThan(MemoryBudget.residentBytes(), 1 << 20)
    }

    func testStereoKeepsItsSideWhenItFitsAndShrinksUntilItDoes() {
        let roomy = MemoryPlan.stereo(views: 40, width: 4032, height: 3024, side: 768, threads: 2, resident: 200 << 20, budget: MemoryBudget(bytes: 4 << 30))
        XCTAssertEqual(roomy.photoSide, 768)
        XCTAssertNil(roomy.notice)
        XCTAssertLessThanOrEqual(roomy.estimatedBytes, 4 << 30)
        let tight = MemoryPlan.stereo(views: 40, width: 4032, height: 3024, side: 768, threads: 2, resident: 200 << 20, budget: MemoryBudget(bytes: 500 << 20))
        XCTAssertLessThan(tight.photoSide, 768)
        XCTAssertGreaterThanOrEqual(tight.photoSide, 320)
        XCTAssertLessThanOrEqual(tight.estimatedBytes, 500 << 20)
        XCTAssertEqual(tight.notice?.hasPrefix("point cloud generation: 40 photos at 768 px would need about"), true, tight.notice ?? "")
        // Photos smaller than the level's side are never scaled up.
        XCTAssertEqual(MemoryPlan.stereo(views: 10, width: 640, height: 480, side: 768, threads: 2, resident: 0, budget: MemoryBudget(bytes: 1 << 30)).photoSide, 640)
    }

    func testTextureShrinksThePhotosFirstThenTheAtlas() {
        let budget = MemoryBudget(bytes: 4 << 30)
        let roomy = MemoryPlan.texture(views: 40, width: 4032, height: 3024, side: 8192, atlas: 8192, threads: 2, resident: 300 << 20, budget: budget)
        XCTAssertEqual(roomy.photoSide, 4032)
        XCTAssertEqual(roomy.atlasSide, 8192)
        XCTAssertNil(roomy.notice)
        let photos = MemoryPlan.texture(views: 40, width: 4032, height: 3024, side: 8192, atlas: 8192, threads: 2, resident: 300 << 20, budget: MemoryBudget(bytes: 2 << 30))
        XCTAssertLessThan(photos.photoSide, 4032)
        XCTAssertEqual(photos.atlasSide, 8192)
        XCTAssertLessThanOrEqual(photos.estimatedBytes, 2 << 30)
        XCTAssertEqual(photos.notice?.contains("reading photos at \(photos.photoSide) px instead"), true, photos.notice ?? "")
        let both = MemoryPlan.texture(views: 40, width: 4032, height: 3024, side: 8192, atlas: 8192, threads: 2, resident: 300 << 20, budget: MemoryBudget(bytes: 600 << 20))
        XCTAssertEqual(both.photoSide, 1024)
        XCTAssertLessThan(both.atlasSide, 8192)
        XCTAssertLessThanOrEqual(both.estimatedBytes, 600 << 20)
        let hopeless = MemoryPlan.texture(views: 40, width: 4032, height: 3024, side: 8192, atlas: 8192, threads: 2, resident: 300 << 20, budget: MemoryBudget(bytes: 100 << 20))
        XCTAssertEqual(hopeless.atlasSide, 1024)
        XCTAssertEqual(hopeless.notice?.hasSuffix("(the smallest; it may still not fit)"), true, hopeless.notice ?? "")
    }
}
