import AtelierRecords
import XCTest
@testable import AtelierImaging

/// Complete-linkage grouping of perceptual hashes, against a brute-force reference of the same
/// definition (all pairs, closest first, merge only when every cross pair is within the
/// threshold).
final class DuplicateGroupsTests: XCTestCase {
    /// The definition, written the slow and obvious way.
    static func reference(_ hashes: [UInt64], threshold: Int) -> [[Int]] {
        var pairs: [(Int, Int, Int)] = []
        for a in hashes.indices {
            for b in a + 1 ..< hashes.count {
                let d = (hashes[a] ^ hashes[b]).nonzeroBitCount
                if d <= threshold { pairs.append((d, a, b)) }
            }
        }
        var clusters = hashes.indices.map { Set([$0]) }
        func clusterIndex(_ i: Int) -> Int { clusters.firstIndex { $0.contains(i) }! }
        for (_, a, b) in pairs.sorted(by: { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }) {
            let (ca, cb) = (clusterIndex(a), clusterIndex(b))
            if ca == cb { continue }
            let ok = clusters[ca].allSatisfy { x in clusters[cb].allSatisfy { y in (hashes[x] ^ hashes[y]).nonzeroBitCount <= threshold } }
            if ok {
                clusters[ca].formUnion(clusters[cb])
                clusters.remove(at: cb)
            }
        }
        return clusters.filter { $0.count > 1 }.map { $0.sorted() }.sorted { ($0.count, -$0[0]) > ($1.count, -$1[0]) }
    }

    func testAChainOfLookAlikesIsNotOneGroup() {
        // a–b 3 bits, b–c 3 bits, a–c 6 bits: with a threshold of 4, b joins a, and c stays out.
        let a: UInt64 = 0, b: UInt64 = 0b111, c: UInt64 = 0b111_111
        let (groups, others) = DuplicateGroups.find([a, b, c], threshold: 4)
        XCTAssertEqual(groups.map(\.members), [[0, 1]])
        XCTAssertEqual(groups.map(\.distances), [[0, 3]])
        XCTAssertEqual(others, [2])
        // The closer pair wins: b–c at 2 bits joins before a–b at 3.
        let (closer, rest) = DuplicateGroups.find([a, b, 0b11_111], threshold: 4)
        XCTAssertEqual(closer.map(\.members), [[1, 2]])
        XCTAssertEqual(rest, [0])
    }

    func testCopiesOfOnePhotoAreOneGroupLedByTheFirst() {
        let hashes = [UInt64](repeating: 0xDEAD_BEEF_0123_4567, count: 1000) + [0xDEAD_BEEF_0123_4566, 42]
        let (groups, others) = DuplicateGroups.find(hashes, threshold: 8)
        XCTAssertEqual(groups.count, 1)
        XCTAssertEqual(groups[0].members, Array(0 ... 1000))
        XCTAssertEqual(groups[0].distances.last, 1)
        XCTAssertEqual(others, [1001])
    }

    /// Both searches (the chunk index, and every pair for wide thresholds), on every core, give
    /// exactly the pairs within the threshold, each once, in order.
    func testThePairSearchFindsEveryPairWithinOnceInOrder() {
        var seeded = SplitMix64(seed: 0x5EA_2C4)
        let centres = (0 ..< 20).map { _ in seeded.next() }
        let hashes: [UInt64] = (0 ..< 700).map { _ in
            var h = centres[Int(seeded.next() % 20)]
            for _ in 0 ..< Int(seeded.next() % 8) { h ^= 1 << (seeded.next() % 64) }
            return h
        }
        // Every radius split of the index (some chunks unprobed below 3) and the plain search.
        for threshold in [0, 1, 2, 3, 5, 8, 11, 15, 18] {
            var found: [[Int]] = []
            DuplicateGroups.forEachPair(hashes, threshold: threshold) { found.append([$0, $1]) }
            var want: [[Int]] = []
            for a in hashes.indices {
                for b in a + 1 ..< hashes.count where (hashes[a] ^ hashes[b]).nonzeroBitCount <= threshold { want.append([a, b]) }
            }
            XCTAssertEqual(found, want, "threshold \(threshold)")
            XCTAssertGreaterThan(want.count, threshold < 3 ? 20 : 100, "threshold \(threshold)")
        }
    }

