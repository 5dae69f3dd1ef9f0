import XCTest
@testable import AtelierRecords

/// `RegularExpression`, construct by construct, with ICU's answers (checked against
/// `NSRegularExpression`) as the expected ones.
final class RegexTests: XCTestCase {
    func matches(_ pattern: String, _ subject: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        do {
            return try RegularExpression(pattern).matches(subject)
        } catch {
            XCTFail("\(pattern) refused: \(error)", file: file, line: line)
            return false
        }
    }

    func refusal(_ pattern: String) -> RecordsError? {
        do {
            _ = try RegularExpression(pattern)
            return nil
        } catch {
            return error
        }
    }

    // MARK: The bug: issue 21 item 6

    /// `(a+)+$` over 5,000 `a`s and a `b` ran for minutes with NSRegularExpression (26 `a`s
    /// took 2.5 s); a linear-time matcher answers at once. No timing assertion: if the bug came
    /// back, this test would not finish.
    func testNestedQuantifiersOverALongSubjectFinish() {
        let line = String(repeating: "a", count: 5000)
        XCTAssertFalse(matches("(a+)+$", line + "b"))
        XCTAssertTrue(matches("(a+)+$", line))
        XCTAssertFalse(matches("(a|aa)*c", line))
        XCTAssertFalse(matches("^(\\w+\\s?)*$", String(repeating: "word ", count: 1000) + "!"))
        XCTAssertFalse(matches("(x+x+)+y", String(repeating: "x", count: 5000)))
        XCTAssertFalse(matches("(?i)(.*a){12}b", line))
        XCTAssertTrue(matches("(.*a){12}", line))
    }

