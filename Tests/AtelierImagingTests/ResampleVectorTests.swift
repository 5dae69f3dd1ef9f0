import CResample
import XCTest
@testable import AtelierImaging

/// `CResample`'s vector passes against its plain loops (which `ResizeTests` ties to Pillow): every
/// channel count, shrinking and enlarging with each filter, sizes whose rows end mid-vector, and
/// the last row of a buffer (where a whole vector may not be read past its end).
final class ResampleVectorTests: XCTestCase {
    func testVectorPassesGiveThePlainLoopsBytes() throws {
        try XCTSkipUnless(atl_resample_uses_avx2() == 1, "no AVX2 here: both calls run the plain loops")
        var checked = 0
        for channels in 1 ... 4 {
            for (index, size) in [(1, 1), (5, 3), (17, 9), (97, 61), (500, 375), (513, 7)].enumerated() {
                let image = ResizeTests.texture(width: size.0, height: size.1, channels: channels, seed: index &* 7 &+ channels)
                for filter in [ResampleFilter.lanczos3, .bilinear, .box] {
                    for to in [max(1, size.0 / 2), max(1, size.0 * 2 / 5), size.0 + 3, 32, 9, 1] {
                        checked += compareRows(image, to: to, filter: filter)
                    }
                    for to in [max(1, size.1 / 3), size.1 + 5, 32, 8] {
                        checked += compareColumns(image, to: to, filter: filter)
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 1_000_000)
    }

    /// Every row through both horizontal passes; the vector one is told it may read only to the
    /// end of the pixels, as `resized` tells it. Returns the samples compared.
    private func compareRows(_ image: Image, to width: Int, filter: ResampleFilter, line: UInt = #line) -> Int {
        let (kernel, fixedPoint) = ResampleKernel.shared(inputSize: image.width, outputSize: width, filter: filter)
        let rowLength = width * image.channels
        var vector = [UInt8](repeating: 0, count: rowLength), plain = vector
        kernel.withPasses(fixedPoint) { pass in
            withUnsafePointer(to: pass.kernel) { k in
                image.pixels.withUnsafeBufferPointer { source in
                    for y in 0 ..< image.height {
                        let offset = y * image.width * image.channels
                        atl_resample_row(source.baseAddress! + offset, source.count - offset, image.channels, k, &vector)
                        atl_resample_row_portable(source.baseAddress! + offset, image.channels, k, &plain)
                        XCTAssert(vector == plain, "\(image.channels) channels, \(image.width) → \(width), \(filter), row \(y)", line: line)
                    }
                }
            }
        }
        return rowLength * image.height
    }

    private func compareColumns(_ image: Image, to height: Int, filter: ResampleFilter, line: UInt = #line) -> Int {
        let (kernel, fixedPoint) = ResampleKernel.shared(inputSize: image.height, outputSize: height, filter: filter)
        let rowLength = image.width * image.channels
        var vector = [UInt8](repeating: 0, count: rowLength), plain = vector
        kernel.withPasses(fixedPoint) { pass in
            withUnsafePointer(to: pass.kernel) { k in
                image.pixels.withUnsafeBufferPointer { source in
                    for y in 0 ..< height {
                        atl_resample_column(source.baseAddress!, rowLength, k, y, &vector)
                        atl_resample_column_portable(source.baseAddress!, rowLength, k, y, &plain)
                        XCTAssert(vector == plain, "\(image.channels) channels, height \(image.height) → \(height), \(filter), row \(y)", line: line)
                    }
                }
            }
        }
        return rowLength * height
    }

    /// Sums far from any photo's (weights of extreme images) still clip as the plain loop does:
    /// all-white and all-black images through the sharpest filter, enlarged.
    func testExtremesClipAlike() throws {
        try XCTSkipUnless(atl_resample_uses_avx2() == 1, "no AVX2 here")
        for value: UInt8 in [0, 255] {
            var pixels = [UInt8](repeating: value, count: 40 * 40 * 3)
            for i in stride(from: 0, to: pixels.count, by: 7) { pixels[i] = 255 &- value }
            let image = Image(width: 40, height: 40, channels: 3, pixels: pixels)
            XCTAssertGreaterThan(compareRows(image, to: 117, filter: .lanczos3), 0)
            XCTAssertGreaterThan(compareColumns(image, to: 117, filter: .lanczos3), 0)
        }
    }
}
