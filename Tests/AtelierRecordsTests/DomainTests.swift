import XCTest
@testable import AtelierRecords

final class DomainTests: XCTestCase {
    func testVocabularySuggestsTheNearestValue() {
        XCTAssertThrowsError(try Domain.category.canonical("outwear")) { error in
            XCTAssertEqual((error as? RecordsError)?.reason, "unknown category \"outwear\"; did you mean \"outerwear\"?")
        }
        XCTAssertEqual(try Domain.category.canonical("One Piece"), "onePiece")
        XCTAssertEqual(try Domain.season.canonical("Fall"), "autumn")
        XCTAssertEqual(try Domain.state.canonical("to-wash"), "toWash")
        XCTAssertEqual(try Domain.careSymbol.canonical("WASH-40"), "wash-40")
        XCTAssertThrowsError(try Domain.season.canonical("monsoon")) { error in
            XCTAssertTrue((error as? RecordsError)?.reason.contains("expected one of: spring, summer, autumn, winter") ?? false)
        }
    }

    func testCareCodesMatchTheSharedVocabulary() throws {
        let doc = try String(contentsOfFile: #filePath.components(separatedBy: "/Tests/")[0] + "/../shared/care-symbols.md", encoding: .utf8)
        let codes = doc.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("| `") else { return nil }
            return String(line.dropFirst(3).prefix { $0 != "`" })
        }
        XCTAssertEqual(codes.count, 62)
        XCTAssertEqual(CareSymbolCodes.all, codes)
    }

    func testEverySubcategoryHasAKnownCategoryAndUniqueName() {
        let names = Domain.subcategories.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        for sub in Domain.subcategories {
            XCTAssertTrue(Domain.categoryNames.contains(sub.category))
            XCTAssertGreaterThan(sub.wearsBeforeWash, 0)
        }
    }

    func testSchemaValidationNormalisesAndExplains() throws {
        let record: JSONObject = ["type": "garment", "name": "x", "category": "TOP", "color": "AABBCC", "seasons": ["winter", "Winter", "fall"],
                                  "price": ["amount": 12.5, "currency": "eur"], "createdAt": "2026-11-21T12:00:00+02:00", "custom": ["kept": true]]
        let normalized = try Schemas.garment.validate(record)
        XCTAssertEqual(normalized["category"], "top")
        XCTAssertEqual(normalized["color"], "#aabbcc")
        XCTAssertEqual(normalized["seasons"], ["winter", "autumn"])
        XCTAssertEqual(normalized["price"], ["amount": 12.5, "currency": "EUR"])
        XCTAssertEqual(normalized["createdAt"], "2026-11-21T10:00:00Z")
        XCTAssertEqual(normalized["custom"], ["kept": true])
        func message(_ r: JSONObject) -> String? {
            do { _ = try Schemas.garment.validate(r); return nil } catch { return error.reason }
        }
        XCTAssertEqual(message(["price": ["amount": "12,50"]]), #"field "price.amount" must be a number, got "12,50""#)
        XCTAssertEqual(message(["wearCount": -1]), #"field "wearCount" must be at least 0, got -1"#)
        XCTAssertEqual(message(["purchasedOn": "2026-02-30"]), #"field "purchasedOn" must be a date like 2026-11-21, got "2026-02-30""#)
        XCTAssertEqual(message(["composition": [["fabric": "cotton", "percent": 80], ["fabric": "wool", "percent": 30]]]), #"field "composition": percentages add up to 110.0, more than 100"#)
        XCTAssertEqual(message(["care": ["wash-41"]]), #"field "care": unknown care symbol "wash-41"; did you mean "wash-40"?"#)
    }
}
