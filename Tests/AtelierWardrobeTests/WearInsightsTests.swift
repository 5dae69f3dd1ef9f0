import XCTest
@testable import AtelierWardrobe

/// The Gini coefficient and logging streaks, against values worked out by hand.
final class WearInsightsTests: XCTestCase {
    func testGiniOfEvenAndUnevenWear() {
        XCTAssertEqual(WearInsights.gini([3, 3, 3, 3]), 0)
        // One garment of four gets all the wear: mean |xi - xj| over all 16 pairs is 6·8/16 = 3,
        // the mean is 2, so G = 3 / (2·2) = 0.75.
        XCTAssertEqual(WearInsights.gini([0, 0, 0, 8])!, 0.75, accuracy: 1e-12)
        // [1, 2, 3]: Σ|xi - xj| over ordered pairs = 8, n² = 9, mean 2: G = 8 / (2·9·2) = 2/9.
        XCTAssertEqual(WearInsights.gini([3, 1, 2])!, 2.0 / 9, accuracy: 1e-12)
        XCTAssertNil(WearInsights.gini([]))
        XCTAssertNil(WearInsights.gini([0, 0]), "no wears: how evenly is undefined")
    }

    func testStreaksCountConsecutiveLoggedDays() {
        // Days 1-3, 5, 7-10 logged.
        let days = [1, 2, 3, 5, 7, 8, 9, 10, 3, 8]
        XCTAssertEqual(WearInsights.streaks(days, asOf: 10).current, 4)
        XCTAssertEqual(WearInsights.streaks(days, asOf: 10).longest, 4)
        XCTAssertEqual(WearInsights.streaks(days, asOf: 11).current, 4, "today not logged yet: the streak holds")
        XCTAssertEqual(WearInsights.streaks(days, asOf: 12).current, 0, "a whole day without a log ends it")
        XCTAssertEqual(WearInsights.streaks(days, asOf: 4).current, 3)
        XCTAssertEqual(WearInsights.streaks(days, asOf: 4).longest, 3, "days after asOf do not count")
        XCTAssertEqual(WearInsights.streaks([], asOf: 4).longest, 0)
    }
}