    func testMatchesTheReferenceOnClusteredHashes() {
        var seeded = SplitMix64(seed: 0xD0B_1E5)
        for round in 0 ..< 40 {
            // Clusters whose members are up to 5 bits from a centre, so up to 10 apart: some
            // clusters must split, some pairs of clusters sit close.
            var hashes: [UInt64] = []
            let centres = (0 ..< 8).map { _ in seeded.next() }
            for _ in 0 ..< (round % 2 == 0 ? 30 : 120) {
                var h = centres[Int(seeded.next() % 8)]
                for _ in 0 ..< Int(seeded.next() % 6) { h ^= 1 << (seeded.next() % 64) }
                hashes.append(h)
            }
            // Threshold 8 goes through the multi-index table (with 64 hashes or more); 20 does not.
            for threshold in [8, 20] {
                let (groups, others) = DuplicateGroups.find(hashes, threshold: threshold)
                let want = Self.reference(hashes, threshold: threshold)
                XCTAssertEqual(groups.map(\.members), want, "round \(round), threshold \(threshold)")
                for group in groups {
                    for x in group.members {
                        for y in group.members { XCTAssertLessThanOrEqual((hashes[x] ^ hashes[y]).nonzeroBitCount, threshold) }
                    }
                }
                XCTAssertEqual(Set(others).union(groups.flatMap(\.members)).count, hashes.count, "every photo is somewhere, once")
            }
        }
    }
}

/// Grouping with a second opinion (`DuplicateGrouping.Judge`): its verdicts overrule the hash
/// both ways, "cannot tell" falls back to the hash, and cross pairs are asked when groups meet.
final class JudgedDuplicateGroupingTests: XCTestCase {
    /// Says "same" for the pairs listed, "different" for the rest, and "cannot tell" for
    /// anything with photo 5; records every question.
    final class ListJudge: DuplicateGrouping.Judge {
        let same: Set<[Int]>
        var asked: [[Int]] = []
        init(same: Set<[Int]>) { self.same = same }
        func judge(_ photos: [JSONObject], _ candidates: [DuplicateGrouping.Candidate]) -> [Bool?] {
            candidates.map { judge($0.first, $0.second) }
        }
        func judge(_ first: Int, _ second: Int) -> Bool? {
            asked.append([first, second])
            return first == 5 || second == 5 ? nil : same.contains([min(first, second), max(first, second)])
        }
    }

    private func images(_ hashes: [UInt64]) -> [JSONObject] {
        hashes.enumerated().map { ["type": "image", "id": .string("p\($0.offset)"), "phash": .string(String(format: "%016llx", $0.element))] }
    }

    private func ids(_ grouping: DuplicateGrouping) -> [[String]] {
        grouping.records.map { record in record["images"]!.array!.map { $0.object!["id"]!.string! } }
    }

    func testTheJudgeOverrulesTheHashBothWaysAndCannotTellFallsBack() {
        // p0–p1: 12 bits apart, judged the same (a crop). p2–p3: equal hashes, judged different
        // (look-alikes); p0–p4, 8 bits, too. p4–p5: 4 bits, the judge cannot tell: the hash
        // groups them; p0–p5, 12 bits, cannot tell either: the hash keeps them apart.
        let hashes: [UInt64] = [0, 0xFFF, 0xFFFF_0000_0000, 0xFFFF_0000_0000, 0x00FF_0000_0000_0000, 0x00FF_0000_0000_000F]
        let judge = ListJudge(same: [[0, 1]])
        let grouping = DuplicateGrouping(images: images(hashes), threshold: 8, confirmWithin: 18, judge: judge)
        XCTAssertEqual(ids(grouping), [["p0", "p1"], ["p4", "p5"], ["p2", "p3"]])
        XCTAssertEqual(grouping.records.last?["id"], "other")
        // Without the judge, the hash alone: p2 and p3 group, p0 and p1 do not.
        XCTAssertEqual(ids(DuplicateGrouping(images: images(hashes), threshold: 8)), [["p2", "p3"], ["p4", "p5"], ["p0", "p1"]])
    }

