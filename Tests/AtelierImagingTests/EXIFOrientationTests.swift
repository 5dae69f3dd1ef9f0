import AtelierRecords
import XCTest
@testable import AtelierImaging

/// `Image.oriented(_:)`: the eight EXIF orientations on a 3×2 image worked out by hand, then
/// against a coordinate-by-coordinate reference on sizes that cross the band boundaries.
final class EXIFOrientationTests: XCTestCase {
    /// Stored:        1 2 3
    ///                4 5 6
    static let stored = Image(width: 3, height: 2, channels: 1, pixels: [1, 2, 3, 4, 5, 6])

    /// What a viewer shows for each orientation, drawn by hand from Exif 2.32 §4.6.4 A: where
    /// stored row 0 and column 0 belong on screen.
    static let displayed: [Int: (width: Int, height: Int, pixels: [UInt8])] = [
        1: (3, 2, [1, 2, 3,
                   4, 5, 6]),           // row 0 top, column 0 left
        2: (3, 2, [3, 2, 1,
                   6, 5, 4]),           // row 0 top, column 0 right
        3: (3, 2, [6, 5, 4,
                   3, 2, 1]),           // row 0 bottom, column 0 right
        4: (3, 2, [4, 5, 6,
                   1, 2, 3]),           // row 0 bottom, column 0 left
        5: (2, 3, [1, 4,
                   2, 5,
                   3, 6]),              // row 0 left, column 0 top
        6: (2, 3, [4, 1,
                   5, 2,
                   6, 3]),              // row 0 right, column 0 top
        7: (2, 3, [6, 3,
                   5, 2,
                   4, 1]),              // row 0 right, column 0 bottom
        8: (2, 3, [3, 6,
                   2, 5,
                   1, 4]),              // row 0 left, column 0 bottom
    ]

    func testEachOrientationOfA3x2Image() {
        for orientation in 1 ... 8 {
            let expected = Self.displayed[orientation]!
            let image = Self.stored.oriented(orientation)
            XCTAssertEqual(image, Image(width: expected.width, height: expected.height, channels: 1, pixels: expected.pixels), "orientation \(orientation)")
        }
    }

    func testEveryChannelCountMovesWholePixels() {
        for channels in 1 ... 4 {
            // Pixel i has samples 10·i + c, so a sample moved alone would show.
            let source = Image(width: 3, height: 2, channels: channels,
                               pixels: (0 ..< 6).flatMap { i in (0 ..< channels).map { UInt8(10 * (i + 1) + $0) } })
            for orientation in 1 ... 8 {
                let expected = Self.displayed[orientation]!
                let pixels = expected.pixels.flatMap { i in (0 ..< channels).map { UInt8(10 * Int(i) + $0) } }
                XCTAssertEqual(source.oriented(orientation), Image(width: expected.width, height: expected.height, channels: channels, pixels: pixels),
                               "orientation \(orientation), \(channels) channels")
            }
        }
    }

    func testDisplayedDimensionsSwapForQuarterTurns() {
        for orientation in 1 ... 8 {
            let image = Self.stored.oriented(orientation)
            let metadata = EXIFMetadata(orientation: orientation, pixelWidth: 3, pixelHeight: 2)
            XCTAssertEqual(metadata.displayPixelWidth, image.width, "orientation \(orientation)")
            XCTAssertEqual(metadata.displayPixelHeight, image.height, "orientation \(orientation)")
            XCTAssertEqual(EXIF.swapsAxes(orientation: orientation), orientation >= 5)
            XCTAssertEqual(image.width == 2, orientation >= 5)
        }
        XCTAssertEqual(EXIFMetadata(pixelWidth: 3, pixelHeight: 2).displayPixelWidth, 3, "no orientation: as stored")
    }

    func testOtherValuesLeaveTheImageAlone() {
        for orientation in [0, 9, -1, Int.max] {
            XCTAssertEqual(Self.stored.oriented(orientation), Self.stored)
        }
        let empty = Image(width: 0, height: 5, channels: 3)
        XCTAssertEqual(empty.oriented(6), empty)
    }

    /// Against the formulas in the doc comment, one coordinate at a time, on sizes that are not
    /// multiples of the band height, thin ones included; and each orientation undone by its inverse.
    func testAgreesWithCoordinateReferenceAndInverts() {
        var random = SplitMix64(seed: 6)
        let inverse = [1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6]
        for (width, height) in [(1, 1), (1, 7), (9, 1), (16, 16), (17, 33), (40, 3), (5, 50)] {
            for channels in 1 ... 4 {
                let pixels = (0 ..< width * height * channels).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                let image = Image(width: width, height: height, channels: channels, pixels: pixels)
                for orientation in 1 ... 8 {
                    let oriented = image.oriented(orientation)
                    XCTAssertEqual(oriented, Self.reference(image, orientation), "\(width)×\(height)×\(channels), orientation \(orientation)")
                    XCTAssertEqual(oriented.oriented(inverse[orientation]!), image, "\(width)×\(height)×\(channels), orientation \(orientation) undone")
                }
            }
        }
    }

    /// The displayed image built pixel by pixel from where each displayed pixel comes from.
    static func reference(_ image: Image, _ orientation: Int) -> Image {
        let (w, h) = (image.width, image.height)
        let swaps = orientation >= 5
        let outWidth = swaps ? h : w, outHeight = swaps ? w : h
        var out = Image(width: outWidth, height: outHeight, channels: image.channels)
        for y in 0 ..< outHeight {
            for x in 0 ..< outWidth {
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (w - 1 - x, y)
                case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                case 4: (sx, sy) = (x, h - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, h - 1 - x)
                case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                case 8: (sx, sy) = (w - 1 - y, x)
                default: (sx, sy) = (x, y)
                }
                for c in 0 ..< image.channels {
                    out.pixels[(y * outWidth + x) * image.channels + c] = image.pixels[(sy * w + sx) * image.channels + c]
                }
            }
        }
        return out
    }
}
