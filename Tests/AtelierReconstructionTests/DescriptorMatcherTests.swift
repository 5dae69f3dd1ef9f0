import AtelierReconstruction
import Foundation
import XCTest

final class DescriptorMatcherTests: XCTestCase {
    /// Random non-negative unit descriptors, like RootSIFT's.
    static func randomFeatures(_ count: Int, seed: UInt64) -> Features {
        var random = SamplingRandom(seed: seed)
        var descriptors: [Float] = []
        for _ in 0 ..< count {
            var d = (0 ..< 128).map { _ in Float(random.unit()) * (random.unit() < 0.3 ? 1 : 0.1) }
            let norm = d.reduce(0) { $0 + $1 * $1 }.squareRoot()
            d = d.map { $0 / norm }
            descriptors += d
        }
        let keypoints = (0 ..< count).map { Keypoint(x: Float($0), y: 0, scale: 1, orientation: 0, response: 1, octave: 0) }
        return Features(imageWidth: 100, imageHeight: 100, workingWidth: 100, workingHeight: 100, keypoints: keypoints, descriptors: descriptors)
    }

    /// `b` made from `a`: each of the first `count` descriptors of `a` with a little noise,
    /// shuffled, then unrelated ones; so true matches are known.
    static func noisyCopy(of a: Features, count: Int, extra: Int, seed: UInt64) -> (Features, [Int: Int]) {
        var random = SamplingRandom(seed: seed)
        var order = Array(0 ..< count)
        for i in stride(from: count - 1, to: 0, by: -1) { order.swapAt(i, random.below(i + 1)) }
        var descriptors: [Float] = [], truth: [Int: Int] = [:]
        for (position, source) in order.enumerated() {
            var d = Array(a.descriptor(source)).map { max(0, $0 + Float(random.unit() - 0.5) * 0.02) }
            let norm = d.reduce(0) { $0 + $1 * $1 }.squareRoot()
            d = d.map { $0 / norm }
            descriptors += d
            truth[source] = position
        }
        descriptors += randomFeatures(extra, seed: seed &+ 99).descriptors
        let n = count + extra
        let keypoints = (0 ..< n).map { Keypoint(x: Float($0), y: 0, scale: 1, orientation: 0, response: 1, octave: 0) }
        return (Features(imageWidth: 100, imageHeight: 100, workingWidth: 100, workingHeight: 100, keypoints: keypoints, descriptors: descriptors), truth)
    }

    /// Without the cross check, the matches are exactly the rows whose brute-force nearest
    /// neighbour passes the angular ratio and distance tests (cases within 1e-4 of the ratio
    /// bound may go either way by rounding).
    func testAgreesWithBruteForce() throws {
        let a = Self.randomFeatures(300, seed: 1)
        let (b, _) = Self.noisyCopy(of: a, count: 150, extra: 203, seed: 2)   // 353 columns: the 8-lane tail is used
        let matcher = try DescriptorMatcher(options: MatchingOptions(maxRatio: 0.8, maxDistance: 0.7, crossCheck: false))
        let got = Set(matcher.match(a, b).map { [Int($0.index1), Int($0.index2)] })
        var expected = Set<[Int]>(), borderline = Set<[Int]>()
        for (i, m) in BruteForce.nearest(a, b).enumerated() {
            let best = acos(Double(1 - m.best / 2)), second = acos(Double(1 - m.second / 2))
            guard best <= 0.7 else { continue }
            if abs(best / second - 0.8) < 1e-4 { borderline.insert([i, m.index]) } else if best < 0.8 * second { expected.insert([i, m.index]) }
        }
        XCTAssertEqual(got.subtracting(borderline), expected)
        XCTAssertGreaterThan(expected.count, 140)
    }

    /// With the cross check every match is mutual, and the noisy copies are all found.
    func testCrossCheckedMatchesAreMutualAndRight() throws {
        let a = Self.randomFeatures(400, seed: 3)
        let (b, truth) = Self.noisyCopy(of: a, count: 250, extra: 300, seed: 4)
        let matches = try DescriptorMatcher().match(a, b)
        let backward = BruteForce.nearest(b, a)
        for m in matches { XCTAssertEqual(backward[Int(m.index2)].index, Int(m.index1)) }
        let right = matches.filter { truth[Int($0.index1)] == Int($0.index2) }.count
        XCTAssertEqual(right, matches.count, "every match is a true one")
        XCTAssertGreaterThanOrEqual(matches.count, 245)
        XCTAssertEqual(matches.map(\.index1), matches.map(\.index1).sorted())
    }

    func testEmptyAndTinyInputs() throws {
        let matcher = try DescriptorMatcher()
        let empty = Self.randomFeatures(0, seed: 5), three = Self.randomFeatures(3, seed: 6)
        XCTAssertEqual(matcher.match(empty, three), [])
        XCTAssertEqual(matcher.match(three, empty), [])
        // Identical sets of three: each matches itself (the tail-only path, fewer than 8 columns).
        XCTAssertEqual(matcher.match(three, three), [FeatureMatch(0, 0), FeatureMatch(1, 1), FeatureMatch(2, 2)])
    }

    func testBadOptionsAreRefused() {
        XCTAssertThrowsError(try DescriptorMatcher(options: MatchingOptions(maxRatio: 0)))
        XCTAssertThrowsError(try DescriptorMatcher(options: MatchingOptions(maxDistance: 4)))
    }

    /// Pairs matched on one thread or two give the same lists, in pair order.
    func testPairMatcherIsThreadCountIndependent() throws {
        let features = (0 ..< 4).map { Self.randomFeatures(120, seed: UInt64(10 + $0)) }
            + [Self.noisyCopy(of: Self.randomFeatures(120, seed: 10), count: 100, extra: 20, seed: 20).0]
        let pairs = ImagePairs.exhaustive.pairs(count: features.count)
        let one = try PairMatcher(options: MatchingOptions(threads: 1)).match(features, pairs: pairs)
        let two = try PairMatcher(options: MatchingOptions(threads: 2)).match(features, pairs: pairs)
        XCTAssertEqual(one, two)
        XCTAssertGreaterThan(one[pairs.firstIndex { $0 == (0, 4) }!].count, 95)
    }

    func testImagePairs() {
        XCTAssertEqual(ImagePairs.exhaustive.pairs(count: 24).count, 276)
        XCTAssertTrue(ImagePairs.exhaustive.pairs(count: 1).isEmpty)
        let ring = ImagePairs.sequential(overlap: 2, closedLoop: true).pairs(count: 12)
        let set = Set(ring.map { [$0.0, $0.1] })
        XCTAssertEqual(set.count, ring.count, "no repeats")
        for pair in [[0, 1], [0, 2], [0, 4], [0, 8], [0, 11], [0, 10], [10, 11], [3, 11]] { XCTAssertTrue(set.contains(pair), "\(pair)") }
        XCTAssertFalse(set.contains([0, 3]))
        let open = Set(ImagePairs.sequential(overlap: 2, closedLoop: false).pairs(count: 12).map { [$0.0, $0.1] })
        XCTAssertFalse(open.contains([0, 11]))
        XCTAssertTrue(open.contains([3, 11]))   // offset 8
    }
}
