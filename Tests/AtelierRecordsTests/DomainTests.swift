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

/// The spellings other apps export, the open vocabularies, and suggestions that never invert.
final class VocabularyAliasTests: XCTestCase {
    func testOtherAppsCareSpellingsReadAsTheirCodes() throws {
        let expected: [(String, String)] = [
            ("bleach-ok", "bleach-any"), ("hand-wash", "wash-hand"), ("tumble-medium", "tumble-normal"),
            ("Hand Wash", "wash-hand"), ("hand_wash_cold", "wash-hand-ambient"), ("DO NOT BLEACH", "bleach-no"),
            ("Non-Chlorine Bleach", "bleach-non-chlorine"), ("tumble dry low", "tumble-low"), ("tumbleDryNoHeat", "tumble-no-heat"),
            ("do-not-tumble-dry", "tumble-no"), ("Line Dry", "dry-line"), ("dry flat in the shade", "dry-flat-shade"),
            ("Iron Low", "iron-low"), ("iron-150c", "iron-medium"), ("do not iron", "iron-no"), ("no steam", "iron-no-steam"),
            ("Dry Clean", "pro-any"), ("do-not-dry-clean", "pro-no"), ("wash-30c", "wash-30"), ("Wash 40°C", "wash-40"),
            ("machine-wash-cold", "wash-30"), ("wash-30-gentle", "wash-30-very-mild"), ("wash-40-permanent-press", "wash-40-mild"),
            ("machine wash warm gentle", "wash-40-very-mild"), ("wash-60-synthetics", "wash-60-mild"), ("don't wring", "wring-no"),
        ]
        for (word, code) in expected {
            XCTAssertEqual(try Domain.careSymbol.canonical(word), code, word)
        }
        // Every alias names a code of the fixed vocabulary, and none says the opposite of it: a
        // "do not" code only for words that say "not", and words that say "not" only for codes
        // that do (`tumble-no-heat` allows tumbling, but without heat).
        for (alias, code) in Domain.careSymbol.aliases {
            XCTAssertTrue(CareSymbolCodes.all.contains(code), alias)
            if code.hasSuffix("-no") { XCTAssertTrue(Vocabulary.negates(alias), "\(alias) → \(code)") }
            if Vocabulary.negates(alias) { XCTAssertTrue(Vocabulary.negates(code), "\(alias) → \(code)") }
        }
    }

    func testASuggestionNeverSaysTheOpposite() {
        XCTAssertEqual(Vocabulary.negates("bleach-no"), true)
        XCTAssertEqual(Vocabulary.negates("bleach-non-chlorine"), true)
        XCTAssertEqual(Vocabulary.negates("doNotBleach"), true)
        XCTAssertEqual(Vocabulary.negates("don't iron"), true)
        XCTAssertEqual(Vocabulary.negates("bleach-ok"), false)
        XCTAssertEqual(Vocabulary.negates("normal"), false)
        XCTAssertEqual(Vocabulary.negates("none"), false)
        // Permissive words near a prohibition get a permissive code or none; and the reverse.
        for word in ["bleach-okay", "bleach-yes", "bleach-fine", "tumble-yes", "iron-okay", "wash-yes", "dryclean-ok"] {
            if let near = Domain.careSymbol.suggestion(for: word) {
                XCTAssertFalse(Vocabulary.negates(near), "\(word) → \(near)")
            }
        }
        for word in ["bleach-not", "no-bleching", "not-tumble", "dont-irons", "never-wash", "nowash"] {
            if let near = Domain.careSymbol.suggestion(for: word) {
                XCTAssertTrue(Vocabulary.negates(near), "\(word) → \(near)")
            }
        }
        XCTAssertThrowsError(try Domain.careSymbol.canonical("bleach-okay")) { error in
            XCTAssertEqual((error as? RecordsError)?.reason, "unknown care symbol \"bleach-okay\"; did you mean \"bleach-any\"?")
        }
        XCTAssertThrowsError(try Domain.careSymbol.canonical("bleach-nope")) { error in
            XCTAssertEqual((error as? RecordsError)?.reason.contains("bleach-any"), false)
        }
    }

    func testSubcategoriesAndFabricsAreOpenStatesAreNot() throws {
        for (word, sub) in [("culottes", "culottes"), ("oxfords", "oxfords"), ("puffer", "puffer"), ("trench", "trenchCoat"),
                            ("watch", "watch"), ("sunglasses", "sunglasses"), ("overall", "overalls"), ("Flip Flops", "sandals")] {
            XCTAssertEqual(try Domain.subcategory.canonical(word), sub, word)
            XCTAssertNotNil(Domain.subcategory(named: sub), sub)
        }
        XCTAssertEqual(Domain.subcategory(named: "culottes")?.category, "bottom")
        XCTAssertEqual(Domain.subcategory(named: "puffer")?.category, "outerwear")
        XCTAssertEqual(Domain.subcategory(named: "watch")?.category, "accessory")
        // Unknown words are kept as given, less the spaces around them; an empty one is refused.
        XCTAssertEqual(try Domain.subcategory.canonical("  Kilt "), "Kilt")
        XCTAssertFalse(Domain.subcategory.isKnownValue("Kilt"))
        XCTAssertThrowsError(try Domain.subcategory.canonical("  "))
        XCTAssertEqual(try Domain.fabric.canonical("denim"), "denim")
        XCTAssertEqual(Domain.fabricGroup("denim"), .natural)
        XCTAssertEqual(try Domain.fabric.canonical("Lambswool"), "wool")
        XCTAssertEqual(try Domain.fabric.canonical("bouclé"), "bouclé")
        XCTAssertNil(Domain.fabricGroup("bouclé"))
        for (word, state) in [("lent", "onLoan"), ("inLaundry", "toWash"), ("in laundry", "toWash"), ("archived", "archived"),
                              ("Sold", "archived"), ("given away", "archived"), ("dirty", "toWash")] {
            XCTAssertEqual(try Domain.state.canonical(word), state, word)
        }
        XCTAssertThrowsError(try Domain.state.canonical("misplaced"))
        // A garment record keeps what the open vocabularies do not know.
        let kept = try Schemas.garment.validate(["type": "garment", "name": "K", "category": "bottom", "subcategory": "kilt",
                                                 "composition": [["fabric": "tartan wool", "percent": 100]]])
        XCTAssertEqual(kept["subcategory"], "kilt")
        XCTAssertEqual(kept["composition"], [["fabric": "tartan wool", "percent": 100]])
    }
}
