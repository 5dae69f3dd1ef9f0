import AtelierImaging
import AtelierRecords
import XCTest

final class SubjectSilhouetteTests: XCTestCase {
    /// A striped "garment" on a light grey backdrop with a soft gradient.
    static func photo(width: Int = 640, height: Int = 480, busy: Bool = false) -> Image {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var random = SplitMix64(seed: 99)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let i = (y * width + x) * 3
                let inside = x >= 220 && x < 420 && y >= 120 && y < 400
                var value: [UInt8]
                if busy {
                    let v = UInt8(truncatingIfNeeded: random.next() >> 56)
                    value = [v, v &+ 40, v &+ 80]
                } else if inside {
                    value = (x / 8) % 2 == 0 ? [150, 30, 40] : [40, 40, 150]
                } else {
                    let shade = UInt8(200 + x * 20 / width)
                    value = [shade, shade, shade]
                }
                pixels[i] = value[0]; pixels[i + 1] = value[1]; pixels[i + 2] = value[2]
            }
        }
        return Image(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// The silhouette covers the garment (and a margin), not the backdrop's corners.
    func testFindsTheGarmentOnAPlainBackdrop() throws {
        let silhouette = try XCTUnwrap(SubjectSilhouette(Self.photo()))
        func cell(_ x: Int, _ y: Int) -> UInt8 {
            silhouette.cells[(y * silhouette.height / 480) * silhouette.width + x * silhouette.width / 640]
        }
        for (x, y) in [(320, 260), (225, 125), (415, 395), (300, 200)] { XCTAssertEqual(cell(x, y), 1, "(\(x), \(y))") }
        for (x, y) in [(10, 10), (630, 470), (100, 240), (540, 240), (320, 40)] { XCTAssertEqual(cell(x, y), 0, "(\(x), \(y))") }
        // The garment is 200 × 280 of 640 × 480 (18 %); the margin adds a little.
        XCTAssertGreaterThan(silhouette.coverage, 0.18)
        XCTAssertLessThan(silhouette.coverage, 0.26)
    }

    /// No plain backdrop, no silhouette: the caller uses the whole photo.
    func testBusyPhotoHasNone() {
        XCTAssertNil(SubjectSilhouette(Self.photo(busy: true)))
    }
}
