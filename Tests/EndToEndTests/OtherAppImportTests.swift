import Foundation
import XCTest

/// A wardrobe exported by another app comes in: its care spellings read as our codes, its
/// subcategories and fabrics are kept (known ones bring what they imply), its states map to ours,
/// and what it has given away stays archived, out of suggestions, laundry and the "not worn" lists.
final class OtherAppImportTests: XCTestCase {
    func testAnotherAppsWardrobeComesInWhole() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try FileManager.default.copyItem(atPath: Shell.root + "/Tests/EndToEndTests/Support/other-app-wardrobe.ndjson",
                                         toPath: sh.dir + "/export.ndjson")
        let imported = try sh.run("atl-import export.ndjson")
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertEqual(Shell.records(imported).count, 12)
        // One notice per unknown word, naming the first line that used it; nothing else.
        let notices = imported.err.split(separator: "\n").map(String.init)
        XCTAssertEqual(notices, [
            "atl-import: export.ndjson:9: notice: unknown subcategory \"kilt\" kept as given (its category's wear limit and weight apply)",
            "atl-import: export.ndjson:9: notice: unknown fabric \"tartan wool\" kept as given (no fabric group: laundry sorting goes by the other fibres)",
            "atl-import: export.ndjson:12: notice: unknown fabric \"bouclé\" kept as given (no fabric group: laundry sorting goes by the other fibres)",
        ], imported.err)

