import Foundation
import XCTest

/// `atl-query stats` on a stream gives the very numbers it gives on the catalog the stream came
/// from (the stream fills a scratch catalog and the same SQL runs).
final class StatsTests: XCTestCase {
    func testStatsOfAStreamEqualStatsOfTheCatalog() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null && { atl-query garments; atl-query outfits; atl-query wear; } > wardrobe.ndjson")
        for args in ["", "--by garment --since 30d --compare", "--by month", "--by weekday --since 90d", "--by brand --where category=top --sort -wears"] {
            let catalog = try sh.run("atl-query stats \(args)")
            let stream = try sh.run("atl-query - stats \(args) < wardrobe.ndjson")
            XCTAssertEqual(catalog.status, 0, args)
            XCTAssertEqual(stream.status, 0, "\(args): \(stream.err)")
            XCTAssertFalse(catalog.out.isEmpty, args)
            XCTAssertEqual(stream.out, catalog.out, args)
        }
        // The view may also come first, with the file after it.
        XCTAssertEqual(try sh.run("atl-query stats wardrobe.ndjson").out, try sh.run("atl-query stats").out)
        // Wears of garments that are not on the stream are left out, and said so.
        let partial = try sh.run("grep -v '\"name\":\"Black Loafers\"' wardrobe.ndjson | atl-query - stats")
        XCTAssertEqual(partial.status, 0)
        XCTAssertTrue(partial.err.contains("wear records left out"), partial.err)
        XCTAssertEqual(Shell.records(partial).last?["garments"] as? Int, 43)
        // A bad line stops it, naming the line.
        let bad = try sh.run("printf '{\"type\":\"garment\",\"name\":\"A\",\"category\":\"top\"}\\n{oops\\n' | atl-query - stats")
        XCTAssertEqual(bad.status, 65)
        XCTAssertTrue(bad.err.hasPrefix("atl-query: stdin:2:"), bad.err)
        XCTAssertEqual(bad.out, "")
    }
}
