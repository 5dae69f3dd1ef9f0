import XCTest
@testable import AtelierWardrobe

/// Colour schemes on colours whose relations colour theory states, and OkLCh against the
/// published values of Björn Ottosson's reference implementation.
final class ColourHarmonyTests: XCTestCase {
    func colour(_ hex: String) -> HarmonyColour { HarmonyColour(GarmentColour(hex: hex)!) }

    func testOkLChOfTheSRGBPrimariesMatchesTheReference() {
        // OkLab of sRGB red, green and blue from the reference (ottosson.github.io/oklab):
        // red L 0.6279 C 0.2577 h 29.23; green L 0.8664 C 0.2948 h 142.50; blue L 0.4520 C 0.3132 h 264.05.
        for (hex, l, c, h) in [("#ff0000", 0.6279, 0.2577, 29.23), ("#00ff00", 0.8664, 0.2948, 142.50), ("#0000ff", 0.4520, 0.3132, 264.05)] {
            let lch = GarmentColour(hex: hex)!.oklch
            XCTAssertEqual(lch.l, l, accuracy: 0.001, hex)
            XCTAssertEqual(lch.c, c, accuracy: 0.001, hex)
            XCTAssertEqual(lch.h, h, accuracy: 0.1, hex)
        }
        XCTAssertEqual(GarmentColour(hex: "#ffffff")!.oklch.l, 1, accuracy: 0.001)
        XCTAssertEqual(GarmentColour(hex: "#ffffff")!.oklch.c, 0, accuracy: 0.001)
    }

    func testNeutralsGoWithEverything() {
        for neutral in ["#ffffff", "#000000", "#808080", "#1f2a44", "#c3b091", "#f5f5dc", "#36454f"] {
            XCTAssertTrue(colour(neutral).isNeutral, neutral)
            for other in ["#ff0000", "#00aa00", "#ffa500", "#e30b5c"] {
                XCTAssertEqual(ColourScheme(colour(neutral), colour(other)), .neutral, "\(neutral) \(other)")
            }
        }
        for coloured in ["#ff0000", "#3b5b8c", "#ffa500", "#228b22", "#aec6e8"] { XCTAssertFalse(colour(coloured).isNeutral, coloured) }
    }

    func testSchemesByHue() {
        XCTAssertEqual(ColourScheme(colour("#c8102e"), colour("#ff6f7f")), .monochrome)  // red, lighter red
        XCTAssertEqual(ColourScheme(colour("#1e56c8"), colour("#6a3cbc")), .analogous)   // blue, violet
        XCTAssertEqual(ColourScheme(colour("#1e56c8"), colour("#ff8c00")), .complementary)  // blue, orange
        XCTAssertEqual(ColourScheme(colour("#ff0000"), colour("#a0c020")), .clash)  // red, yellow-green
        // One clash pulls the outfit below any all-neutral one.
        let clash = ColourScheme.harmony([colour("#ff0000"), colour("#a0c020"), colour("#ffffff")])
        let calm = ColourScheme.harmony([colour("#ffffff"), colour("#1f2a44"), colour("#c3b091")])
        XCTAssertEqual(calm.score, 1)
        XCTAssertLessThan(clash.score, 0.65)
        XCTAssertEqual(clash.worst?.2, .clash)
    }

    func testFormalityAgreement() {
        XCTAssertEqual(Formality.agreement([1, 2]), 1)   // jeans with a shirt
        XCTAssertEqual(Formality.agreement([0, 4]), 0)   // joggers with a tie
        XCTAssertEqual(Formality.agreement([3, 3], target: 3), 1)
        XCTAssertLessThan(Formality.agreement([1, 1], target: 3.6), 0.9)
    }
}

/// The rotation need: resting after a wear, ranks, the boost for the least worn.
final class RotationNeedTests: XCTestCase {
    func testRestThenRanksThenBoost() {
        // Resting: a top for a week, shoes for three days.
        XCTAssertEqual(RotationNeed(daysSinceWorn: 6, wearCount: 5, categoryMedian: 5, staleness: 1, scarcity: 1).value, 0)
        XCTAssertEqual(RotationNeed.rest(category: "top"), 7)
        XCTAssertEqual(RotationNeed.rest(category: "footwear"), 3)
        let shoes = RotationNeed(daysSinceWorn: 3, wearCount: 5, categoryMedian: 5, staleness: 0, scarcity: 0, restDays: RotationNeed.rest(category: "footwear"))
        XCTAssertEqual(shoes.value, 0.3, accuracy: 1e-12)
        XCTAssertEqual(shoes.phrase, "not worn for 3 days")
        // Ranks: 0.3 + 0.2 staleness + 0.3 scarcity.
        XCTAssertEqual(RotationNeed(daysSinceWorn: 20, wearCount: 5, categoryMedian: 5, staleness: 0.5, scarcity: 0.5).value, 0.55, accuracy: 1e-12)
        XCTAssertEqual(RotationNeed(daysSinceWorn: nil, wearCount: 5, categoryMedian: 5, staleness: 1, scarcity: 1).value, 0.8, accuracy: 1e-12)
        // Worn under a third of the median: +0.2, at most 1.
        let seldom = RotationNeed(daysSinceWorn: 40, wearCount: 1, categoryMedian: 9, staleness: 1, scarcity: 1)
        XCTAssertTrue(seldom.underworn)
        XCTAssertEqual(seldom.value, 1)
        XCTAssertEqual(RotationNeed(daysSinceWorn: 40, wearCount: 3, categoryMedian: 9, staleness: 0, scarcity: 0).value, 0.3, accuracy: 1e-12)
        XCTAssertEqual(RotationNeed(daysSinceWorn: 2, wearCount: 0, categoryMedian: 9, staleness: 1, scarcity: 1).phrase, "worn 2 days ago")
    }
}
