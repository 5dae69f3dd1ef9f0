import AtelierImaging
@testable import AtelierReconstruction
import Foundation
import XCTest

/// Plain photos compared by their pixels: a crop or a turn of one is found, another plain
/// photo with the same smooth light is not, and a blank one is left to the hash.
final class DenseComparisonTests: XCTestCase {
    /// A plain photo: a smooth gradient (the light) with faint fine detail (weave, grain), the
    /// detail drawn from `seed`.
    static func plain(width: Int = 400, height: Int = 300, seed: UInt64, detail: Double = 6) -> [Double] {
        var state = seed
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        // Grain about 16 pixels across: noise on a grid an eighth the size, read back bilinearly.
        let gw = width / 8 + 2, gh = height / 8 + 2
        let coarse = (0 ..< gw * gh).map { _ in unit() - 0.5 }
        let noise = (0 ..< width * height).map { i -> Double in
            let x = Double(i % width) / 8, y = Double(i / width) / 8
            let x0 = Int(x), y0 = Int(y), fx = x - Double(x0), fy = y - Double(y0)
            let top = coarse[y0 * gw + x0] * (1 - fx) + coarse[y0 * gw + x0 + 1] * fx
            let bottom = coarse[(y0 + 1) * gw + x0] * (1 - fx) + coarse[(y0 + 1) * gw + x0 + 1] * fx
            return top * (1 - fy) + bottom * fy
        }
        return (0 ..< width * height).map { i in
            let x = Double(i % width) / Double(width), y = Double(i / width) / Double(height)
            return 90 + 80 * x + 40 * y + detail * 4 * noise[i]
        }
    }

    /// The picture `values` (width × height) seen through `map` (output pixel → source
    /// position), bilinear, at `size`.
    static func warped(_ values: [Double], width: Int, height: Int, size: (Int, Int), map: (Double, Double) -> (Double, Double)) -> Image {
        var pixels = [UInt8](repeating: 0, count: size.0 * size.1)
        for v in 0 ..< size.1 {
            for u in 0 ..< size.0 {
                let (x, y) = map(Double(u), Double(v))
                let cx = min(max(x, 0), Double(width - 1)), cy = min(max(y, 0), Double(height - 1))
                let x0 = min(Int(cx), width - 2), y0 = min(Int(cy), height - 2)
                let fx = cx - Double(x0), fy = cy - Double(y0)
                let top = values[y0 * width + x0] * (1 - fx) + values[y0 * width + x0 + 1] * fx
                let bottom = values[(y0 + 1) * width + x0] * (1 - fx) + values[(y0 + 1) * width + x0 + 1] * fx
                pixels[v * size.0 + u] = UInt8(min(255, max(0, (top * (1 - fy) + bottom * fy).rounded())))
            }
        }
        return Image(width: size.0, height: size.1, channels: 1, pixels: pixels)
    }

    let verifier = try! NearDuplicateVerifier()

    func compare(_ a: Image, _ b: Image) -> DenseComparison.Result {
        DenseComparison.compare(DenseThumbnail(a), DenseThumbnail(b), isEdit: verifier.isEdit)
    }

    func testACropAndATurnOfAPlainPhotoAreFound() {
        let photo = Self.plain(seed: 1)
        let original = Self.warped(photo, width: 400, height: 300, size: (400, 300)) { ($0, $1) }
        // 12 % off the left and 6 % off the top, kept at its size.
        let cropped = Self.warped(photo, width: 400, height: 300, size: (352, 282)) { ($0 + 48, $1 + 18) }
        // Turned 3°, 8 % cut off each side, resized back.
        let angle = 3 * Double.pi / 180
        let turned = Self.warped(photo, width: 400, height: 300, size: (400, 300)) { u, v in
            let x = 32 + u * 0.84 - 200, y = 24 + v * 0.84 - 150
            return (cos(angle) * x - sin(angle) * y + 200, sin(angle) * x + cos(angle) * y + 150)
        }
        for (name, copy) in [("crop", cropped), ("turn", turned)] {
            for (a, b) in [(original, copy), (copy, original)] {
                let result = compare(a, b)
                XCTAssertEqual(result.isDuplicate, true, "\(name): detail correlation \(result.detailCorrelation)")
            }
        }
    }

    func testAnotherPlainPhotoUnderTheSameLightIsNot() {
        let original = Self.warped(Self.plain(seed: 1), width: 400, height: 300, size: (400, 300)) { ($0, $1) }
        let other = Self.warped(Self.plain(seed: 2), width: 400, height: 300, size: (400, 300)) { ($0, $1) }
        let result = compare(original, other)
        XCTAssertEqual(result.isDuplicate, false, "detail correlation \(result.detailCorrelation)")
        XCTAssertLessThan(result.detailCorrelation, DenseComparison.differentBelow)
    }

    func testABlankPhotoIsLeftToTheHash() {
        let blank = Self.warped(Self.plain(seed: 1, detail: 0), width: 400, height: 300, size: (400, 300)) { ($0, $1) }
        let original = Self.warped(Self.plain(seed: 1), width: 400, height: 300, size: (400, 300)) { ($0, $1) }
        XCTAssertNil(compare(blank, original).isDuplicate)
        XCTAssertNil(compare(blank, blank).isDuplicate)
    }
}