        // What the catalog holds, read by sqlite3.
        let rows = try sh.run("sqlite3 -separator '|' catalog.sqlite \"SELECT name, category, ifnull(subcategory,''), state, ifnull(care,''), ifnull(composition,'') FROM garments ORDER BY rowid\"")
        XCTAssertEqual(rows.status, 0, rows.err)
        let byName = Dictionary(uniqueKeysWithValues: rows.lines.map { line -> (String, [String]) in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            return (cells[0], cells)
        })
        XCTAssertEqual(byName["Wide Culottes"]?[1...4], ["bottom", "culottes", "available", #"["wash-30","bleach-any","tumble-normal","iron-low"]"#])
        XCTAssertEqual(byName["Black Puffer"]?[2...4], ["puffer", "toWash", #"["wash-hand","bleach-no","tumble-low"]"#])
        XCTAssertEqual(byName["Beige Trench"]?[2...4], ["trenchCoat", "onLoan", #"["pro-any"]"#])
        XCTAssertEqual(byName["Aviators"]?[2...3], ["sunglasses", "archived"])
        XCTAssertEqual(byName["Denim Overall"]?[2...4], ["overalls", "available", #"["wash-40","bleach-non-chlorine","dry-line"]"#])
        XCTAssertEqual(byName["Red Swimsuit"]?[1...4], ["other", "swimwear", "available", #"["wash-hand-ambient"]"#], "the user's category stands")
        XCTAssertEqual(byName["Tartan Kilt"]?[2...3], ["kilt", "archived"])
        XCTAssertEqual(byName["Old Sweater"]?[2...3], ["sweater", "archived"])
        XCTAssertEqual(byName["Old Sweater"]?[5], #"[{"fabric":"wool","percent":100}]"#)
        XCTAssertEqual(byName["Red Swimsuit"]?[5], #"[{"fabric":"nylon","percent":80},{"fabric":"elastane","percent":20}]"#)
        XCTAssertEqual(byName["Bouclé Jacket"]?[5], #"[{"fabric":"bouclé","percent":70},{"fabric":"polyester","percent":30}]"#)

        // The values in use, and which of them the vocabulary does not know.
        let subs = Shell.records(try sh.run("atl-query stats --by subcategory --fields group,garments,known"))
        XCTAssertEqual(subs.first { $0["group"] as? String == "kilt" }?["garments"] as? Int, 2)
        XCTAssertEqual(subs.first { $0["group"] as? String == "kilt" }?["known"] as? Bool, false)
        XCTAssertNil(subs.first { $0["group"] as? String == "culottes" }?["known"])
        let fabrics = Shell.records(try sh.run("atl-query stats --by fabric --fields group,garments,known"))
        XCTAssertEqual(Set(fabrics.filter { $0["known"] as? Bool == false }.compactMap { $0["group"] as? String }), ["tartan wool", "bouclé"])
        XCTAssertEqual(fabrics.first { $0["group"] as? String == "denim" }?["garments"] as? Int, 1)
        XCTAssertEqual(try sh.run("atl-query garments --where subcategory=kilt --fields name").lines.count, 2)

        // Archived garments: in the history, out of laundry, suggestions and the not-worn lists.
        func id(_ name: String) throws -> String {
            try XCTUnwrap(Shell.records(try sh.run("atl-query garments --where 'name=\(name)' --fields id")).first?["id"] as? String, name)
        }
        let plan = try sh.run("atl-query laundry-plan --fields type,bin,garments")
        XCTAssertEqual(plan.status, 0, plan.err)
        let planned = plan.out
        XCTAssertTrue(planned.contains(try id("Denim Overall")), planned)
        XCTAssertTrue(planned.contains(try id("Black Puffer")), planned)
        for name in ["Tartan Kilt", "Old Sweater"] {
            XCTAssertFalse(planned.contains(try id(name)), "\(name) is archived: \(planned)")
            let ready = try sh.run("atl-query garments --where 'name=\(name)' --fields readyToWash")
            XCTAssertEqual(Shell.records(ready).first?["readyToWash"] as? Bool, false, name)
        }
        let total = try XCTUnwrap(Shell.records(try sh.run("atl-query stats --by category")).last)
        let notWorn = try XCTUnwrap(total["notWorn"] as? [String: Any])
        XCTAssertEqual(notWorn["count"] as? Int, 9, "none of the 12 worn in 90 days; 3 are archived: \(notWorn)")
        let names = (notWorn["longest"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertFalse(names.contains("Aviators"), "\(names)")
        let rotation = try XCTUnwrap(total["rotation"] as? [String: Any])
        XCTAssertEqual(rotation["garments"] as? Int, 8, "at home: not archived, not on loan")
        let suggestions = try sh.run("atl-query suggest --season summer --count 3 --fields garments")
        for name in ["Aviators", "Tartan Kilt", "Old Sweater"] {
            XCTAssertFalse(suggestions.out.contains(try id(name)), name)
        }
        // An archived garment's history still takes wears.
        let wear = try sh.run("echo '{\"type\":\"wear\",\"garment\":\"\(try id("Tartan Kilt"))\",\"date\":\"2026-01-01\"}' | atl-import")
        XCTAssertEqual(wear.status, 0, wear.err)
    }

    func testACareSpellingItCannotReadIsRefusedWithoutTheOppositeSuggested() throws {
        let sh = try Shell()
        defer { sh.remove() }
        let bad = try sh.run("""
            printf '%s\\n' '{"type":"garment","name":"A","category":"top","care":["bleach-ok"]}' \
                           '{"type":"garment","name":"B","category":"top","care":["bleach-okay"]}' | atl-import
            """)
        XCTAssertEqual(bad.status, 65)
        XCTAssertEqual(bad.err, "atl-import: stdin:2: field \"care\": unknown care symbol \"bleach-okay\"; did you mean \"bleach-any\"?; nothing from stdin was imported\n")
        XCTAssertEqual(bad.out, "")
        XCTAssertEqual(try sh.run("sqlite3 catalog.sqlite 'SELECT count(*) FROM garments'").out, "0\n")
        // A state it does not know is refused too: states are a closed set.
        let state = try sh.run(#"echo '{"type":"garment","name":"C","category":"top","state":"misplaced"}' | atl-import"#)
        XCTAssertEqual(state.status, 65)
        XCTAssertTrue(state.err.contains("unknown state \"misplaced\""), state.err)
        XCTAssertTrue(state.err.contains("archived"), state.err)
    }
}

/// What the import does when nobody reads its output, or when half its lines are bad: the
/// catalog it leaves is the same, byte for byte, as the careful way leaves it.
final class ImportShortcutTests: XCTestCase {
    func testAnImportToDevNullStoresWhatAnImportToAFileStores() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("python3 \(Shell.root)/benchmarks/gen-garments.py 3000 7 --other-apps 0.4 > g.ndjson")
        let toFile = try sh.run("ATELIER_DB=a.sqlite atl-import g.ndjson > printed.ndjson")
        let toNull = try sh.run("ATELIER_DB=b.sqlite atl-import g.ndjson > /dev/null")
        XCTAssertEqual(toFile.status, 0, toFile.err)
        XCTAssertEqual(toNull.status, 0, toNull.err)
        XCTAssertEqual(toNull.err, toFile.err, "the same notices")
        XCTAssertEqual(try sh.run("wc -l < printed.ndjson").out.trimmingCharacters(in: .whitespacesAndNewlines), "3000")
        let columns = "name, category, subcategory, state, care, composition, seasons, price_amount, price_currency, purchased_on, wear_count, last_worn_on, last_washed_on, wears_since_wash, tags, notes, extra"
        let a = try sh.run("sqlite3 a.sqlite 'SELECT \(columns) FROM garments ORDER BY rowid'")
        let b = try sh.run("sqlite3 b.sqlite 'SELECT \(columns) FROM garments ORDER BY rowid'")
        XCTAssertEqual(a.lines.count, 3000)
        XCTAssertEqual(a.out, b.out)
        // A garment made with a wash day and no count has none since (no wears logged yet); one
        // updated with a wash day has its logged wears after that day counted again.
        let made = try sh.run(#"echo '{"type":"garment","name":"W","category":"top","lastWashedOn":"2026-01-01","wearCount":9}' | ATELIER_DB=c.sqlite atl-import"#)
        let id = try XCTUnwrap(Shell.records(made).first?["id"] as? String)
        XCTAssertEqual(Shell.records(made).first?["wearsSinceWash"] as? Int, 0)
        try sh.run("printf '%s\\n' '{\"type\":\"wear\",\"garment\":\"\(id)\",\"date\":\"2026-02-01\"}' '{\"type\":\"wear\",\"garment\":\"\(id)\",\"date\":\"2026-03-01\"}' | ATELIER_DB=c.sqlite atl-import > /dev/null")
        try sh.run(#"echo '{"type":"garment","id":"\#(id)","lastWashedOn":"2026-02-15"}' | ATELIER_DB=c.sqlite atl-import > /dev/null"#)
        XCTAssertEqual(try sh.run("sqlite3 c.sqlite \"SELECT wears_since_wash FROM garments WHERE id = '\(id)'\"").out, "1\n")
    }

    /// A new garment's row is made on the parsing thread (`FreshRow`); the same records sent
    /// the long way (an explicit "op":"upsert" keeps them off that path) must store and print
    /// the same, apart from ids and times.
    func testANewRecordsRowMadeAheadStoresAndPrintsWhatTheLongWayDoes() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("python3 \(Shell.root)/benchmarks/gen-garments.py 1500 5 --other-apps 0.4 > g.ndjson")
        // Odd values the binding must keep: an empty brand stays "" (not NULL), UTF-8 its bytes.
        try sh.run(#"printf '%s\n' '{"type":"garment","name":"\u00e9t\u00e9","category":"top","brand":"","createdAt":"2020-01-02T03:04:05Z","x":{"k":[1,null]}}' >> g.ndjson"#)
        try sh.run(#"sed 's/^{"type":"garment",/{"type":"garment","op":"upsert",/' g.ndjson > long.ndjson"#)
        XCTAssertEqual(try sh.run("grep -c '\"op\":\"upsert\"' long.ndjson").out, "1501\n")
        let fast = try sh.run("ATELIER_DB=a.sqlite atl-import g.ndjson > a.out")
        let long = try sh.run("ATELIER_DB=b.sqlite atl-import long.ndjson > b.out")
        XCTAssertEqual(fast.status, 0, fast.err)
        XCTAssertEqual(long.status, 0, long.err)
        XCTAssertEqual(fast.err.replacingOccurrences(of: "g.ndjson", with: "long.ndjson"), long.err, "the same notices")
        let strip = #"jq -c 'del(.id, .createdAt, .updatedAt)'"#
        let printedFast = try sh.run("\(strip) a.out").out, printedLong = try sh.run("\(strip) b.out").out
        XCTAssertEqual(printedFast.split(separator: "\n").count, 1501)
        XCTAssertEqual(printedFast, printedLong)
        let columns = try sh.run("sqlite3 a.sqlite \"SELECT group_concat(name) FROM pragma_table_info('garments') WHERE name NOT IN ('id', 'created_at', 'updated_at')\"").out
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(columns.contains("extra"), columns)
        let quoted = columns.split(separator: ",").map { "quote(\($0))" }.joined(separator: ", ")
        let query = "SELECT \(quoted) FROM garments ORDER BY rowid"
        let rows = try sh.run("sqlite3 a.sqlite \"\(query)\"")
        let a = rows.out, b = try sh.run("sqlite3 b.sqlite \"\(query)\"").out
        XCTAssertEqual(a.split(separator: "\n").count, 1501, rows.err + query)
        XCTAssertEqual(a, b)
        XCTAssertEqual(try sh.run("sqlite3 a.sqlite \"SELECT quote(brand), hex(name), created_at FROM garments WHERE category = 'top' AND brand = ''\"").out,
                       "''|C3A974C3A9|2020-01-02T03:04:05Z\n")
        // Made now, in input order: ids sort as the lines came, and every row has its times.
        XCTAssertEqual(try sh.run("sqlite3 a.sqlite 'SELECT count(*) FROM garments WHERE updated_at IS NULL OR created_at IS NULL'").out, "0\n")
        XCTAssertEqual(try sh.run("sqlite3 a.sqlite 'SELECT group_concat(rowid) = (SELECT group_concat(rowid) FROM (SELECT rowid FROM garments ORDER BY id)) FROM (SELECT rowid FROM garments ORDER BY rowid)'").out, "1\n")
    }

    func testSkippingBadLinesKeepsExactlyTheGoodOnes() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("python3 \(Shell.root)/benchmarks/gen-garments.py 2000 11 --other-apps 0.3 --invalid 0.5 > mixed.ndjson")
        let skipped = try sh.run("ATELIER_DB=a.sqlite atl-import --skip-invalid mixed.ndjson > /dev/null")
        XCTAssertEqual(skipped.status, 0, skipped.err)
        let bad = skipped.err.split(separator: "\n").filter { $0.hasSuffix("(skipped)") }
        // Each bad line is named; the good ones, imported alone, make the same catalog.
        let badLines = Set(bad.compactMap { $0.split(separator: ":").dropFirst(2).first.flatMap { Int($0) } })
        XCTAssertEqual(badLines.count, bad.count)
        XCTAssertGreaterThan(badLines.count, 850)
        XCTAssertLessThan(badLines.count, 1150)
        let good = try String(contentsOfFile: sh.dir + "/mixed.ndjson", encoding: .utf8).split(separator: "\n").enumerated()
            .filter { !badLines.contains($0.offset + 1) }.map { String($0.element) }.joined(separator: "\n") + "\n"
        try good.write(toFile: sh.dir + "/good.ndjson", atomically: true, encoding: .utf8)
        let clean = try sh.run("ATELIER_DB=b.sqlite atl-import good.ndjson > /dev/null")
        XCTAssertEqual(clean.status, 0, clean.err)
        let columns = "name, category, subcategory, state, care, composition, price_amount, purchased_on, wear_count"
        let a = try sh.run("sqlite3 a.sqlite 'SELECT \(columns) FROM garments ORDER BY rowid'")
        let b = try sh.run("sqlite3 b.sqlite 'SELECT \(columns) FROM garments ORDER BY rowid'")
        XCTAssertEqual(a.lines.count, 2000 - badLines.count)
        XCTAssertEqual(a.out, b.out)
    }
}

/// A word kept as given comes from the input: its notice cannot drive the terminal.
final class UnknownWordNoticeTests: XCTestCase {
    func testANoticeShowsAHostileWordEscapedAndShort() throws {
        let sh = try Shell()
        defer { sh.remove() }
        let long = String(repeating: "x", count: 500)
        let result = try sh.run(#"printf '%s\n' '{"type":"garment","name":"A","category":"top","subcategory":"\u001b[31mred\u0007"}' '{"type":"garment","name":"B","category":"top","subcategory":"\#(long)"}' | atl-import"#)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.err.contains("\u{1b}"), result.err)
        XCTAssertFalse(result.err.contains("\u{07}"), result.err)
        let lines = result.err.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, result.err)
        XCTAssertTrue(lines[0].contains(#"unknown subcategory "\u001b[31mred\u0007" kept as given"#), result.err)
        XCTAssertLessThan(lines[1].count, 200, "a long word is shortened")
        // A closed vocabulary's refusal shows the word the same way.
        let refused = try sh.run(#"printf '%s\n' '{"type":"garment","name":"C","category":"top","state":"\u001b]0;owned\u0007"}' | atl-import"#)
        XCTAssertEqual(refused.status, 65)
        XCTAssertFalse(refused.err.contains("\u{1b}"), refused.err)
        XCTAssertTrue(refused.err.contains(#"unknown state "\u001b]0;owned\u0007""#), refused.err)
        // The words themselves are stored as given.
        let stored = try sh.run("sqlite3 catalog.sqlite 'SELECT length(subcategory) FROM garments ORDER BY rowid'")
        XCTAssertEqual(stored.out, "9\n500\n")
    }
}
