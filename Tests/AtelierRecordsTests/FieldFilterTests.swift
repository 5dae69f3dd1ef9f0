import AtelierTestSupport
import XCTest
@testable import AtelierRecords

final class FieldFilterTests: XCTestCase {
    let coat: JSONObject = try! JSONParser.parse(#"{"type":"garment","name":"Camel Coat","category":"outerwear","seasons":["autumn","winter"],"wearCount":12,"price":{"amount":420,"currency":"EUR"},"lastWornOn":"2026-11-01","composition":[{"fabric":"wool","percent":90},{"fabric":"cashmere","percent":10}],"favorite":true}"#).object!

    func holds(_ expression: String, today: Int = ISODate.parseDay("2026-11-21")!) throws -> Bool {
        try FieldFilter.parse(expression, today: today).matches(coat)
    }

    func testComparisons() throws {
        XCTAssertTrue(try holds("category=outerwear"))
        XCTAssertFalse(try holds("category!=outerwear"))
        XCTAssertTrue(try holds("wearCount>10"))
        XCTAssertTrue(try holds("wearCount<=12"))
        XCTAssertFalse(try holds("wearCount<12"))
        XCTAssertTrue(try holds("wearCount>=9.5"), "numbers compare as numbers")
        XCTAssertTrue(try holds("price.amount>100"))
        XCTAssertTrue(try holds("price.currency=EUR"))
        XCTAssertTrue(try holds("favorite=true"))
        XCTAssertTrue(try holds("name = 'Camel Coat'"), "quotes and spaces around the operator")
    }

    func testListsMeanAnyElement() throws {
        XCTAssertTrue(try holds("seasons has winter"))
        XCTAssertTrue(try holds("seasons=autumn"))
        XCTAssertFalse(try holds("seasons has summer"))
        XCTAssertTrue(try holds("seasons!=summer"))
        XCTAssertTrue(try holds("composition.fabric=cashmere"))
        XCTAssertTrue(try holds("composition.percent<20"))
    }

    func testRegularExpressions() throws {
        XCTAssertTrue(try holds("name~^Camel"))
        XCTAssertFalse(try holds("name~^camel"))
        XCTAssertTrue(try holds("name~(?i)^camel"))
        XCTAssertTrue(try holds("name!~Blue"))
        XCTAssertThrowsError(try FieldFilter.parse("name~(unclosed"))
    }

    func testDatesIncludingRelativeOnes() throws {
        XCTAssertTrue(try holds("lastWornOn<today"))
        XCTAssertTrue(try holds("lastWornOn>today-30d"))
        XCTAssertFalse(try holds("lastWornOn>today-2w"))
        XCTAssertTrue(try holds("lastWornOn>=2026-11-01"))
        XCTAssertEqual(try FieldFilter.parse("lastWornOn<today-1m", today: ISODate.parseDay("2026-11-21")!).operand, "2026-10-22")
    }

    func testMissingFieldsSatisfyOnlyNegations() throws {
        XCTAssertFalse(try holds("brand=Max Mara"))
        XCTAssertTrue(try holds("brand!=Max Mara"))
        XCTAssertFalse(try holds("brand<Z"))
        XCTAssertTrue(try holds("brand!~x"))
    }

    func testBadExpressionsAreExplained() {
        XCTAssertThrowsError(try FieldFilter.parse("=x")) { XCTAssertTrue("\($0)".contains("field name")) }
        XCTAssertThrowsError(try FieldFilter.parse("category top")) { XCTAssertTrue("\($0)".contains("operator")) }
        XCTAssertThrowsError(try FieldFilter.parse("price.amount>>3")) {
            XCTAssertEqual("\($0)", #"unexpected ">" after "price.amount>" in "price.amount>>3"; quote a value that starts with it ('price.amount>">3"')"#)
        }
        XCTAssertEqual(try FieldFilter.parse(#"notes="=x""#).operand, "=x", "a quoted value may start with an operator")
        XCTAssertEqual(try FieldFilter.parse("notes~^=").operand, "^=", "a regular expression may hold one")
    }

    func testSortingPutsMissingValuesLast() throws {
        var records: [JSONObject] = [["n": 2], ["x": 1], ["n": 10], ["n": 1]]
        sortRecords(&records, by: [try SortKey.parse("-n")])
        XCTAssertEqual(records.map { $0["n"]?.integer }, [10, 2, 1, nil])
        sortRecords(&records, by: [try SortKey.parse("n")])
        XCTAssertEqual(records.map { $0["n"]?.integer }, [1, 2, 10, nil])
    }

    func testProjectionKeepsTypeAndNestedPaths() {
        let projected = projectRecord(coat, fields: [["name"], ["price", "amount"]])
        XCTAssertEqual(JSONWriter.string(projected), #"{"type":"garment","name":"Camel Coat","price":{"amount":420}}"#)
    }

    /// Regression: `ISODate.resolveDay` multiplied and added the count of `today+Nd` without
    /// overflow checks, and `civil(fromDayNumber:)` added to the day number, so
    /// `--where 'lastWornOn<today+9223372036854775807w'` trapped. A relative date outside the
    /// years 0000–9999 is now a RecordsError (a usage error), whatever the size of its count.
    func testRelativeDateWithAHugeCountDoesNotCrash() throws {
        try assertNoCrash("huge relative dates") {
            for text in ["d<today+9223372036854775807w", "d<today+9223372036854775807d", "d<today+9223372036854000000d",
                         "d<today+999999999999999y", "d<today-99999999999999999999999d", "d<today+2912897d", "d<today-739529d"] {
                XCTAssertThrowsError(try FieldFilter.parse(text, today: 20_000), text) { error in
                    XCTAssertTrue("\(error)".contains("out of the range of dates"), "\(error)")
                }
            }
            XCTAssertEqual(try FieldFilter.parse("d<today+2912896d", today: 20_000).operand, "9999-12-31", "the last day there is")
            XCTAssertEqual(try FieldFilter.parse("d>today-739528d", today: 20_000).operand, "0000-01-01", "the first day there is")
            XCTAssertEqual(try FieldFilter.parse("d<today--9223372036854775808d", today: 20_000).operand, "today--9223372036854775808d",
                           "not a relative date: text")
        }
    }

    /// Regression: `FieldFilter.description` wrote the operand bare, so what reads back
    /// differently was not quoted: spaces at either end, quotes of its own, a leading `=` that
    /// joins `<` or `>`, or a leading operator character the parser refuses unquoted.
    func testFilterDescriptionParsesBackToTheSameFilter() throws {
        for text in ["notes=' x'", "notes='x '", #"notes='"x"'"#, #"wearCount<"=3""#, #"notes="=x""#, "notes has ' a'",
                     "notes='\u{A0}x'", "notes=\"' \u{600}\"", "notes='\u{301}x '", "name~' ^a'", "notes=\"'\"", "notes=''"] {
            let filter = try FieldFilter.parse(text, today: 20_000)
            let again = try? FieldFilter.parse(filter.description, today: 20_000)
            XCTAssertEqual(again.map { [$0.field, $0.op.rawValue, $0.operand] }, [filter.field, filter.op.rawValue, filter.operand],
                           "\(text) → \(filter.description)")
        }
        XCTAssertEqual(try FieldFilter.parse("category = top").description, "category=top", "plain operands stay bare")
    }
}
