import AtelierRecords
import Foundation
import XCTest

/// atelier(7)'s VOCABULARY lists every word and every other spelling the vocabularies accept:
/// rendered here from `Domain`, so the page cannot fall behind the code.
final class VocabularyDocsTests: XCTestCase {
    func testTheManualListsEveryWordAndSpelling() throws {
        let page = try String(contentsOfFile: Shell.root + "/man/atelier.7", encoding: .utf8)
        for sub in Domain.subcategories {
            XCTAssertTrue(page.contains("\\fB\(sub.name)\\fR\\~\(sub.wearsBeforeWash)"), sub.name)
        }
        for fabric in Domain.fabrics {
            XCTAssertTrue(page.contains("\\fB\(fabric.name)\\fR"), fabric.name)
        }
        let expected = Self.spellingsSection()
        guard let start = page.range(of: ".SS Other spellings accepted\n"),
              let end = page.range(of: ".SS Care symbols\n", range: start.upperBound ..< page.endIndex) else {
            return XCTFail("atelier(7) has no section \"Other spellings accepted\" before \"Care symbols\"")
        }
        let actual = String(page[start.lowerBound ..< end.lowerBound])
        if actual != expected {
            try expected.write(toFile: Shell.root + "/man/atelier.7.spellings.actual", atomically: true, encoding: .utf8)
        }
        XCTAssertEqual(actual, expected, "the section as the vocabularies say it is: man/atelier.7.spellings.actual")
    }

    /// The section "Other spellings accepted": for each vocabulary, its aliases grouped by the
    /// word they stand for, in the order the code gives them.
    static func spellingsSection() -> String {
        var out = ".SS Other spellings accepted\n"
        out += "Case, spaces and punctuation aside, these are read as the word after the arrow.\n"
        let vocabularies: [(String, [(alias: String, value: String)])] = [
            ("category", Domain.category.aliases), ("subcategory", Domain.subcategory.aliases),
            ("season", Domain.season.aliases), ("style", Domain.style.aliases), ("state", Domain.state.aliases),
            ("fabric", Domain.fabric.aliases),
        ]
        for (index, (name, aliases)) in vocabularies.enumerated() {
            out += index == 0 ? ".TP 14\n" : ".TP\n"
            out += name + "\n" + grouped(aliases) + ".\n"
        }
        out += ".PP\n"
        out += "Care symbol codes accept temperatures written out: \\fBwash\\-40c\\fR, \\fBWash 40\\(deC\\fR, \\fBmachine\\-wash\\-40\\fR, \\fBwash\\-at\\-40\\fR, "
        out += "\\fBwash\\-40\\-degrees\\fR, with the process in words after them (\\fB\\-permanent\\-press\\fR or \\fB\\-synthetics\\fR "
        out += "for one bar, \\fB\\-gentle\\fR, \\fB\\-delicate\\fR or \\fB\\-wool\\fR for two: \\fBwash\\-30\\-gentle\\fR \\(-> wash\\-30\\-very\\-mild); "
        out += "irons by their sole plate, \\fBiron\\-110\\fR, \\fBiron\\-150c\\fR, \\fBiron\\-max\\-200\\fR; and these spellings:\n"
        var codes: [String] = []
        var byCode: [String: [String]] = [:]
        for (alias, code) in CareSymbolCodes.spelledAliases {
            if byCode[code] == nil { codes.append(code) }
            byCode[code, default: []].append(alias)
        }
        for (index, code) in codes.enumerated() {
            out += (index == 0 ? ".TP 12\n" : ".TP\n") + bold(code) + "\n" + byCode[code]!.map(escape).joined(separator: ", ") + ".\n"
        }
        return out
    }

    /// `\fBa\fR, \fBb\fR \(-> x; \fBc\fR \(-> y`.
    static func grouped(_ aliases: [(alias: String, value: String)]) -> String {
        var values: [String] = []
        var byValue: [String: [String]] = [:]
        for (alias, value) in aliases {
            if byValue[value] == nil { values.append(value) }
            byValue[value, default: []].append(alias)
        }
        return values.map { byValue[$0]!.map(bold).joined(separator: ", ") + " \\(-> " + escape($0) }.joined(separator: "; ")
    }

    static func bold(_ word: String) -> String { "\\fB" + escape(word) + "\\fR" }

    /// Dashes as troff wants them in a man page, and apostrophes that cannot start a request.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-").replacingOccurrences(of: "'", with: "\\(aq")
    }
}
