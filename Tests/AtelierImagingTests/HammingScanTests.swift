@testable import AtelierImaging
import AtelierRecords
import CHamming
import XCTest

/// The Hamming-distance scan under near-duplicate search (CHamming): both implementations
/// against a plain count, at every length around the vector blocks and every kind of threshold.
final class HammingScanTests: XCTestCase {
    func testBothScansFindExactlyTheKeysWithinInOrder() {
        var seeded = SplitMix64(seed: 0x4A3_1F6)
        let hash = seeded.next()
        // Keys at every distance from the hash, so each threshold has hits and misses.
        let keys: [UInt64] = (0 ..< 300).map { k in
            var key = hash
            for _ in 0 ..< (k * 7) % 65 { key ^= 1 << (seeded.next() % 64) }
            return key
        }
        var hits = [UInt32](repeating: 0, count: keys.count)
        for threshold in [0, 1, 5, 10, 18, 32, 63, 64] {
            for count in Array(0 ... 40) + [63, 64, 65, 127, 128, 129, 300] {
                for start in [0, 1, 3] where start + count <= keys.count {
                    let want = (0 ..< count).filter { (keys[start + $0] ^ hash).nonzeroBitCount <= threshold }.map(UInt32.init)
                    keys.withUnsafeBufferPointer { all in
                        let found = DuplicateGroups.scan(hash, all.baseAddress! + start, count, threshold, &hits)
                        XCTAssertEqual(Array(hits.prefix(found)), want, "\(String(cString: atl_hamming_kind())), threshold \(threshold), \(count) keys from \(start)")
                        let portable = atl_hamming_within_portable(hash, all.baseAddress! + start, count, UInt32(threshold), &hits)
                        XCTAssertEqual(Array(hits.prefix(portable)), want, "portable, threshold \(threshold), \(count) keys from \(start)")
                    }
                }
            }
        }
    }

    func testTheBitSlicedTableFindsWhatTheScanFinds() {
        var seeded = SplitMix64(seed: 0x7AB_1E5)
        // 700 hashes (two whole blocks of 256 and a partial one), each near the one before.
        var keys: [UInt64] = [seeded.next()]
        for k in 1 ..< 700 {
            var key = k % 3 == 0 ? seeded.next() : keys[k - 1]
            for _ in 0 ..< (k * 5) % 23 { key ^= 1 << (seeded.next() % 64) }
            keys.append(key)
        }
        // Hashes of every bit count, 0 to 64, among them.
        for k in 0 ... 64 { keys[3 * k + 1] = k == 64 ? .max : (1 << UInt64(k)) - 1 }
        let table = DuplicateGroups.ScanTable(keys)
        var hits = [UInt32](repeating: 0, count: keys.count), want = hits
        var total = 0
        // Queries of few bits and of many (the table sums the planes of the fewer kind).
        let extremes: [UInt64] = [0, .max, 0xFFFF_FFFF, 0x1_FFFF_FFFF, 0x7FFF_FFFF, 0x5555_5555_5555_5555]
        for threshold in [0, 1, 3, 12, 18, 31, 32, 33, 63, 64] {
            for from in [0, 1, 200, 255, 256, 257, 511, 512, 600, 699, 700] {
                for query in [keys[max(0, from - 1)], keys[from % keys.count], ~keys[0]] + extremes {
                    let found = table.scan(query, from: from, threshold, &hits)
                    let expected = keys.withUnsafeBufferPointer { all in
                        atl_hamming_within_portable(query, all.baseAddress! + from, all.count - from, UInt32(threshold), &want)
                    }
                    XCTAssertEqual(Array(hits.prefix(found)), Array(want.prefix(expected)), "threshold \(threshold), from \(from)")
                    total += expected
                }
            }
        }
        XCTAssertGreaterThan(total, 1000)
        // Several queries in one pass, each from its own place (some past the end, some far
        // apart, more than one pass holds), find what each finds alone.
        let outs = (0 ..< 12).map { _ in UnsafeMutablePointer<UInt32>.allocate(capacity: keys.count) }
        defer { outs.forEach { $0.deallocate() } }
        for threshold in [0, 12, 18, 33, 64] {
            for froms in [[0], Array(300 ..< 308), [1, 2, 255, 256, 257, 600, 699, 700, 701, 5, 6, 7], [700, 699], Array(510 ..< 518)] {
                let queries = froms.map { keys[$0 % keys.count] ^ UInt64($0) }
                let counts = table.scan(queries, from: froms, threshold, outs)
                for (q, from) in froms.enumerated() {
                    let alone = table.scan(queries[q], from: from, threshold, &hits)
                    XCTAssertEqual(Array(UnsafeBufferPointer(start: outs[q], count: counts[q])), Array(hits.prefix(alone)),
                                   "threshold \(threshold), query \(q) from \(from) of \(froms)")
                }
            }
        }
        XCTAssertEqual(DuplicateGroups.ScanTable([]).scan(0, from: 0, 64, &hits), 0)
        XCTAssertEqual(DuplicateGroups.ScanTable([5]).scan(4, from: 0, 1, &hits), 1)
    }

    func testTheProbesOfEveryThresholdReachEveryPairWithin() {
        for threshold in 0 ... 15 {
            let probes = DuplicateGroups.probeMasks(threshold: threshold)
            let radii = probes.map { $0.map(\.nonzeroBitCount).max() ?? -1 }
            // Σ(r + 1) > threshold is what makes some chunk lie within its radius.
            XCTAssertEqual(radii.reduce(0) { $0 + $1 + 1 }, threshold + 1, "threshold \(threshold): radii \(radii)")
            XCTAssertLessThanOrEqual(radii.max()! - radii.min()!, 1, "threshold \(threshold): radii \(radii) as even as can be")
            for (chunk, masks) in probes.enumerated() {
                XCTAssertEqual(masks.count, radii[chunk] < 0 ? 0 : (0 ... radii[chunk]).reduce(0) { $0 + binomial(16, $1) })
            }
        }
        XCTAssertEqual(DuplicateGroups.probeMasks(threshold: 8).map(\.count), [137, 17, 17, 17])
        XCTAssertEqual(DuplicateGroups.probeMasks(threshold: 10).map(\.count), [137, 137, 137, 17])
    }

    private func binomial(_ n: Int, _ k: Int) -> Int {
        (0 ..< k).reduce(1) { $0 * (n - $1) / ($1 + 1) }
    }
}
