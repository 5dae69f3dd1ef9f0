import AtelierImaging
import XCTest

/// `BilinearSampler` against interpolation written out by hand: exact at texel centres, linear
/// between them, clamped beyond the border, the same in every layout and lane.
final class BilinearSamplerTests: XCTestCase {
    /// A 5 × 4 plane whose value is `3x + 7y` at texel (x, y): bilinear reads of a linear
    /// function give the function itself inside, and its border value outside.
    static let width = 5, height = 4
    static let plane: [Float] = (0 ..< height).flatMap { y in (0 ..< width).map { x in Float(3 * x + 7 * y) } }

    static func expected(_ x: Float, _ y: Float) -> Float {
        3 * min(max(x, 0), Float(width - 1)) + 7 * min(max(y, 0), Float(height - 1))
    }

    func testReadsTexelCentresExactlyAndInterpolatesBetween() {
        Self.plane.withUnsafeBufferPointer { values in
            let sampler = BilinearSampler(FloatTexels(values, width: Self.width, height: Self.height))
            for y in 0 ..< Self.height {
                for x in 0 ..< Self.width {
                    XCTAssertEqual(sampler.sample(x: Float(x), y: Float(y)), Self.plane[y * Self.width + x])
                }
            }
            for (x, y) in [(0.25, 0.5), (1.75, 2.125), (3.5, 2.99), (3.999, 0.001)] as [(Float, Float)] {
                XCTAssertEqual(sampler.sample(x: x, y: y), Self.expected(x, y), accuracy: 1e-5, "at (\(x), \(y))")
                XCTAssertEqual(sampler.sampleInside(x: x, y: y), Self.expected(x, y), accuracy: 1e-5, "at (\(x), \(y))")
            }
        }
    }

    func testClampsOffTheGridToTheBorder() {
        Self.plane.withUnsafeBufferPointer { values in
            let sampler = BilinearSampler(FloatTexels(values, width: Self.width, height: Self.height))
            for (x, y) in [(-3, 1.5), (-0.4, -0.7), (4, 3), (4.6, 1.25), (2.5, 9), (100, -100)] as [(Float, Float)] {
                XCTAssertEqual(sampler.sample(x: x, y: y), Self.expected(x, y), accuracy: 1e-5, "at (\(x), \(y))")
            }
        }
    }

    func testPixelConventionIsHalfATexelOn() {
        Self.plane.withUnsafeBufferPointer { values in
            let sampler = BilinearSampler(FloatTexels(values, width: Self.width, height: Self.height))
            XCTAssertEqual(sampler.sample(pixel: SIMD2(2.5, 1.5)), Self.plane[1 * Self.width + 2])
            XCTAssertEqual(sampler.sample(pixel: SIMD2(1.75, 3)), sampler.sample(x: 1.25, y: 2.5))
        }
    }

    func testFourLanesAgreeWithOneAtATime() {
        Self.plane.withUnsafeBufferPointer { values in
            let sampler = BilinearSampler(FloatTexels(values, width: Self.width, height: Self.height))
            let x = SIMD4<Float>(0, 1.3, 2.75, 3.99), y = SIMD4<Float>(2.5, 0, 1.01, 2.999)
            let four = sampler.sampleInside(x: x, y: y)
            for lane in 0 ..< 4 { XCTAssertEqual(four[lane], sampler.sampleInside(x: x[lane], y: y[lane])) }
        }
    }

    func testRGBChannelsAreSampledAlike() {
        // Red is the plane, green its mirror, blue constant.
        let pixels: [UInt8] = Self.plane.indices.flatMap { i in [UInt8(Self.plane[i]), UInt8(Self.plane[Self.plane.count - 1 - i]), 200] }
        pixels.withUnsafeBufferPointer { rgb in
            let sampler = BilinearSampler(RGB8Texels(rgb, width: Self.width, height: Self.height))
            for (x, y) in [(1.5, 0.5), (3.2, 2.9), (-1, 5)] as [(Float, Float)] {
                let colour = sampler.sample(x: x, y: y)
                XCTAssertEqual(colour.x, Self.expected(x, y), accuracy: 1e-4)
                XCTAssertEqual(colour.y, Self.expected(Float(Self.width - 1) - x, Float(Self.height - 1) - y), accuracy: 1e-4)
                XCTAssertEqual(colour.z, 200)
            }
        }
    }
}
