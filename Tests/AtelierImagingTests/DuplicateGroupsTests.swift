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
