import AtelierTestSupport
import XCTest
@testable import AtelierRecords

/// `CanonicalJSON` lets the catalog copy stored JSON to the output instead of parsing and
/// writing it again; a yes where the writer would have written other bytes would change what
/// `atl-query` prints, so every yes is checked against the long way.
final class CanonicalJSONTests: XCTestCase {
    static let seed: UInt64 = 0xCA70_2026_0028

    func accepts(_ text: [UInt8]) -> Bool { text.withUnsafeBufferPointer { CanonicalJSON.isWriterOutput($0) } }
    func accepts(_ text: String) -> Bool { accepts(Array(text.utf8)) }

    /// The long way: parse, then write; nil when the text does not parse.
    func rewritten(_ text: [UInt8]) -> [UInt8]? {
        guard let value = try? text.withUnsafeBytes({ try JSONParser.parse($0) }) else { return nil }
        var out: [UInt8] = []
        JSONWriter.append(value, to: &out)
        return out
    }

    func testWhatTheWriterWritesForCatalogColumnsIsAccepted() {
        for text in [#"["winter","autumn"]"#, #"[{"fabric":"cotton","percent":98},{"fabric":"elastane","percent":2}]"#,
                     #"["wash-30","bleach-no"]"#, "[]", "{}", #"{"a":{"b":[1,-2,true,false,null]}}"#, #"["Café","中","😀"]"#,
                     #"{"sha256:ab":"x"}"#, "123456789012345678", "-1", "0", #""""#, "null",
                     #"["a\"b\\c\nd\re\tf\u0001\u001f"]"#, #"{"a\"":1,"a":2}"#] {
            XCTAssertTrue(accepts(text), text)
            XCTAssertEqual(rewritten(Array(text.utf8)), Array(text.utf8), text)
        }
    }

    func testOtherSpellingsAreLeftToTheParser() {
        // Each parses (or not) to something the writer spells otherwise, or is not JSON at all.
        for text in [#"[ "winter"]"#, "[1,2] ", #"["a\/b"]"#, #"["\u00e9"]"#, #"["\u000a"]"#, #"["\u001F"]"#, #"["\b"]"#, #"["\u00"]"#, "[0.1]", "[1e21]", "[12.0]",
                     "[-0]", "[01]", "[1234567890123456789]", #"{"a":1,"a":2}"#, "[1,]", "[1", #"{"a"}"#, "tru", "",
                     "[\"tab\there\"]", "nul", #"{"a":1}x"#, "[-]", #"{1:2}"#] {
            XCTAssertFalse(accepts(text), text)
        }
        XCTAssertFalse(accepts([0x5B, 0x22, 0xC3, 0x22, 0x5D]), "a truncated UTF-8 sequence")
        XCTAssertFalse(accepts([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]), "a surrogate in UTF-8")
        let deep = String(repeating: "[", count: CanonicalJSON.maximumDepth + 1) + String(repeating: "]", count: CanonicalJSON.maximumDepth + 1)
        XCTAssertFalse(accepts(deep), "deeper than the scanner goes")
        let wide = "{" + (0...CanonicalJSON.maximumKeys).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        XCTAssertFalse(accepts(wide), "more keys than the duplicate check holds")
    }

    /// Random texts, their written forms and mutations of those: whatever is accepted must
    /// parse and be written back byte for byte.
    func testEveryAcceptedTextIsWhatTheWriterWouldWrite() {
        var generator = JSONTextGenerator(seed: Self.seed)
        var accepted = 0
        for n in 0..<4000 {
            let raw = generator.objectText()
            var candidates = [raw]
            if let written = rewritten(raw) {
                candidates.append(written)
                candidates.append(generator.mutate(written))
            }
            for text in candidates where accepts(text) {
                accepted += 1
                guard let again = rewritten(text) else { return XCTFail("case \(n): accepted text that does not parse: \(describe(text))") }
                XCTAssertEqual(again, text, "case \(n): \(describe(text)) is written as \(describe(again))")
            }
        }
        // Not vacuous: plenty of the written forms are of the kind the catalog stores.
        XCTAssertGreaterThan(accepted, 800)
    }
}
