import AtelierRecords
import XCTest

/// `NameIndex` must answer exactly as a `Dictionary` keyed by String would.
final class NameIndexTests: XCTestCase {
    func testFindsWhatADictionaryFindsForEveryQuery() {
        let names = ["id", "name", "category", "", "subcategory", "K", "bouclé", "name", "wash-30", "tShirt", "ascii"]
        let index = NameIndex(names)
        let reference = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let queries = names + ["nam", "names", "Name", "ID", "\u{212A}", "boucle\u{301}", "bouclé ", "wash-3", "wash-300", "x", "é",
                               "cat\u{0}egory", String(repeating: "a", count: 300)]
        for query in queries {
            XCTAssertEqual(index.position(of: query), reference[query], "query \(query.debugDescription)")
        }
        // The Kelvin sign and a decomposed é are Swift-equal to the names, and found.
        XCTAssertEqual(index.position(of: "\u{212A}"), 5)
        XCTAssertEqual(index.position(of: "boucle\u{301}"), 6)
        XCTAssertEqual(index.position(of: "name"), 1, "a name given twice is found at its first place")
        XCTAssertEqual(index.position(of: ""), 3)
    }

    func testManyNamesAndAFullTableOfMisses() {
        let names = (0..<500).map { "field\($0)" }
        let index = NameIndex(names)
        for (position, name) in names.enumerated() { XCTAssertEqual(index.position(of: name), position) }
        for miss in (500..<1500).map({ "field\($0)" }) { XCTAssertNil(index.position(of: miss)) }
        XCTAssertNil(NameIndex([]).position(of: "anything"))
    }
}
