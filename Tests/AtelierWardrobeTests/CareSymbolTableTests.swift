import AtelierRecords
import Foundation
import XCTest
@testable import AtelierWardrobe

/// The taxonomy is the interface `care-symbols.md` fixes: every code, exactly, in its family.
final class CareSymbolTableTests: XCTestCase {
    /// (code, family) rows of the shared table, read from the file itself.
    static func sharedTable() throws -> [(code: String, family: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.deletingLastPathComponent().appendingPathComponent("shared/care-symbols.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { return nil }
            return (String(cells[0].dropFirst().dropLast()), cells[1])
        }
    }

    func testEveryCodeOfTheSharedTableExactlyOnceInItsFamily() throws {
        let shared = try Self.sharedTable()
        XCTAssertEqual(shared.count, 62)
        XCTAssertEqual(CareSymbol.all.map(\.code), shared.map(\.code), "same codes, same order")
        XCTAssertEqual(CareSymbol.all.map(\.family.rawValue), shared.map(\.family))
        XCTAssertEqual(CareSymbol.all.map(\.code), CareSymbolCodes.all, "the records' vocabulary agrees")
        for symbol in CareSymbol.all {
            XCTAssertFalse(symbol.meaning.isEmpty, symbol.code)
            XCTAssertNotEqual(symbol.constraints, CareConstraints(), "\(symbol.code) says something")
            XCTAssertEqual(CareSymbol.named(symbol.code), symbol)
        }
        XCTAssertNil(CareSymbol.named("wash-41"))
    }

    func testAWoolJumperLabel() {
        let constraints = CareConstraints(codes: ["wash-30-very-mild", "bleach-no", "tumble-no", "dry-flat", "iron-low", "pro-p-mild", "wring-no"])
        XCTAssertEqual(JSONWriter.string(constraints.jsonObject), """
            {"wash":true,"maxWashCelsius":30,"washProcess":"very-mild","wring":false,"bleach":"none","tumbleDry":false,"naturalDrying":"flat","iron":true,"maxIronCelsius":110,"dryClean":true,"dryCleanSolvents":["P","F"],"dryCleanProcess":"mild"}
            """)
        XCTAssertFalse(constraints.professionalOnly)
    }

    func testTheStrictestSymbolWins() {
        let mixed = CareConstraints(codes: ["wash-60", "wash-40-mild", "bleach-any", "bleach-non-chlorine", "tumble-normal", "tumble-low", "iron-high", "iron-no-steam", "pro-p", "pro-f"])
        XCTAssertEqual(mixed.maxWashCelsius, 40)
        XCTAssertEqual(mixed.washProcess, .mild)
        XCTAssertEqual(mixed.bleach, .nonChlorine)
        XCTAssertEqual(mixed.maxTumbleHeat, .low)
        XCTAssertEqual(mixed.maxIronCelsius, 200)
        XCTAssertEqual(mixed.steam, false)
        XCTAssertEqual(mixed.dryCleanSolvents, ["F"])
        // A "do not" beats any "may".
        XCTAssertEqual(CareConstraints(codes: ["tumble-low", "tumble-no"]).tumbleDry, false)
        XCTAssertEqual(CareConstraints(codes: ["iron-medium", "iron-no"]).iron, false)
        XCTAssertEqual(CareConstraints(codes: ["pro-any", "pro-no"]).dryClean, false)
        // ASTM's "any solvent" leaves the ISO letters in charge.
        XCTAssertEqual(CareConstraints(codes: ["pro-any", "pro-f-mild"]).dryCleanSolvents, ["F"])
        XCTAssertEqual(CareConstraints(codes: ["pro-low-heat", "pro-short-cycle"]).dryCleanNotes, ["low heat", "short cycle"])
    }

    func testProfessionalOnlyWhenHomeWashingIsRuledOut() {
        let silk = CareConstraints(codes: ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"])
        XCTAssertTrue(silk.professionalOnly)
        XCTAssertEqual(silk.jsonObject["professionalOnly"], .bool(true))
        XCTAssertFalse(CareConstraints(codes: ["wash-no", "pro-no", "pro-w-no"]).professionalOnly, "nothing may clean it")
        XCTAssertFalse(CareConstraints(codes: ["wash-hand", "pro-p"]).professionalOnly)
        XCTAssertEqual(CareConstraints(codes: ["wash-hand-ambient"]).maxWashCelsius, 20)
        XCTAssertEqual(CareConstraints(codes: []).jsonObject, [:])
        XCTAssertEqual(CareConstraints(codes: ["not-a-code"]), CareConstraints())
    }
}
