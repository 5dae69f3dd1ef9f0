import AtelierImaging
import XCTest

/// `Image.resampled(_:width:height:)`, the area resampling the care-label crops are cut with:
/// exact area means when shrinking (partly covered pixels by the part covered), linear
/// interpolation between pixel centres when enlarging, the edge repeated outside the image.
/// (CareCropTests checks it against the training code's numpy on a real label.)
final class ResizeRegionTests: XCTestCase {
    static func row(_ values: [UInt8]) -> Image { Image(width: values.count, height: 1, channels: 1, pixels: values) }

    func testShrinkingAveragesWholeBlocks() {
        let image = Image(width: 4, height: 4, channels: 1, pixels: [
            0, 10, 100, 101,
            20, 30, 102, 103,
            7, 7, 255, 255,
            7, 8, 255, 254,
        ])
        let small = image.resampled(PixelRegion(x0: 0, y0: 0, x1: 4, y1: 4), width: 2, height: 2)
        XCTAssertEqual(small.pixels, [15, 102, 7, 255], "block means, halves rounded up")
    }

    func testAPartlyCoveredPixelWeighsThePartCovered() {
        // Half of 0, all of 100, half of 200, over two pixels' width: (0 + 100 + 100) / 2.
        XCTAssertEqual(Self.row([0, 100, 200]).resampled(PixelRegion(x0: 0.5, y0: 0, x1: 2.5, y1: 1), width: 1, height: 1).pixels, [100])
        // A quarter of a pixel at each end of a 1.5-pixel span: (60·0.25 + 90·1 + 30·0.25) / 1.5.
        XCTAssertEqual(Self.row([60, 90, 30]).resampled(PixelRegion(x0: 0.75, y0: 0, x1: 2.25, y1: 1), width: 1, height: 1).pixels, [75])
    }

    func testEnlargingInterpolatesBetweenCentresAndHoldsTheEdges() {
        XCTAssertEqual(Self.row([0, 100]).resampled(PixelRegion(x0: 0, y0: 0, x1: 2, y1: 1), width: 4, height: 1).pixels, [0, 25, 75, 100])
    }

    func testOutsideTheImageTheEdgeRepeats() {
        let image = Self.row([10, 20, 30])
        XCTAssertEqual(image.resampled(PixelRegion(x0: -4, y0: -3, x1: 0, y1: 5), width: 2, height: 3).pixels, [UInt8](repeating: 10, count: 6))
        XCTAssertEqual(image.resampled(PixelRegion(x0: 2, y0: 0, x1: 6, y1: 1), width: 1, height: 1).pixels, [30])
        // One pixel out on the left: the repeated edge, then 10 and 20.
        XCTAssertEqual(image.resampled(PixelRegion(x0: -1, y0: 0, x1: 2, y1: 1), width: 3, height: 1).pixels, [10, 10, 20])
    }

    func testChannelsAreResampledAlike() {
        let grey = Image(width: 5, height: 3, channels: 1, pixels: (0 ..< 15).map { UInt8($0 * 17) })
        let rgb = Image(width: 5, height: 3, channels: 3, pixels: grey.pixels.flatMap { [$0, 255 - $0, $0 / 2] })
        let region = PixelRegion(x0: 0.3, y0: -0.5, x1: 4.6, y1: 2.9)
        for (width, height) in [(2, 2), (7, 4), (3, 9)] {
            let one = grey.resampled(region, width: width, height: height)
            let three = rgb.resampled(region, width: width, height: height)
            XCTAssertEqual(three.channels, 3)
            XCTAssertEqual(stride(from: 0, to: three.pixels.count, by: 3).map { three.pixels[$0] }, one.pixels, "\(width)×\(height)")
        }
    }
}
