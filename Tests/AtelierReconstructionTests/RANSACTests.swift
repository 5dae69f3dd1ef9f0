import AtelierReconstruction
import XCTest

/// A line `y = a x + b` through 2-D points: the smallest problem that exercises sampling, MSAC
/// scoring, local optimisation and the adaptive stop.
private struct LineProblem: RANSACProblem {
    var points: [SIMD2<Double>]
    var dataCount: Int { points.count }
    var minimalSampleSize: Int { 2 }

    func minimalModels(sample: [Int]) -> [SIMD2<Double>] {
        let p = points[sample[0]], q = points[sample[1]]
        guard abs(q.x - p.x) > 1e-12 else { return [] }
        let a = (q.y - p.y) / (q.x - p.x)
        return [SIMD2(a, p.y - a * p.x)]
    }

    func squaredResidual(_ model: SIMD2<Double>, index: Int) -> Double {
        let p = points[index], r = p.y - (model.x * p.x + model.y)
        return r * r
    }

    /// Ordinary least squares on the inliers.
    func refinedModel(_ model: SIMD2<Double>, inliers: [Int]) -> SIMD2<Double>? {
        var sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0
        for i in inliers {
            let p = points[i]
            sx += p.x; sy += p.y; sxx += p.x * p.x; sxy += p.x * p.y
        }
        let n = Double(inliers.count), det = n * sxx - sx * sx
        guard abs(det) > 1e-12 else { return nil }
        let a = (n * sxy - sx * sy) / det
        return SIMD2(a, (sy - a * sx) / n)
    }
}

final class RANSACTests: XCTestCase {
    /// 60 points on y = 0.5x + 2 with ±0.05 noise, 40 uniform outliers: the line and exactly the
    /// true inliers come back, and the fit is better than any two-point model could be.
    func testLineThroughOutliers() throws {
        var random = SamplingRandom(seed: 42)
        var points: [SIMD2<Double>] = [], truth = Set<Int>()
        for i in 0 ..< 100 {
            let x = random.unit() * 20 - 10
            if i % 5 < 3 {
                truth.insert(i)
                points.append(SIMD2(x, 0.5 * x + 2 + (random.unit() - 0.5) * 0.1))
            } else {
                points.append(SIMD2(x, 0.5 * x + 2 + (random.unit() < 0.5 ? -1 : 1) * (1 + random.unit() * 8)))
            }
        }
        let result = try XCTUnwrap(RANSAC.estimate(LineProblem(points: points), options: RANSACOptions(maxResidual: 0.2)))
        XCTAssertEqual(Set(result.inliers), truth)
        XCTAssertEqual(result.model.x, 0.5, accuracy: 0.005)
        XCTAssertEqual(result.model.y, 2, accuracy: 0.02)
        XCTAssertLessThan(result.iterations, 1000, "the adaptive stop should end far before the cap at a 60% inlier ratio")
    }

    func testTooFewDataGiveNothing() {
        XCTAssertNil(RANSAC.estimate(LineProblem(points: [[0, 0]]), options: RANSACOptions(maxResidual: 1)))
    }

    func testRequiredIterations() {
        // 50% inliers, samples of 5: log(1e-4) / log(1 − 1/32) = 290.1.
        XCTAssertEqual(RANSAC.requiredIterations(inlierRatio: 0.5, sampleSize: 5, confidence: 0.9999), 291)
        XCTAssertEqual(RANSAC.requiredIterations(inlierRatio: 1, sampleSize: 5, confidence: 0.9999), 1)
        XCTAssertEqual(RANSAC.requiredIterations(inlierRatio: 0, sampleSize: 5, confidence: 0.9999), Int.max)
    }
}
