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
}
