import AtelierRecords
import Crypto
import XCTest
@testable import AtelierTransfer

final class PairingCodeTests: XCTestCase {
    func testWordListIsTheBIP39EnglishList() {
        let file = PairingCode.wordList.joined(separator: "\n") + "\n"
        XCTAssertEqual(hex(SHA256.hash(data: Array(file.utf8))), "2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda")
        XCTAssertEqual(PairingCode.wordList.count, 2048)
        XCTAssertEqual(Set(PairingCode.wordList.map { $0.prefix(4) }).count, 2048, "unique by their first four letters")
    }

    func testGeneratedCodesParseBackAndUseTheWholeList() {
        var random = SplitMix64(seed: 0xC0DE)
        var seen = Set<String>()
        for _ in 0..<2000 {
            let code = PairingCode.generate(using: &random)
            XCTAssertEqual(code.words.count, 2)
            XCTAssertTrue(PairingCode.numberRange.contains(code.number))
            XCTAssertEqual(try PairingCode(parsing: code.description), code)
            seen.formUnion(code.words)
        }
        XCTAssertGreaterThan(seen.count, 1500, "4000 draws from 2048 words")
        let three = PairingCode.generate(wordCount: 3, using: &random)
        XCTAssertEqual(three.words.count, 3)
        XCTAssertEqual(three.entropyBits, 33)
        XCTAssertEqual(PairingCode.generate().entropyBits, 22)
        XCTAssertNotEqual(PairingCode.generate(), PairingCode.generate())
    }

    func testParsingIsForgivingAboutCaseSpacesSeparatorsAndPrefixes() throws {
        let code = try PairingCode(number: 7, words: ["crane", "orbit"])
        XCTAssertEqual(code.description, "7-crane-orbit")
        XCTAssertEqual(code.passwordBytes, Array("7-crane-orbit".utf8))
        for typed in ["7-crane-orbit", "  7-Crane-ORBIT\n", "7 crane orbit", "007_crane_orbit", "7-cran-orbi", "7-crane-orbi", "7--crane - orbit"] {
            XCTAssertEqual(try PairingCode(parsing: typed), code, typed)
        }
        XCTAssertEqual(try PairingCode(parsing: "12-act-add-zoo").words, ["act", "add", "zoo"], "three-letter words need no prefix")
    }

    func testParsingIsStrictAboutWordsAndShape() {
        func error(_ text: String) -> TransferError? {
            do { _ = try PairingCode(parsing: text); return nil } catch { return error as? TransferError }
        }
        XCTAssertEqual(error("7-crane-orbitt"), .unknownPairingWord("orbitt", suggestion: "orbit"))
        XCTAssertEqual(error("7-crame-orbit"), .unknownPairingWord("crame", suggestion: "crane"))
        XCTAssertEqual(error("7-cra-orbit"), .unknownPairingWord("cra", suggestion: "cry"), "prefixes need four letters")
        XCTAssertEqual(error("7-crane-qqqqqqqq"), .unknownPairingWord("qqqqqqqq", suggestion: nil))
        XCTAssertEqual(error("crane-orbit"), .invalidPairingCode("crane-orbit", reason: "it must start with a number"))
        XCTAssertEqual(error("0-crane-orbit"), .invalidPairingCode("0-crane-orbit", reason: "the number must be 1 to 999"))
        XCTAssertEqual(error("1000-crane-orbit"), .invalidPairingCode("1000-crane-orbit", reason: "the number must be 1 to 999"))
        XCTAssertEqual(error("7-crane"), .invalidPairingCode("7-crane", reason: "it needs 2 to 4 words after the number, not 1"))
        XCTAssertEqual(error("   "), .invalidPairingCode("   ", reason: "it is empty"))
        XCTAssertEqual(error("٧-crane-orbit"), .invalidPairingCode("٧-crane-orbit", reason: "it must start with a number"), "ASCII digits only")
        XCTAssertThrowsError(try PairingCode(number: 7, words: ["crane", "Orbit"]))
        XCTAssertEqual(TransferError.unknownPairingWord("orbitt", suggestion: "orbit").description,
                       "\"orbitt\" is not a pairing-code word (did you mean \"orbit\"?)")
    }
}