    func testFieldFilterWithANestedQuantifierFinishes() throws {
        let record = try JSONParser.parse(#"{"type":"garment","name":"\#(String(repeating: "a", count: 5000))b"}"#).object!
        XCTAssertFalse(try FieldFilter.parse("name~(a+)+$").matches(record))
        XCTAssertTrue(try FieldFilter.parse("name!~(a+)+$").matches(record))
    }

    // MARK: Constructs

    func testLiteralsAndEscapes() {
        XCTAssertTrue(matches("coat", "Camel coat"))
        XCTAssertFalse(matches("coat", "Camel Coat"))
        XCTAssertTrue(matches("a\\.b", "a.b"))
        XCTAssertFalse(matches("a\\.b", "axb"))
        XCTAssertTrue(matches("\\\\", "back\\slash"))
        XCTAssertTrue(matches("\\t\\n", "a\t\nb"))
        XCTAssertTrue(matches("\\u00e9t\\x{E9}", "été"))
        XCTAssertTrue(matches("\\x41\\0102", "AB"))
        XCTAssertTrue(matches("\\Qa.b*\\E", "xa.b*"))
        XCTAssertFalse(matches("\\Qa.b\\E", "axb"))
        XCTAssertTrue(matches("\\y\\-\\#", "y-#"), "other escaped characters stand for themselves, as in ICU")
        XCTAssertTrue(matches("]", "a]"), "a lone ] is a character")
    }

    func testClassShorthands() {
        XCTAssertTrue(matches("\\d", "size \u{663}"), "\\d is any decimal digit")
        XCTAssertFalse(matches("\\d", "\u{B2}"))
        XCTAssertTrue(matches("^\\w+$", "Ünïcode_\u{301}"))
        XCTAssertTrue(matches("\\W", "a-b"))
        XCTAssertTrue(matches("\\s", "a\u{A0}b"))
        XCTAssertFalse(matches("\\S", " \t\n"))
        XCTAssertTrue(matches("\\D\\d", "x1"))
    }

    func testDotIsOneScalarAndNotALineTerminator() {
        XCTAssertTrue(matches("^.$", "😀"))
        XCTAssertTrue(matches("^..$", "e\u{301}"), "a combining mark is a scalar of its own")
        XCTAssertFalse(matches("a.b", "a\nb"))
        XCTAssertFalse(matches("a.b", "a\u{2028}b"))
        XCTAssertTrue(matches("a.b", "a\u{1C}b"))
        XCTAssertTrue(matches("(?s)a.b", "a\nb"))
    }

    func testCharacterClasses() {
        XCTAssertTrue(matches("[abc]", "xxb"))
        XCTAssertFalse(matches("[^a-z]", "abc"))
        XCTAssertTrue(matches("[^a-z]", "abC"))
        XCTAssertTrue(matches("[\\d_]", "_"))
        XCTAssertTrue(matches("[a-]", "-"))
        XCTAssertTrue(matches("[\\d-z]", "-"), "a - after a class shorthand is a character")
        XCTAssertTrue(matches("[]a]", "]"))
        XCTAssertTrue(matches("[^]]", "a"))
        XCTAssertTrue(matches("[\\]\\[]", "["))
        XCTAssertTrue(matches("[.]", "."))
        XCTAssertFalse(matches("[.]", "a"))
        XCTAssertTrue(matches("[😀-😂]", "😁"))
        XCTAssertTrue(matches("[\\b]", "b"), "ICU reads [\\b] as [b]")
    }

    func testAnchors() {
        XCTAssertTrue(matches("^Navy", "Navy coat"))
        XCTAssertFalse(matches("^Navy", "A Navy coat"))
        XCTAssertTrue(matches("coat$", "Navy coat"))
        XCTAssertTrue(matches("coat$", "Navy coat\n"), "$ stands before a final line terminator")
        XCTAssertTrue(matches("coat$", "Navy coat\r\n"))
        XCTAssertFalse(matches("coat$", "Navy coat\n\n"))
        XCTAssertFalse(matches("coat$", "coat\nhanger"), "no multi-line mode")
        XCTAssertFalse(matches("^hanger", "coat\nhanger"))
        XCTAssertTrue(matches("^$", ""))
        XCTAssertTrue(matches("^$", "\r\n"))
        XCTAssertFalse(matches("^$", "\n\r"))
        XCTAssertTrue(matches("\\Acoat\\z", "coat"))
        XCTAssertFalse(matches("coat\\z", "coat\n"))
        XCTAssertTrue(matches("coat\\Z", "coat\n"))
        XCTAssertTrue(matches("^*a", "a"), "ICU lets ^ and $ repeat")
    }

    func testWordBoundaries() {
        XCTAssertTrue(matches("\\bwool\\b", "merino wool, 80%"))
        XCTAssertFalse(matches("\\bwool\\b", "woollen"))
        XCTAssertTrue(matches("\\Bool", "wool"))
        XCTAssertFalse(matches("\\b", ""))
        XCTAssertTrue(matches("\\B", ""))
        XCTAssertFalse(matches("e\\b", "e\u{301}"), "no boundary before a combining mark")
        XCTAssertTrue(matches("\u{301}\\b", "e\u{301}"), "the character before is the last one not combining")
        XCTAssertFalse(matches("a\\b", "a\u{AD}"), "nor before a format character")
    }

    func testGroupsAndAlternation() {
        XCTAssertTrue(matches("wool|cotton", "organic cotton"))
        XCTAssertFalse(matches("wool|cotton", "linen"))
        XCTAssertTrue(matches("^(?:navy|black) (coat|jacket)$", "black jacket"))
        XCTAssertTrue(matches("(?<colour>red|blue) dress", "a blue dress"))
        XCTAssertTrue(matches("(?#a comment)x", "x"))
        XCTAssertTrue(matches("a|", "b"), "an empty alternative matches everywhere")
        XCTAssertTrue(matches("", "anything"))
        XCTAssertTrue(matches("()", ""))
    }

    func testQuantifiers() {
        XCTAssertTrue(matches("^a*$", ""))
        XCTAssertTrue(matches("^a+$", "aaa"))
        XCTAssertFalse(matches("^a+$", ""))
        XCTAssertTrue(matches("^colou?r$", "color"))
        XCTAssertTrue(matches("^\\d{4}-\\d{2}$", "2026-11"))
        XCTAssertFalse(matches("^\\d{4}$", "202"))
        XCTAssertTrue(matches("^a{2,}$", "aaaa"))
        XCTAssertFalse(matches("^a{2,3}$", "aaaa"))
        XCTAssertTrue(matches("^a{0}b$", "b"))
        XCTAssertTrue(matches("^a*?b+?c??$", "aabb"), "lazy quantifiers find the same matches")
        XCTAssertTrue(matches("^(a|b){1,3}?$", "ab"))
        XCTAssertTrue(matches("^(a*)*$", "aaa"), "a loop whose body can match nothing")
    }

    func testCaseInsensitiveFlag() {
        XCTAssertTrue(matches("(?i)uniqlo", "UNIQLO"))
        XCTAssertTrue(matches("(?i)^ÉTÉ$", "été"))
        XCTAssertTrue(matches("(?i)[a-z]+", "ABC"))
        XCTAssertFalse(matches("(?i)[^k]", "K"), "case closing comes before the complement, as in ICU")
        XCTAssertTrue(matches("(?i)k", "\u{212A}"), "the Kelvin sign folds to k")
        XCTAssertTrue(matches("(?i)[s]", "\u{17F}"), "long s folds to s")
        XCTAssertTrue(matches("(?i)σ", "ς"))
        XCTAssertFalse(matches("(?i)i", "ı"), "dotless i folds to itself")
        XCTAssertTrue(matches("(?i:a)b", "Ab"))
        XCTAssertFalse(matches("(?i:a)b", "AB"), "a flag group ends with its group")
        XCTAssertFalse(matches("(a(?i)b)c", "aBC"), "a flag applies to the rest of its group")
        XCTAssertTrue(matches("a(?i)b|c", "C"), "including later alternatives")
        XCTAssertFalse(matches("(?i)a(?-i)b", "AB"))
    }

    func testLineBreakEscapeKeepsCRLFWhole() {
        XCTAssertTrue(matches("a\\Rb", "a\r\nb"))
        XCTAssertTrue(matches("a\\Rb", "a\u{2028}b"))
        XCTAssertFalse(matches("^\\R{2}$", "\r\n"), "as ICU, \\R never splits \\r\\n")
        XCTAssertTrue(matches("^\\R{2}$", "\n\r"))
    }

    // MARK: Refusals

    func testBackreferencesAreRefusedAsNotLinear() {
        let error = refusal("(a)\\1")
        guard case .regexUnsupported(let pattern, let construct, let reason)? = error else { return XCTFail("\(String(describing: error))") }
        XCTAssertEqual(pattern, "(a)\\1")
        XCTAssertEqual(construct, "a backreference (\"\\1\")")
        XCTAssertEqual(reason, "cannot be matched in linear time")
        XCTAssertEqual(error?.description, #"regular expression "(a)\1" uses a backreference ("\1"), which cannot be matched in linear time; rewrite the pattern without it"#)
        XCTAssertNotNil(refusal("(?<n>a)\\k<n>"))
    }

    func testConstructsOutsideTheSupportedSetAreRefused() {
        for pattern in ["(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(?>a)", "a*+", "a++", "a?+", "a{2}+", "\\G", "\\p{L}", "\\P{L}",
                        "\\N{LATIN SMALL LETTER A}", "\\X", "[[:alpha:]]", "[:alpha:]", "[a[b]]", "[a&&b]", "[a--b]", "(?m)^a", "(?x) a", "(?w)\\b"] {
            guard case .regexUnsupported(let named, _, _)? = refusal(pattern) else {
                XCTFail("\(pattern) was not refused as unsupported: \(String(describing: refusal(pattern)))")
                continue
            }
            XCTAssertEqual(named, pattern)
        }
        XCTAssertNotNil(refusal(String(repeating: "(", count: 500) + "a" + String(repeating: ")", count: 500)), "nesting is bounded")
    }

    func testSyntaxErrorsSayWhere() {
        for (pattern, offset) in [("(unclosed", 0), ("a)", 1), ("*a", 0), ("a**", 2), ("a{2,1}", 1), ("a{", 1), ("}", 0), ("[z-a]", 1),
                                  ("[abc", 0), ("a\\", 1), ("\\x{110000}", 0), ("\\u12", 0), ("(?q)", 2), ("\\b+", 2)] {
            guard case .regexSyntax(let named, let at, _)? = refusal(pattern) else {
                XCTFail("\(pattern): \(String(describing: refusal(pattern)))")
                continue
            }
            XCTAssertEqual(named, pattern)
            XCTAssertEqual(at, offset, pattern)
        }
        XCTAssertEqual(refusal("a{2,1}")?.description, #"invalid regular expression "a{2,1}": a repetition must read {m}, {m,} or {m,n} with m ≤ n at character 2"#)
    }

    func testLargeRepetitionsAreBounded() {
        XCTAssertEqual(refusal("a{100000}"), .regexTooLarge(pattern: "a{100000}", limit: RegexProgram.maxInstructions))
        XCTAssertEqual(refusal("((a{100}){100}){100}"), .regexTooLarge(pattern: "((a{100}){100}){100}", limit: RegexProgram.maxInstructions))
        XCTAssertTrue(matches("^(?:a{10}){100}$", String(repeating: "a", count: 1000)))
        XCTAssertTrue(matches("^(?:){2000000000}$", ""), "repeating nothing costs nothing")
        XCTAssertTrue(matches("^.{0,1000}$", String(repeating: "x", count: 1000)))
    }

    func testFieldFilterRefusesABackreferenceWithTheMatcherMessage() {
        XCTAssertThrowsError(try FieldFilter.parse("name~(a)\\1")) { error in
            XCTAssertEqual((error as? RecordsError)?.reason,
                           #"regular expression "(a)\1" uses a backreference ("\1"), which cannot be matched in linear time; rewrite the pattern without it"#)
        }
    }

    // MARK: The matcher's cache

    /// Many distinct states and non-ASCII classes force the lazy DFA to empty its cache and
    /// widen its table; the answers must not change.
    func testCacheResetsKeepAnswersRight() {
        // (a|b)*a(a|b){13} needs 2^14 DFA states, more than the cache holds, over a long random subject.
        var random = SplitMix64(seed: 42)
        var subject = ""
        for _ in 0..<40_000 { subject.append(random.next() >> 63 == 0 ? "a" : "b") }
        let nfa = try! RegularExpression("(a|b)*a(a|b){13}c")
        XCTAssertFalse(nfa.matches(subject))
        XCTAssertTrue(nfa.matches(subject + "c") == subject.dropLast(13).hasSuffix("a"))
        let letters = "^[^x]*[" + (0x400..<0x440).map { String(Unicode.Scalar($0)!) }.joined(separator: "][") + "]"
        XCTAssertTrue(matches(letters, "ab" + (0x400..<0x440).map { String(Unicode.Scalar($0)!) }.joined()))
    }
}
