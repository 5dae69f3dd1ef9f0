import AtelierImaging
import XCTest
@testable import AtelierCareLabels

/// A box the detector stopped above a symbol's bars grows over them, and over nothing else.
final class MarksBelowTests: XCTestCase {
    /// A white 200×200 grey image with a ring (the circle of professional care) and what `marks`
    /// draws below it, in black.
    func image(_ marks: (inout [UInt8]) -> Void) -> Image {
        var pixels = [UInt8](repeating: 235, count: 200 * 200)
        for y in 0 ..< 200 {
            for x in 0 ..< 200 {
                let r = ((Double(x) - 100) * (Double(x) - 100) + (Double(y) - 70) * (Double(y) - 70)).squareRoot()
                if abs(r - 40) <= 2 { pixels[y * 200 + x] = 20 }
            }
        }
        marks(&pixels)
        return Image(width: 200, height: 200, channels: 1, pixels: pixels)
    }

    static func fill(_ pixels: inout [UInt8], x: ClosedRange<Int>, y: ClosedRange<Int>) {
        for row in y { for column in x { pixels[row * 200 + column] = 20 } }
    }

    /// The ring's ink box, as the detector might give it without the bars.
    let ring = SymbolBox(x: 58, y: 28, width: 84, height: 84)

    func testTwoBarsUnderTheBoxAreTakenIn() {
        let grey = image { pixels in
            Self.fill(&pixels, x: 62 ... 138, y: 124 ... 127)
            Self.fill(&pixels, x: 62 ... 138, y: 135 ... 138)
        }
        let grown = MarksBelow.extend(ring, in: grey)
        XCTAssertEqual(grown.y, ring.y)
        XCTAssertEqual(grown.y + grown.height, 139, accuracy: 3)
        XCTAssertEqual(grown.width, ring.width)
    }

    func testNothingBelowALineOfTextOrTheNextSymbolIsTakenIn() {
        XCTAssertEqual(MarksBelow.extend(ring, in: image { _ in }), ring)
        // A line of text below, wider than the symbol.
        let text = image { pixels in
            for x in stride(from: 20, to: 180, by: 12) { Self.fill(&pixels, x: x ... x + 7, y: 124 ... 134) }
        }
        XCTAssertEqual(MarksBelow.extend(ring, in: text), ring)
        // A filled square right under it, as tall as the reach and more: not a mark.
        let block = image { pixels in Self.fill(&pixels, x: 60 ... 140, y: 120 ... 199) }
        XCTAssertEqual(MarksBelow.extend(ring, in: block), ring)
    }
}
