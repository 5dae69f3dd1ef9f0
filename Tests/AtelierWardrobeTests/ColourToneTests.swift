import XCTest
@testable import AtelierWardrobe

/// Colour tones of everyday garment colours, and of outfits.
final class ColourToneTests: XCTestCase {
    func tone(_ hex: String) -> ColourTone { ColourTone(GarmentColour(hex: hex)!) }

    func testEverydayColours() {
        for hex in ["#ffffff", "#111111", "#8a8a8a", "#f5f5f0"] { XCTAssertEqual(tone(hex), .neutral, hex) }
        for hex in ["#c8102e", "#f26522", "#f5d033", "#6b4423", "#c19a6b"] { XCTAssertEqual(tone(hex), .warm, hex) }  // red, orange, yellow, brown, camel
        for hex in ["#2f6fd6", "#1f2a44", "#2a8a3e", "#6a2c91", "#008080"] { XCTAssertEqual(tone(hex), .cool, hex) }  // blue, navy, green, purple, teal
    }

    func testAnOutfitTakesTheToneMostOfItsColouredGarmentsHave() {
        let colours = ["#c8102e", "#6b4423", "#2f6fd6", "#111111"].map { GarmentColour(hex: $0)! }
        XCTAssertEqual(ColourTone(outfit: colours), .warm, "two warm, one cool, one neutral")
        XCTAssertEqual(ColourTone(outfit: Array(colours.dropFirst())), .neutral, "one warm, one cool")
        XCTAssertEqual(ColourTone(outfit: []), .neutral)
    }
}
