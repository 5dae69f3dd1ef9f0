import Foundation
import XCTest

/// `atl-query suggest` run as a person runs it, on the sample wardrobe: suggestions are complete
/// outfits of clean garments at home, repeat under a seed, become outfits and wears through
/// atl-import, are not proposed again the next day, keep a locked garment, plan a trip, work on
/// a stream as on the catalog, and refuse bad options with the right exit code.
final class SuggestTests: XCTestCase {
    /// The garments of the sample catalog by id, as atl-query prints them with readyToWash.
    func garments(_ sh: Shell, date: String? = nil) throws -> [String: [String: Any]] {
        let listed = try sh.run("atl-query garments --fields id,name,category,state,readyToWash,seasons\(date.map { " --date \($0)" } ?? "")")
        return Dictionary(uniqueKeysWithValues: Shell.records(listed).map { ($0["id"] as! String, $0) })
    }

    func testSuggestionsAreCompleteCleanAndRepeatUnderASeed() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        let wardrobe = try garments(sh)
        let first = try sh.run("atl-query suggest --seed 11 --count 3 --temperature 6")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(try sh.run("atl-query suggest --seed 11 --count 3 --temperature 6").out, first.out, "same catalog and seed, same bytes")
        let outfits = Shell.records(first)
        XCTAssertEqual(outfits.count, 3)
        var sets: Set<Set<String>> = []
        for outfit in outfits {
            XCTAssertEqual(outfit["type"] as? String, "outfit")
            let ids = outfit["garments"] as! [String]
            XCTAssertTrue(sets.insert(Set(ids)).inserted, "three different outfits")
            let categories = ids.map { wardrobe[$0]?["category"] as? String }
            XCTAssertEqual(categories.filter { $0 == "footwear" }.count, 1, "\(categories)")
            XCTAssertEqual(categories.filter { $0 == "outerwear" }.count, 1, "6 °C is cold: outerwear")
            XCTAssertTrue(categories.contains("onePiece") || (categories.contains("top") && categories.contains("bottom")), "\(categories)")
            for id in ids {
                XCTAssertEqual(wardrobe[id]?["readyToWash"] as? Bool, false, "\(id) wants washing")
                XCTAssertEqual(wardrobe[id]?["state"] as? String ?? "available", "available", id)
            }
            let why = outfit["why"] as! [String: Any]
            for part in ["score", "rotation", "harmony", "formality", "pairs"] {
                let value = (why[part] as? NSNumber)?.doubleValue ?? -1
                XCTAssertTrue((0 ... 1).contains(value), "\(part) \(value)")
            }
            XCTAssertFalse((why["reasons"] as! [String]).isEmpty)
            XCTAssertTrue((why["reasons"] as! [String]).contains { $0.contains("cold (6 °C)") })
        }
        // The same catalog read as a stream suggests the same.
        try sh.run("{ atl-query garments; atl-query outfits; atl-query wear; } > wardrobe.ndjson")
        XCTAssertEqual(try sh.run("atl-query - suggest --seed 11 --count 3 --temperature 6 < wardrobe.ndjson").out, first.out)
        XCTAssertEqual(try sh.run("atl-query suggest wardrobe.ndjson --seed 11 --count 3 --temperature 6").out, first.out)
        // So do outfits --available, and their tone and value.
        let available = try sh.run("atl-query outfits --available --fields name,tone,value")
        XCTAssertFalse(Shell.records(available).isEmpty)
        XCTAssertEqual(try sh.run("atl-query - outfits --available --fields name,tone,value < wardrobe.ndjson").out, available.out)
        // A hot day: nothing heavy, no outerwear.
        let hot = Shell.records(try sh.run("atl-query suggest --seed 2 --temperature 29 --season summer"))
        for id in hot.first?["garments"] as? [String] ?? [] { XCTAssertNotEqual(wardrobe[id]?["category"] as? String, "outerwear") }
    }

    func testASuggestionIsWornThroughAtlImportAndNotProposedAgainThatWeek() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        // Stored as an outfit, worn today: the wear log and the garments' counts follow.
        let worn = try sh.run("atl-query suggest --seed 5 | atl-import | jq -c '{type: \"wear\", outfit: .id}' | atl-import")
        XCTAssertEqual(worn.status, 0, worn.err)
        let stored = Shell.records(try sh.run("atl-query outfits --where tags=suggested --fields id,garments,wearCount"))
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(stored.first?["wearCount"] as? Int, 1)
        let wornIDs = Set(stored.first?["garments"] as! [String])
        // The same seed tomorrow gives another outfit, none of the core garments worn today.
        let next = Shell.records(try sh.run("atl-query suggest --seed 5 --count 3 --date today+1d"))
        XCTAssertFalse(next.isEmpty)
        for outfit in next { XCTAssertNotEqual(Set(outfit["garments"] as! [String]), wornIDs) }
        // A suggestion that is a stored outfit carries its id: importing it again stores nothing new.
        let again = try sh.run("atl-query suggest --lock \(wornIDs.sorted().joined(separator: ",")) --seed 5 --fields id,name")
        let againRecord = Shell.records(again).first
        XCTAssertEqual(againRecord?["id"] as? String, stored.first?["id"] as? String, again.out + again.err)
    }

    func testLockKeepsAGarmentAndBadOptionsAreRefused() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        let wardrobe = try garments(sh)
        let bottom = try XCTUnwrap(wardrobe.values.sorted { ($0["id"] as! String) < ($1["id"] as! String) }.first {
            $0["category"] as? String == "bottom" && $0["readyToWash"] as? Bool == false && ($0["state"] as? String ?? "available") == "available"
        })
        let id = bottom["id"] as! String
        let locked = Shell.records(try sh.run("atl-query suggest --lock \(id) --count 2 --seed 1"))
        XCTAssertFalse(locked.isEmpty)
        for outfit in locked { XCTAssertTrue((outfit["garments"] as! [String]).contains(id)) }
        // Unknown garment: bad data (65); not a garment id, unknown occasion, bad count: usage (64).
        for (command, status, message) in [
            ("atl-query suggest --lock g_00000000000000000000000000", 65, "no such garment"),
            ("atl-query suggest --lock o_1", 64, "garment ids"),
            ("atl-query suggest --occasion picnik", 64, "unknown occasion"),
            ("atl-query suggest --count 0", 64, "--count"),
            ("atl-query suggest --count 2 --days 3", 64, "cannot be used together"),
            ("atl-query garments --temperature 5", 64, "applies to suggest only"),
            ("atl-query suggest --season monsoon", 64, "unknown season"),
        ] {
            let result = try sh.run(command)
            XCTAssertEqual(result.status, Int32(status), command + ": " + result.err)
            XCTAssertEqual(result.out, "", command)
            XCTAssertTrue(result.err.contains(message), command + ": " + result.err)
        }
        // A garment away at the cleaner's cannot be locked.
        try sh.run("atl-query garments --where id=\(id) --fields id | jq -c '. + {state: \"atLaundry\"}' | atl-import > /dev/null")
        let away = try sh.run("atl-query suggest --lock \(id)")
        XCTAssertEqual(away.status, 65)
        XCTAssertTrue(away.err.contains("atLaundry"), away.err)
        // No clean footwear: exit 1, and the reason names the footwear.
        try sh.run("atl-query garments --where category=footwear --fields id | jq -c '. + {state: \"toWash\"}' | atl-import > /dev/null")
        let barefoot = try sh.run("atl-query suggest")
        XCTAssertEqual(barefoot.status, 1)
        XCTAssertEqual(barefoot.out, "")
        XCTAssertTrue(barefoot.err.contains("no footwear to wear"), barefoot.err)
        // A bad line in a stream names the line (65).
        let bad = try sh.run("printf '{\"type\":\"garment\",\"name\":\"A\",\"category\":\"top\"}\\n{oops\\n' | atl-query - suggest")
        XCTAssertEqual(bad.status, 65)
        XCTAssertTrue(bad.err.hasPrefix("atl-query: stdin:2:"), bad.err)
    }

    func testATripCapsuleWearsItsPackingList() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        let trip = try sh.run("atl-query suggest --days 5 --seed 4 --temperature 15")
        XCTAssertEqual(trip.status, 0, trip.err)
        let records = Shell.records(trip)
        XCTAssertEqual(records.count, 6)
        let packing = records.last!
        XCTAssertEqual(packing["type"] as? String, "packing")
        XCTAssertEqual(packing["days"] as? Int, 5)
        let packed = Set(packing["garments"] as! [String])
        XCTAssertEqual(packing["count"] as? Int, packed.count)
        XCTAssertLessThan(packed.count, 5 * 3, "a capsule reuses garments")
        for outfit in records.dropLast() {
            XCTAssertTrue(Set(outfit["garments"] as! [String]).isSubset(of: packed))
            XCTAssertTrue((outfit["name"] as! String).hasPrefix("20"), "named by its day")
        }
        // Importing the trip stores the outfits; the packing record passes through.
        let imported = try sh.run("atl-query suggest --days 5 --seed 4 --temperature 15 | atl-import")
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertEqual(Shell.records(imported).last?["type"] as? String, "packing")
        XCTAssertEqual(Shell.records(try sh.run("atl-query outfits --where tags=suggested")).count, 5)
    }
}
