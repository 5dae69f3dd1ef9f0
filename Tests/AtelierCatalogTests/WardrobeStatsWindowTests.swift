import AtelierRecords
import XCTest
@testable import AtelierCatalog

/// `stats --by garment` and `--since`/`--until` windows, against values worked out by hand on a
/// small wear log.
final class WardrobeStatsWindowTests: XCTestCase {
    var dir = ""
    var path: String { dir + "/catalog.sqlite" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-stats-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let a = "g_01jv6k00000000000000000a01", b = "g_01jv6k00000000000000000a02", c = "g_01jv6k00000000000000000a03"
        let o = "o_01jv6k00000000000000000a01"
        // A: worn 11-01 and 11-10, and with B in the outfit on 11-20. B: also 10-15. C: never.
        try Catalog(path: path, create: true).write { writer in
            for record: JSONObject in [
                ["type": "garment", "id": .string(a), "name": "A", "category": "top", "price": ["amount": 100, "currency": "EUR"]],
                ["type": "garment", "id": .string(b), "name": "B", "category": "bottom", "price": ["amount": 50, "currency": "EUR"]],
                ["type": "garment", "id": .string(c), "name": "C", "category": "top"],
                ["type": "outfit", "id": .string(o), "name": "AB", "garments": [.string(a), .string(b)]],
                ["type": "wear", "garment": .string(a), "date": "2026-11-01"],
                ["type": "wear", "garment": .string(a), "date": "2026-11-10"],
                ["type": "wear", "garment": .string(b), "date": "2026-10-15"],
                ["type": "wear", "outfit": .string(o), "date": "2026-11-20"],
            ] { _ = try writer.apply(record) }
            return true
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func stats(_ window: ClosedRange<String>?) throws -> [String: JSONObject] {
        let range = window.map { ISODate.parseDay($0.lowerBound)! ... ISODate.parseDay($0.upperBound)! }
        let records = try Catalog(path: path, create: false).read {
            try WardrobeStats(by: .garment, today: ISODate.parseDay("2026-11-21")!, window: range).compute($0)
        }
        return Dictionary(uniqueKeysWithValues: records.map { ($0["group"]!.string!, $0) })
    }

    func testLifetimeByGarment() throws {
        let all = try stats(nil)
        XCTAssertEqual(all["A"]?["wears"], 3)
        XCTAssertEqual(all["B"]?["wears"], 2)
        XCTAssertEqual(all["C"]?["wears"], 0)
        XCTAssertEqual(all["A"]?["costPerWear"], ["EUR": 33.33])
        XCTAssertEqual(all["B"]?["costPerWear"], ["EUR": 25.0])
        XCTAssertEqual(all["A"]?["versatility"], 1)
        XCTAssertEqual(all["C"]?["versatility"], 0)
        XCTAssertEqual(all["A"]?["daysSinceWorn"], 1, "worn on the 20th, judged on the 21st")
        XCTAssertNil(all["C"]?["daysSinceWorn"])
        XCTAssertNil(all["A"]?["mostWorn"], "a group of one has no most worn")
        XCTAssertEqual(all["A"]?["garment"], "g_01jv6k00000000000000000a01")
        XCTAssertEqual(all["all"]?["wears"], 5)
        XCTAssertEqual(all["all"]?["costPerWear"], ["EUR": 30.0])
    }

    func testAWindowCountsOnlyTheWearsInIt() throws {
        let november = try stats("2026-11-01" ... "2026-11-21")
        XCTAssertEqual(november["A"]?["wears"], 3)
        XCTAssertEqual(november["B"]?["wears"], 1, "the wear of October 15 is outside")
        XCTAssertEqual(november["all"]?["wears"], 4)
        XCTAssertEqual(november["all"]?["costPerWear"], ["EUR": 37.5])
        XCTAssertEqual(november["all"]?["since"], "2026-11-01")
        XCTAssertEqual(november["all"]?["until"], "2026-11-21")

        let october = try stats("2026-10-01" ... "2026-10-31")
        XCTAssertEqual(october["A"]?["wears"], 0)
        XCTAssertNil(october["A"]?["lastWornOn"], "A's wears all came after the window")
        XCTAssertEqual(october["B"]?["wears"], 1)
        XCTAssertEqual(october["B"]?["lastWornOn"], "2026-10-15")
        XCTAssertEqual(october["B"]?["daysSinceWorn"], 16, "judged on the window's last day")
        XCTAssertEqual(october["all"]?["notWorn"]?.object?["count"], 2, "A and C not worn in the 90 days to October 31, B was")
    }
}

extension WardrobeStatsWindowTests {
    func records(_ dimension: WardrobeStats.Dimension, _ window: ClosedRange<String>?, compare: Bool = false) throws -> [JSONObject] {
        let range = window.map { ISODate.parseDay($0.lowerBound)! ... ISODate.parseDay($0.upperBound)! }
        let stats = WardrobeStats(by: dimension, today: ISODate.parseDay("2026-11-21")!, window: range)
        return try Catalog(path: path, create: false).read { compare ? try stats.compared($0) : try stats.compute($0) }
    }

    func testByMonthCountsTheLogAndTheSpending() throws {
        let months = try records(.month, nil)
        XCTAssertEqual(months.map { $0["group"]!.string! }, ["2026-10", "2026-11", "all"])
        XCTAssertEqual(months[0]["wears"], 1)
        XCTAssertEqual(months[1]["wears"], 4, "A three times, B once")
        XCTAssertEqual(months[1]["garments"], 2)
        XCTAssertEqual(months[1]["outfits"], 1)
        XCTAssertEqual(months[2]["wears"], 5)
        XCTAssertEqual(months[2]["bought"], 0, "no purchase dates")
    }

    func testByWeekdayIsMondayFirst() throws {
        let days = try records(.weekday, nil)
        XCTAssertEqual(days.map { $0["group"]!.string! }, ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "all"])
        // 2026-11-01 was a Sunday, 11-10 a Tuesday, 11-20 a Friday, 10-15 a Thursday.
        XCTAssertEqual(days.map { $0["wears"]!.integer! }, [0, 1, 0, 1, 2, 0, 1, 5])
    }

    func testTheTotalSaysHowEvenlyTheWardrobeIsWorn() throws {
        let total = try XCTUnwrap(records(.category, nil).last)
        // Wears 3, 2, 0: Gini = 2(1·0 + 2·2 + 3·3)/(3·5) − 4/3 = 26/15 − 20/15 = 0.4.
        XCTAssertEqual(total["rotation"], ["garments": 3, "gini": 0.4, "wornShare": 0.67])
        // Logged days up to the 21st: 10-15, 11-01, 11-10, 11-20: the current streak is the 20th.
        XCTAssertEqual(total["streak"], ["current": 1, "longest": 1])
    }

    func testCompareSetsEachGroupBesideTheWindowBefore() throws {
        let compared = try records(.garment, "2026-11-01" ... "2026-11-21", compare: true)
        let b = try XCTUnwrap(compared.first { $0["group"] == "B" })
        XCTAssertEqual(b["wears"], 1)
        XCTAssertEqual(b["previous"]?.object?["since"], "2026-10-11")
        XCTAssertEqual(b["previous"]?.object?["until"], "2026-10-31")
        XCTAssertEqual(b["previous"]?.object?["wears"], 1, "the wear of October 15")
        XCTAssertEqual(b["wearsChange"], 0)
        let a = try XCTUnwrap(compared.first { $0["group"] == "A" })
        XCTAssertEqual(a["wearsChange"], 3)
    }
}
