import Foundation
import XCTest

/// Regressions from a hostile test of every tool (issue 21): what was printed must be what was
/// stored, bad names are refused rather than guessed at, and help and man pages read whole.
final class HostileInputTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws { sh = try Shell() }
    override func tearDown() { sh.remove() }

    /// Regression: `"name":"A\u0000B"` imported with exit 0 and was printed back whole, but the
    /// catalog kept `A` (SQLite's C string ended at the NUL). A text field refuses it now; a
    /// field the schema does not know keeps it, since it is stored as JSON.
    func testNULInsideATextFieldIsRefusedNotCutOff() throws {
        let refused = try sh.run(#"printf '{"type":"garment","name":"A\\u0000B","category":"top"}\n' | atl-import"#)
        XCTAssertEqual(refused.status, 65, refused.err)
        XCTAssertEqual(refused.err, "atl-import: stdin:1: field \"name\" contains a NUL character (\\u0000), which a text field cannot hold; nothing from stdin was imported\n")
        XCTAssertEqual(refused.out, "")
        XCTAssertEqual(try sh.run("sqlite3 catalog.sqlite 'SELECT count(*) FROM garments'").out, "0\n")

        let kept = try sh.run(#"printf '{"type":"garment","name":"A","category":"top","code":"x\\u0000y"}\n' | atl-import && atl-query garments --fields code"#)
        XCTAssertEqual(kept.status, 0, kept.err)
        XCTAssertEqual(kept.lines.last, #"{"type":"garment","code":"x\u0000y"}"#)
    }

    /// Regression: an integer past 64 bits in a field the schema does not know came back as a
    /// double (`1.2345678901234568e+29`): printed, stored and queried, it keeps its digits.
    func testBigIntegerInAnUnknownFieldKeepsItsDigits() throws {
        let record = #"{"type":"garment","name":"A","category":"top","serial":123456789012345678901234567890,"n":-99999999999999999999}"#
        let imported = try sh.run("atl-import", stdin: Data((record + "\n").utf8))
        XCTAssertEqual(imported.status, 0, imported.err)
        XCTAssertTrue(imported.out.contains(#""serial":123456789012345678901234567890,"n":-99999999999999999999"#), imported.out)
        let stored = try sh.run("sqlite3 catalog.sqlite 'SELECT extra FROM garments'")
        XCTAssertEqual(stored.out, #"{"serial":123456789012345678901234567890,"n":-99999999999999999999}"# + "\n")
        let queried = try sh.run("atl-query garments --where 'serial>1e28' --fields serial && atl-query garments | atl-query - --fields n")
        XCTAssertEqual(queried.lines, [#"{"type":"garment","serial":123456789012345678901234567890}"#, #"{"type":"garment","n":-99999999999999999999}"#], queried.err)
        // A known numeric field still holds a number the catalog can compare.
        let price = try sh.run(#"printf '{"type":"garment","name":"B","category":"top","price":{"amount":100000000000000000000000,"currency":"EUR"}}\n' | atl-import > /dev/null && atl-query garments --where 'price.amount>1e22' --fields name"#)
        XCTAssertEqual(price.lines, [#"{"type":"garment","name":"B"}"#], price.err)
    }

    /// Regression: a CSV header naming a column twice was accepted (the last one won), where
    /// NDJSON refuses a duplicate key.
    func testCSVHeaderWithARepeatedColumnIsRefused() throws {
        let result = try sh.run("printf 'name,category,name\\nA,top,B\\n' > dup.csv && atl-import dup.csv")
        XCTAssertEqual(result.status, 65)
        XCTAssertEqual(result.err, "atl-import: dup.csv:1: header column 3 (\"name\") repeats column 1; name each field once; nothing from dup.csv was imported\n")
        XCTAssertEqual(try sh.run("sqlite3 catalog.sqlite 'SELECT count(*) FROM garments'").out, "0\n")
    }

    /// Regression: `--fields '.,..,a..b'` was accepted and printed bare `{"type":…}` records;
    /// `--sort ..` crashed atl-query (an index out of range in the query planner).
    func testFieldNamesWithEmptyPartsAreUsageErrors() throws {
        try sh.run("atl-import --sample > /dev/null")
        for (args, message) in [("--fields '.,..,a..b'", #"in --fields '.,..,a..b': "." is not a field"#),
                                ("--fields 'name,'", "in --fields 'name,': an empty name is not a field"),
                                ("--sort ..", #"expected a field to sort by, like 'wearCount' or '-wearCount', got "..""#),
                                ("--sort 'price..amount'", "expected a field to sort by")] {
            for source in ["atl-query garments", "atl-query garments | atl-query -"] {
                let result = try sh.run("\(source) \(args)")
                XCTAssertEqual(result.status, 64, "\(source) \(args): \(result.err)")
                XCTAssertTrue(result.err.hasPrefix("atl-query: ") && result.err.contains(message), "\(args): \(result.err)")
                XCTAssertEqual(result.out, "", args)
            }
        }
    }

    /// Regression: `--help` wrapped its EXAMPLES at 80 columns when stdout was not a terminal,
    /// so a pasted example ran half a command. Every example line comes out whole, at any width.
    func testHelpExamplesAreWholeLinesAtAnyWidth() throws {
        for tool in Shell.tools {
            let dump = try sh.run("\(tool) --experimental-dump-help")
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(dump.out.utf8)) as? [String: Any])
            let discussion = try XCTUnwrap((json["command"] as? [String: Any])?["discussion"] as? String, tool)
            let examples = try XCTUnwrap(discussion.components(separatedBy: "EXAMPLES").last, tool)
                .split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            XCTAssertGreaterThanOrEqual(examples.count, 3, tool)
            for columns in ["80", "40"] {
                let help = try sh.run("COLUMNS=\(columns) \(tool) --help | cat")
                XCTAssertEqual(help.status, 0, help.err)
                let lines = Set(help.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
                for example in examples {
                    XCTAssertTrue(lines.contains(example), "\(tool) --help at \(columns) columns breaks the example \(example)")
                }
                XCTAssertTrue(help.out.contains("\nUSAGE: \(tool)"), "the rest of the help is still there")
            }
        }
    }

    /// Regression: `man atelier` warned "can't break line" at line 437, and atelier(7) still
    /// called atl-reconstruct planned.
    func testManPagesFormatWithoutWarnings() throws {
        let pages = try FileManager.default.contentsOfDirectory(atPath: Shell.root + "/man").filter { $0.hasSuffix(".1") || $0.hasSuffix(".7") }
        XCTAssertEqual(pages.count, Shell.tools.count + 1)
        for page in pages {
            for width in ["78n", "58n"] {
                let result = try sh.run("groff -man -Tutf8 -rLL=\(width) -z \(Shell.root)/man/\(page)")
                XCTAssertEqual(result.status, 0, page)
                XCTAssertEqual(result.err, "", "\(page) at \(width)")
            }
        }
        let overview = try String(contentsOfFile: Shell.root + "/man/atelier.7", encoding: .utf8)
        XCTAssertFalse(overview.contains("(planned)"), "every tool is built")
    }
}