    func testACrossPairBeyondReachIsAskedWhenGroupsMeet() {
        // p0–p1 and p1–p2 within reach (16 bits), p0–p2 32 bits apart: p2 joins only because
        // the judge, asked about the cross pair, says p0 and p2 are the same picture.
        let hashes: [UInt64] = [0, 0xFFFF, 0xFFFF_FFFF]
        let together = ListJudge(same: [[0, 1], [1, 2], [0, 2]])
        XCTAssertEqual(ids(DuplicateGrouping(images: images(hashes), threshold: 8, confirmWithin: 18, judge: together)).first, ["p0", "p1", "p2"])
        XCTAssertTrue(together.asked.contains([0, 2]) || together.asked.contains([2, 0]), "\(together.asked)")
        let apart = ListJudge(same: [[0, 1], [1, 2]])
        XCTAssertEqual(ids(DuplicateGrouping(images: images(hashes), threshold: 8, confirmWithin: 18, judge: apart)).first, ["p0", "p1"])
    }
}

/// Window pHashes (`PerceptualHash.windowPHashes`) and the search for a photo's pHash among the
/// windows of others.
final class WindowHashTests: XCTestCase {
    /// A deterministic textured grey picture (blobs of many sizes), as a photo of a print.
    static func texture(width: Int, height: Int, seed: UInt64) -> Image {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var pixels = [UInt8](repeating: 120, count: width * height)
        for _ in 0 ..< 300 {
            let cx = next() * Double(width), cy = next() * Double(height), r = 3 + next() * 40, v = UInt8(next() * 255)
            for y in max(0, Int(cy - r)) ..< min(height, Int(cy + r) + 1) {
                for x in max(0, Int(cx - r)) ..< min(width, Int(cx + r) + 1) where (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy) <= r * r {
                    pixels[y * width + x] = v
                }
            }
        }
        return Image(width: width, height: height, channels: 1, pixels: pixels)
    }

    func testACropLandsNearTheWindowItShowsAndFarFromTheWhole() {
        let photo = Self.texture(width: 640, height: 480, seed: 7)
        let windows = PerceptualHash.windowPHashes(photo)
        XCTAssertEqual(windows.count, 48)
        XCTAssertEqual(PerceptualHash.windows.count, 48)
        XCTAssertFalse(PerceptualHash.windows.contains(PerceptualHash.Window(width: 1, height: 1, alongX: 0.5, alongY: 0.5)))
        // 10 % off the left side (the window 90 % wide at the end of the row), and the central
        // 80 % of both sides.
        let cases: [(crop: Image, window: PerceptualHash.Window)] = [
            (photo.cropped(x: 64, y: 0, width: 576, height: 480), .init(width: 0.9, height: 1, alongX: 1, alongY: 0.5)),
            (photo.cropped(x: 64, y: 48, width: 512, height: 384), .init(width: 0.8, height: 0.8, alongX: 0.5, alongY: 0.5)),
        ]
        let whole = PerceptualHash.pHash(photo)
        for (crop, window) in cases {
            let hash = PerceptualHash.pHash(crop)
            let k = PerceptualHash.windows.firstIndex(of: window)!
            XCTAssertLessThanOrEqual(PerceptualHash.distance(hash, windows[k]), 6, "\(window)")
            XCTAssertEqual(windows.map { PerceptualHash.distance(hash, $0) }.min(), PerceptualHash.distance(hash, windows[k]))
            XCTAssertGreaterThan(PerceptualHash.distance(hash, whole), 10, "\(window)")
        }
        // Too small to cut windows of: none, rather than noise.
        XCTAssertEqual(PerceptualHash.windowPHashes(Self.texture(width: 15, height: 40, seed: 1)), [])
    }

