import Foundation
import XCTest

/// `--where 'field~pattern'` on a stream and on the catalog: linear-time matching (issue 21
/// item 6), the same answers from both, and refusals that say what to change.
final class RegexPipelineTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws { sh = try Shell() }
    override func tearDown() { sh.remove() }

    static let longA = String(repeating: "a", count: 5000)
    static let records = """
        {"type":"garment","name":"\(longA)","category":"top"}
        {"type":"garment","name":"\(longA)b","category":"top"}

        """

    /// With NSRegularExpression this ran for minutes (26 `a`s already took 2.5 s); `timeout`
    /// turns a relapse into a failure (exit 124) instead of a hung suite.
    func testNestedQuantifierOverALongNameFinishesOnAStream() throws {
        let result = try sh.run("timeout 60 atl-query - --where 'name~(a+)+$'", stdin: Data(Self.records.utf8))
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.lines, [#"{"type":"garment","name":"\#(Self.longA)","category":"top"}"#])
        let none = try sh.run("timeout 60 atl-query - --where 'name~(a+)+c$'", stdin: Data(Self.records.utf8))
        XCTAssertEqual(none.status, 1, "nothing matched: \(none.err)")
        XCTAssertEqual(none.out, "")
    }

    func testNestedQuantifierOverALongNameFinishesOnTheCatalog() throws {
        let imported = try sh.run("atl-import", stdin: Data(Self.records.utf8))
        XCTAssertEqual(imported.status, 0, imported.err)
        let before = try sh.run(#"sqlite3 "$ATELIER_DB" 'SELECT count(*) FROM garments'"#).out
        let result = try sh.run("timeout 60 atl-query garments --where 'name~(a+)+$' | jq -r '.name | length'")
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.lines, ["5000"])
        let negated = try sh.run("timeout 60 atl-query garments --where 'name!~(a+)+$' | jq -r '.name | length'")
        XCTAssertEqual(negated.status, 0, negated.err)
        XCTAssertEqual(negated.lines, ["5001"])
        XCTAssertEqual(try sh.run(#"sqlite3 "$ATELIER_DB" 'SELECT count(*) FROM garments'"#).out, before, "a query changes nothing")
    }

    func testBackreferenceIsRefusedWithExit64() throws {
        let message = #"atl-query: regular expression "(a)\1" uses a backreference ("\1"), which cannot be matched in linear time; rewrite the pattern without it"# + "\n"
        let stream = try sh.run(#"atl-query - --where 'name~(a)\1'"#, stdin: Data(Self.records.utf8))
        XCTAssertEqual(stream.status, 64)
        XCTAssertEqual(stream.err, message)
        XCTAssertEqual(stream.out, "")
        XCTAssertEqual(try sh.run("atl-import", stdin: Data(Self.records.utf8)).status, 0)
        let catalog = try sh.run(#"atl-query garments --where 'name~(a)\1'"#)
        XCTAssertEqual(catalog.status, 64)
        XCTAssertEqual(catalog.err, message)
        XCTAssertEqual(catalog.out, "")
        let lookahead = try sh.run(#"atl-query garments --where 'name~a(?=b)'"#)
        XCTAssertEqual(lookahead.status, 64)
        XCTAssertEqual(lookahead.err, #"atl-query: regular expression "a(?=b)" uses a lookahead ("(?=…)"), which a linear-time matcher does not support; rewrite the pattern without it"# + "\n")
    }

    /// The catalog answers `~` inside SQLite (REGEXP) and a stream in memory: one matcher, one answer.
    func testStreamAndCatalogAgree() throws {
        let names = ["Navy wool coat", "navy Cotton tee", "UNIQLO heattech", "Été linen shirt", "size 42\n", "Coat\r\n", "naïve", "😀 socks", "e\u{301}cru"]
        let input = names.map { name -> String in
            let quoted = String(data: try! JSONSerialization.data(withJSONObject: name, options: .fragmentsAllowed), encoding: .utf8)!
            return #"{"type":"garment","name":\#(quoted),"category":"top"}"#
        }.joined(separator: "\n") + "\n"
        XCTAssertEqual(try sh.run("atl-import", stdin: Data(input.utf8)).status, 0)
        for pattern in ["^Navy", "(?i)^navy", "(?i)uniqlo", "wool|cotton", "(?i)\\bcot", "\\d+$", "^.{4} ", "(?i)^été", "coat$", "^\\w+$", "e\\b", "[^\\x00-\\x7F]", "\\s$"] {
            let stream = try sh.run("atl-query - --where 'name~\(pattern)' | jq -r .name", stdin: Data(input.utf8))
            let catalog = try sh.run("atl-query garments --where 'name~\(pattern)' | jq -r .name")
            XCTAssertEqual(stream.status, catalog.status, pattern)
            XCTAssertEqual(Set(stream.lines), Set(catalog.lines), pattern)
        }
    }
}
