import Foundation
import XCTest

/// `atl-query` writes catalog listings straight from SQLite when SQL answers the whole query,
/// and through records otherwise: both must print the same bytes, and what they print must
/// read back as what was imported.
final class QueryOutputTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws { sh = try Shell() }
    override func tearDown() { sh.remove() }

    /// 400 garments (more than one 64 KB chunk of output) with awkward text and numbers.
    func garments() -> [[String: Any]] {
        let awkward = ["quote \" and backslash \\", "line\nbreak\tand\rcontrol \u{1}", "Sézane, 中文, 😀, \u{2028}", "Levi's 501", "plain"]
        let amounts: [Any] = [0.1, 1e21, 120, 19.99, 250.5, 12]
        return (0..<400).map { n in
            var garment: [String: Any] = [
                "type": "garment", "name": "\(awkward[n % awkward.count]) #\(n)", "category": ["top", "outerwear", "bottom"][n % 3],
                "brand": ["Levi's", "Sézane", "Uniqlo", "Lee"][n % 4], "seasons": n % 2 == 0 ? ["winter", "autumn"] : ["summer"],
                "composition": [["fabric": "cotton", "percent": 80], ["fabric": "polyester", "percent": 20]],
                "wearCount": n % 17, "lastWornOn": String(format: "2026-%02d-%02d", 1 + n % 12, 1 + n % 28),
            ]
            if n % 5 != 0 { garment["price"] = ["amount": amounts[n % amounts.count], "currency": n % 2 == 0 ? "EUR" : "GBP"] }
            if n % 3 == 0 { garment["tags"] = [awkward[n % awkward.count], "tag"] }
            if n % 7 == 0 { garment["notes"] = awkward[(n + 1) % awkward.count] }
            if n % 11 == 0 { garment["shade"] = "an unknown field" }
            return garment
        }
    }

    func testFastAndRecordListingsPrintTheSameBytesAndReadBackAsImported() throws {
        let input = try garments().map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let imported = try sh.run("atl-import > /dev/null", stdin: Data(input.utf8))
        XCTAssertEqual(imported.status, 0, imported.err)

        // Straight from SQLite, and by way of records (a condition on a list of objects is
        // evaluated in memory; it holds for every garment here).
        for conditions in ["", "--where category=outerwear", "--where 'season has winter' --where 'lastWornOn<2026-06-01'",
                           "--where 'brand~^(Levi|Sé)' --sort -wearCount --limit 50"] {
            let fast = try sh.run("atl-query garments \(conditions)")
            let slow = try sh.run("atl-query garments \(conditions) --where 'composition.fabric!=silk'")
            XCTAssertEqual(fast.status, 0, fast.err)
            XCTAssertGreaterThan(fast.lines.count, 10, conditions)
            XCTAssertEqual(fast.out, slow.out, conditions)
        }

        // What was imported comes back: text, numbers, nested and list fields, unknown fields.
        let listed = Shell.records(try sh.run("atl-query garments"))
        let expected = garments()
        XCTAssertEqual(listed.count, expected.count)
        for (got, want) in zip(listed, expected) {
            XCTAssertEqual(got["name"] as? String, want["name"] as? String)
            XCTAssertEqual(got["tags"] as? [String], want["tags"] as? [String])
            XCTAssertEqual(got["notes"] as? String, want["notes"] as? String)
            XCTAssertEqual(got["seasons"] as? [String], want["seasons"] as? [String])
            XCTAssertEqual(got["shade"] as? String, want["shade"] as? String)
            XCTAssertEqual((got["composition"] as? [[String: Any]])?.count, 2)
            let price = got["price"] as? [String: Any], wanted = want["price"] as? [String: Any]
            XCTAssertEqual(number(price?["amount"]), number(wanted?["amount"]), "\(got["name"] ?? "")")
            XCTAssertEqual(price?["currency"] as? String, wanted?["currency"] as? String)
            XCTAssertNil(got["readyToWash"], "computed fields only when asked for")
        }
        // Numbers keep the writer's spelling: 1e+21 and 0.1 as doubles, 120 as an integer.
        let prices = try sh.run(#"atl-query garments --limit 7 | grep -o '"price":{[^}]*}'"#)
        XCTAssertEqual(prices.lines, [#""price":{"amount":1e+21,"currency":"GBP"}"#, #""price":{"amount":120,"currency":"EUR"}"#,
                                      #""price":{"amount":19.99,"currency":"GBP"}"#, #""price":{"amount":250.5,"currency":"EUR"}"#,
                                      #""price":{"amount":0.1,"currency":"EUR"}"#], prices.err)
    }

    /// A JSON number as a Double, whichever way it was made.
    func number(_ value: Any?) -> Double? {
        switch value {
        case let n as Int: return Double(n)
        case let n as Double: return n
        case let n as NSNumber: return n.doubleValue
        default: return nil
        }
    }

    func testListingsFlowThroughPipelines() throws {
        let input = try garments().map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        XCTAssertEqual(try sh.run("atl-import > /dev/null", stdin: Data(input.utf8)).status, 0)
        // A stream filter passes the catalog's lines through untouched.
        let direct = try sh.run("atl-query garments --where category=outerwear --where 'price.amount>100'")
        let piped = try sh.run("atl-query garments | atl-query - --where category=outerwear --where 'price.amount>100'")
        XCTAssertEqual(piped.status, 0, piped.err)
        XCTAssertFalse(direct.out.isEmpty)
        XCTAssertEqual(piped.out, direct.out)
        // jq reads every line.
        let names = try sh.run("atl-query garments --where 'season has winter' --sort -wearCount | jq -c .name | wc -l")
        XCTAssertEqual(names.out.trimmingCharacters(in: .whitespacesAndNewlines), "200")
        // A reader that goes away early ends the listing quietly.
        let head = try sh.run("atl-query garments | head -1")
        XCTAssertEqual(head.status, 0, head.err)
        XCTAssertEqual(head.err, "")
        XCTAssertEqual(head.lines.count, 1)
        // Nothing matched: exit 1, nothing printed, as before.
        let none = try sh.run("atl-query garments --where brand=Nobody")
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.out, "")
    }
}