    func testTheListRoundTripsAndRefusesWhatIsNotHex() {
        let hashes: [UInt64] = [0, .max, 0x0123_4567_89ab_cdef]
        let text = PerceptualHash.hexList(hashes)
        XCTAssertEqual(text, "0000000000000000ffffffffffffffff0123456789abcdef")
        XCTAssertEqual(PerceptualHash.parseList(text), hashes)
        XCTAssertEqual(PerceptualHash.parseList(text.uppercased()), hashes)
        XCTAssertEqual(PerceptualHash.parseList(""), [])
        XCTAssertNil(PerceptualHash.parseList("0123"))
        XCTAssertNil(PerceptualHash.parseList("0123456789abcdeg"))
        // Every byte that is no hex digit is refused, wherever in the list it stands.
        for byte in UInt8(0) ... 255 where !"0123456789abcdefABCDEF".utf8.contains(byte) {
            for position in [0, 15, 16, 40] {
                var bytes = Array(text.utf8)
                bytes[position] = byte
                XCTAssertNil(PerceptualHash.parseList(String(decoding: bytes, as: UTF8.self)), "byte \(byte) at \(position)")
            }
        }
        // Every digit in every place, against Swift's own reading.
        var state: UInt64 = 7
        let many = (0 ..< 500).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
        XCTAssertEqual(PerceptualHash.parseList(PerceptualHash.hexList(many)), many)
    }

    /// The indexed search against the obvious one, on enough windows to use the index.
    func testTheIndexFindsWhatAllPairsFind() {
        var state: UInt64 = 42
        func random() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state ^ (state >> 29)
        }
        let count = 400
        var hashes = (0 ..< count).map { _ in random() }
        let windows = (0 ..< count).map { i in (0 ..< 48).map { _ in i % 7 == 0 ? UInt64(0) : random() } }.enumerated().map { i, list in i % 7 == 0 ? [] : list }
        // Plant crops: photo i + 1's pHash is a window of photo i, with 0 to 10 bits flipped.
        for i in stride(from: 1, to: count - 1, by: 3) where !windows[i].isEmpty {
            var h = windows[i][(i * 5) % 48]
            for b in 0 ..< (i % 11) { h ^= 1 << UInt64((b * 7 + i) % 64) }
            hashes[i + 1] = h
        }
        // 0 to 10 go through the chunk join (below 3 some chunks are not probed); 20 through
        // the plain search.
        for threshold in [0, 3, 6, 10, 20] {
            var indexed: [[Int]] = []
            DuplicateGroups.forEachWindowPair(hashes, windows: windows, threshold: threshold) { indexed.append([$0, $1]) }
            var brute = Set<[Int]>()
            for a in 0 ..< count {
                for b in 0 ..< count where a != b && windows[b].contains(where: { ($0 ^ hashes[a]).nonzeroBitCount <= threshold }) {
                    brute.insert([min(a, b), max(a, b)])
                }
            }
            XCTAssertEqual(indexed.count, Set(indexed).count, "each pair once")
            XCTAssertEqual(Set(indexed), brute)
            XCTAssertEqual(indexed, indexed.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }, "in order of the first photo, then the second")
            XCTAssertGreaterThan(brute.count, [0: 5, 3: 20, 6: 50][threshold] ?? 80, "threshold \(threshold)")
        }
    }

    /// A hundred copies of one photo, each with its windows on the others' pHash: one bucket of
    /// the join finds ten thousand pairs, more than its first room for them.
    func testTheJoinFindsEveryPairOfACrowdOfCopies() {
        let count = 100, shared: UInt64 = 0x0123_4567_89AB_CDEF
        let hashes = (0 ..< count).map { i in shared ^ UInt64(i % 4) << 60 }  // within 2 bits of each other
        let windows = (0 ..< count).map { i in (0 ..< 48).map { w in shared ^ 1 << UInt64((i + w) % 12) } }
        var found: [[Int]] = []
        DuplicateGroups.forEachWindowPair(hashes, windows: windows, threshold: 4) { found.append([$0, $1]) }
        XCTAssertEqual(found.count, count * (count - 1) / 2)
        XCTAssertEqual(found, found.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) })
        XCTAssertEqual(Set(found).count, found.count)
    }
}
