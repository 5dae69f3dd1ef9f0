@testable import AtelierReconstruction
import Foundation
import XCTest

/// The building blocks against direct formulas.
final class ScaleSpaceTests: XCTestCase {
    func testFastAngleMatchesAtan2() {
        var worst: Float = 0
        for i in 0 ..< 2000 {
            let angle = Double(i) / 2000 * 2 * .pi
            for radius in [0.01, 1.0, 300.0] {
                let x = Float(radius * cos(angle)), y = Float(radius * sin(angle))
                var expected = Float(atan2(Double(y), Double(x)))
                if expected < 0 { expected += 2 * .pi }
                var error = abs(fastAngle(y: y, x: x) - expected)
                error = min(error, 2 * .pi - error)
                worst = max(worst, error)
                XCTAssertTrue(fastAngle(y: y, x: x) >= 0 && fastAngle(y: y, x: x) < 2 * .pi)
            }
        }
        XCTAssertLessThan(worst, 2e-5)
        XCTAssertEqual(fastAngle(y: 0, x: 0), 0)
        XCTAssertEqual(fastAngle(y: 0, x: -1), .pi, accuracy: 1e-6)
    }

    func testKernelIsNormalisedAndTruncatedAtFourSigma() {
        for sigma: Float in [0.7, 1.226, 3.09] {
            let kernel = GaussianKernel(sigma: sigma)
            XCTAssertEqual(kernel.radius, Int((4 * sigma).rounded(.up)))
            XCTAssertEqual(kernel.taps[0] + 2 * kernel.taps.dropFirst().reduce(0, +), 1, accuracy: 1e-6)
        }
    }

    /// Blurring against a direct 2-D convolution with replicated edges, on an odd-sized plane
    /// (so both the eight-lane loops and their scalar tails run), on one thread and two.
    func testBlurMatchesDirectConvolution() {
        let width = 37, height = 29
        var random = SamplingRandom(seed: 12345)
        let samples = (0 ..< width * height).map { _ in Float(random.next() >> 40) / Float(1 << 24) }
        let source = FloatPlane(width: width, height: height, samples: samples)
        let kernel = GaussianKernel(sigma: 1.7)
        let r = kernel.radius
        for threads in [1, 2] {
            let target = FloatPlane(width: width, height: height)
            GaussianBlur.apply(source, kernel: kernel, into: target, splitter: WorkSplitter(threads: threads))
            var worst: Float = 0
            for y in 0 ..< height {
                for x in 0 ..< width {
                    var sum: Float = 0
                    for j in -r ... r {
                        for i in -r ... r {
                            let sx = min(max(x + i, 0), width - 1), sy = min(max(y + j, 0), height - 1)
                            sum += kernel.taps[abs(i)] * kernel.taps[abs(j)] * samples[sy * width + sx]
                        }
                    }
                    worst = max(worst, abs(sum - target[x, y]))
                }
            }
            XCTAssertLessThan(worst, 1e-5, "\(threads) threads")
        }
    }

    func testScaleSpaceLevelsHaveTheirNominalBlur() {
        // A single bright sample blurred through the scale space: the variance of level i in
        // octave 0 is σᵢ² minus nothing (a delta has no prior blur, so we ask for none).
        let side = 97
        var samples = [Float](repeating: 0, count: side * side)
        samples[48 * side + 48] = 1
        let builder = ScaleSpaceBuilder(scalesPerOctave: 3, assumedBlur: 0.0001, splitter: WorkSplitter(threads: 2))
        let octave = builder.firstOctave(of: FloatPlane(width: side, height: side, samples: samples), index: 0)
        for level in 0 ... 5 {
            let plane = octave.level(level)
            var total: Float = 0, variance: Float = 0
            for y in 0 ..< side {
                for x in 0 ..< side {
                    total += plane[x, y]
                    variance += plane[x, y] * Float((x - 48) * (x - 48))
                }
            }
            let expected = 1.6 * pow(2, Float(level) / 3)
            XCTAssertEqual(total, 1, accuracy: 1e-4)
            XCTAssertEqual((variance / total).squareRoot(), expected, accuracy: 0.02 * expected, "level \(level)")
        }
        // The next octave starts from level S decimated: σ₀ again in its own samples.
        XCTAssertNotNil(builder.octave(after: octave, minimumSide: 16))
        XCTAssertEqual(builder.octave(after: octave, minimumSide: 16)?.width, 49)
        XCTAssertNil(builder.octave(after: octave, minimumSide: 50))
    }

    func testUpsamplingPutsEvenSamplesOnTheSource() {
        let plane = FloatPlane(width: 3, height: 2, samples: [0, 1, 2, 10, 20, 30])
        let up = plane.upsampled(splitter: WorkSplitter(threads: 1))
        XCTAssertEqual(up.width, 6)
        XCTAssertEqual(up.height, 4)
        XCTAssertEqual(up.samples, [0, 0.5, 1, 1.5, 2, 2,
                                    5, 7.75, 10.5, 13.25, 16, 16,
                                    10, 15, 20, 25, 30, 30,
                                    10, 15, 20, 25, 30, 30])
        XCTAssertEqual(up.halved(splitter: WorkSplitter(threads: 1)).samples, plane.samples)
    }
}
