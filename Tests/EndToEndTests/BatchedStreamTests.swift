import Foundation
import XCTest

/// The views that build every record of a stream before they start (`duplicates`, `laundry`)
/// parse it a batch of 4 MB at a time on every core: what they find, and the error a bad line
/// gets, must be what a parse line by line gives, wherever the line falls in a batch.
final class BatchedStreamTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws {
        sh = try Shell()
        // 6,000 image records of about 900 bytes (two batches), in pairs one bit apart; each
        // with windows far from every pHash, so only the pairs group.
        let made = try sh.run(#"""
            python3 -c "
            import json, random
            rng = random.Random(7)
            with open('images.ndjson', 'w') as f:
                for i in range(3000):
                    h = rng.getrandbits(64)
                    for k, x in enumerate((h, h ^ (1 << (i % 64)))):
                        windows = ''.join('%016x' % rng.getrandbits(64) for _ in range(48))
                        f.write(json.dumps({'type': 'image', 'id': 'p%05d-%d' % (i, k), 'phash': '%016x' % x, 'phashWindows': windows}) + '\n')
            "
            """#)
        XCTAssertEqual(made.status, 0, made.err)
    }

    override func tearDown() { sh.remove() }

    func testEveryRecordOfBothBatchesIsGrouped() throws {
        XCTAssertGreaterThan(try FileManager.default.attributesOfItem(atPath: sh.dir + "/images.ndjson")[.size] as! Int, 4 << 20, "two batches")
        let grouped = try sh.run("atl-query - duplicates --hash-only images.ndjson | jq -c '[.images[].id]'")
        XCTAssertEqual(grouped.status, 0, grouped.err)
        // Every pair, and no "other" group: nothing was left out.
        XCTAssertEqual(grouped.lines.count, 3000)
        XCTAssertEqual(Set(grouped.lines).count, 3000)
        XCTAssertTrue(grouped.lines.allSatisfy { $0.wholeMatch(of: /\["p(\d{5})-0","p\1-1"\]/) != nil }, grouped.out)
    }

    func testABadLineIsToldByItsNumberInEitherBatch() throws {
        for line in [1, 3, 4_700, 5_999] {
            let broken = try sh.run("awk 'NR == \(line) { print substr($0, 1, 40); next } { print }' images.ndjson > broken.ndjson && atl-query - duplicates broken.ndjson")
            XCTAssertEqual(broken.status, 65, broken.err)
            XCTAssertEqual(broken.out, "")
            XCTAssertTrue(broken.err.hasPrefix("atl-query: broken.ndjson:\(line):") && broken.err.hasSuffix(": unterminated string\n"), "line \(line): \(broken.err)")
            XCTAssertEqual(broken.err.split(separator: "\n").count, 1, broken.err)
        }
        // Two bad lines: the first is told, as a parse line by line tells it.
        let two = try sh.run("awk 'NR == 10 || NR == 5000 { print \"{\"; next } { print }' images.ndjson | atl-query - duplicates")
        XCTAssertEqual(two.status, 65, two.err)
        XCTAssertTrue(two.err.hasPrefix("atl-query: stdin:10:"), two.err)
    }

    func testTheLaundryPlanReadsAStreamTheSameWay() throws {
        try FileManager.default.copyItem(atPath: Shell.root + "/Tests/EndToEndTests/Support/laundry-wardrobe.ndjson", toPath: sh.dir + "/wardrobe.ndjson")
        let planned = try sh.run("atl-query - laundry-plan --date 2025-06-01 wardrobe.ndjson | jq -c .type | sort -u")
        XCTAssertEqual(planned.status, 0, planned.err)
        XCTAssertTrue(planned.lines.contains(#""laundry""#), planned.out)
        let bad = try sh.run("(head -2 wardrobe.ndjson; echo '{\"type\":'; tail -n +3 wardrobe.ndjson) | atl-query - laundry-plan --date 2025-06-01")
        XCTAssertEqual(bad.status, 65, bad.err)
        XCTAssertTrue(bad.err.hasPrefix("atl-query: stdin:3:"), bad.err)
        XCTAssertEqual(bad.out, "")
    }
}
