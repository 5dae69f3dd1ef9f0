import AtelierImaging
import AtelierSynthetic
import XCTest

/// The procedural textures and the sampler.
final class TextureTests: XCTestCase {
    /// Mean absolute difference between horizontally and vertically adjacent luma values: a
    /// measure of fine detail.
    func detail(_ image: Image) -> Double {
        let grey = image.grey()
        var sum = 0
        for y in 0 ..< grey.height - 1 {
            for x in 0 ..< grey.width - 1 {
                let v = Int(grey.pixels[y * grey.width + x])
                sum += abs(v - Int(grey.pixels[y * grey.width + x + 1])) + abs(v - Int(grey.pixels[(y + 1) * grey.width + x]))
            }
        }
        return Double(sum) / Double(2 * (grey.width - 1) * (grey.height - 1))
    }

    func lumaSpread(_ image: Image) -> Double {
        let values = image.grey().pixels.map(Double.init)
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    func testThePrintIsBusyAtEveryScaleAndTheWeaveIsNot() {
        let print = PrintedFabric(size: 512).image(seed: 2), weave = PlainWeave(size: 512).image(seed: 2)
        XCTAssertEqual(print.width, 512)
        XCTAssertEqual(print.channels, 3)
        // Fine detail, and large-scale contrast once the fine detail is averaged away.
        XCTAssertGreaterThan(detail(print), 4 * detail(weave))
        let coarsePrint = print.resized(width: 64, height: 64), coarseWeave = weave.resized(width: 64, height: 64)
        XCTAssertGreaterThan(lumaSpread(coarsePrint), 20)
        XCTAssertLessThan(lumaSpread(coarseWeave), 6, "the weave should be a plain cloth from afar")
        XCTAssertGreaterThan(lumaSpread(weave), 0.5, "but not a flat colour")
    }

    func testTexturesDependOnTheSeedAndOnlyOnTheSeed() {
        XCTAssertEqual(PrintedFabric(size: 128).image(seed: 8), PrintedFabric(size: 128).image(seed: 8))
        XCTAssertNotEqual(PrintedFabric(size: 128).image(seed: 8), PrintedFabric(size: 128).image(seed: 9))
        XCTAssertEqual(PlainWeave(size: 128).image(seed: 8), PlainWeave(size: 128).image(seed: 8))
    }

    func testSamplingIsExactAtTexelCentresAndMipLevelsAverageInLinearLight() {
        // A 2 × 2 checker of black and white.
        let image = Image(width: 2, height: 2, channels: 3, pixels: [0, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 0])
        let texture = Texture(image: image)
        XCTAssertEqual(texture.sample(u: 0.25, v: 0.25, lod: 0), SIMD3(repeating: 0))
        XCTAssertEqual(texture.sample(u: 0.75, v: 0.25, lod: 0), SIMD3(repeating: 1))
        // Half way between texel centres: half the light.
        XCTAssertEqual(texture.sample(u: 0.5, v: 0.25, lod: 0).x, 0.5, accuracy: 1e-6)
        // Level 1 is one texel holding the mean light, stored as the sRGB code nearest 0.5 linear.
        XCTAssertEqual(texture.sample(u: 0.3, v: 0.8, lod: 1).x, 0.5, accuracy: 0.004)
        XCTAssertEqual(texture.sample(u: 0.3, v: 0.8, lod: 0.5).x,
                       (texture.sample(u: 0.3, v: 0.8, lod: 0).x + texture.sample(u: 0.3, v: 0.8, lod: 1).x) / 2, accuracy: 1e-6)
        // Beyond the last level, the last level.
        XCTAssertEqual(texture.sample(u: 0.3, v: 0.8, lod: 9), texture.sample(u: 0.3, v: 0.8, lod: 1))
    }

    func testTurntableCarriesTheContactShadowOutsideTheHem() {
        let outline = HemOutline(radii: [Float](repeating: 0.3, count: 360))
        let image = TurntableSurface(size: 256, radiusMetres: 0.42).image(seed: 1, hemOutline: outline, keyDirection: [0, 1, 0])
        // Texel at world (x, 0) is column (x / 0.42 + 1) / 2 × 256 on the middle row.
        func luma(atX x: Double) -> Double {
            let column = Int((x / 0.42 + 1) / 2 * 256), row = 128
            return (column - 2 ... column + 2).map { Double(image.grey().pixels[row * 256 + $0]) }.reduce(0, +) / 5
        }
        XCTAssertLessThan(luma(atX: 0.31), 0.8 * luma(atX: 0.39), "the ground just outside the hem should be in shadow")
    }
}
