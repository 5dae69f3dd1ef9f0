import Foundation
import XCTest
@testable import AtelierCareLabels

/// The temperature network decides a tub's temperature; the classifier keeps whether it is a tub
/// and which bars are under it.
final class TemperatureReaderTests: XCTestCase {
    static let classes: [CareSymbol?] = CareSymbol.all.map { $0 } + [nil]
    static let temperatures: [Int?] = [30, 40, 50, 60, 70, 95, nil]

    /// Classifier probabilities with `values` on the named codes ("none" for the last class).
    static func probabilities(_ values: [String: Float]) -> [Float] {
        classes.map { values[$0?.code ?? "none"] ?? 0 }
    }

    static func value(_ p: [Float], _ code: String) -> Float {
        p[classes.firstIndex { ($0?.code ?? "none") == code }!]
    }

    func testASplitBetweenDigitsGoesToTheTemperatureRead() {
        // "30" or "70": neither reaches 0.5 on its own, but the tub is sure and so is the digit.
        let p = Self.probabilities(["wash-30": 0.40, "wash-70": 0.35, "none": 0.25])
        let q: [Float] = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01]
        let combined = TemperatureReader.combine(p, classes: Self.classes, temperature: q, temperatures: Self.temperatures)
        let total: Float = 0.40 * 0.9 + 0.35 * 0.02
        XCTAssertEqual(Self.value(combined, "wash-30"), 0.75 * 0.40 * 0.9 / total, accuracy: 1e-5)
        XCTAssertGreaterThan(Self.value(combined, "wash-30"), 0.7)
        XCTAssertEqual(Self.value(combined, "wash-70"), 0.75 * 0.35 * 0.02 / total, accuracy: 1e-5)
        XCTAssertEqual(Self.value(combined, "none"), 0.25, accuracy: 1e-6, "what is not a tub is left alone")
        XCTAssertEqual(Self.value(combined, "wash-30-mild"), 0, "the classifier saw no bars")
        XCTAssertEqual(combined.reduce(0, +), 1, accuracy: 1e-5)
    }

    func testBothOpinionsCount() {
        // The classifier is sure of 40 with a bar; the temperature network leans to 95, which no
        // mild wash has, and gives 40 a little: 40 stays, and stays as sure.
        let p = Self.probabilities(["wash-40-mild": 0.8, "wash-60-mild": 0.05, "iron-low": 0.15])
        let q: [Float] = [0.0, 0.2, 0.0, 0.0, 0.0, 0.8, 0.0]
        let combined = TemperatureReader.combine(p, classes: Self.classes, temperature: q, temperatures: Self.temperatures)
        XCTAssertEqual(Self.value(combined, "wash-40-mild"), 0.85, accuracy: 1e-5, "the tubs' share goes to the code both allow")
        XCTAssertEqual(Self.value(combined, "wash-95"), 0, "the classifier ruled it out")
        XCTAssertEqual(Self.value(combined, "wash-60-mild"), 0, "the temperature network ruled it out")
        XCTAssertEqual(Self.value(combined, "iron-low"), 0.15, accuracy: 1e-6)
    }

    func testAPlainTubIsOneOfTheReadings() {
        // The classifier half sees digits that are not there; the temperature network sees an empty tub.
        let p = Self.probabilities(["wash-30": 0.45, "wash-machine": 0.35, "wash-30-mild": 0.1, "none": 0.1])
        let q: [Float] = [0.1, 0, 0, 0, 0, 0, 0.9]
        let combined = TemperatureReader.combine(p, classes: Self.classes, temperature: q, temperatures: Self.temperatures)
        let total: Float = 0.45 * 0.1 + 0.35 * 0.9 + 0.1 * 0.1
        XCTAssertEqual(Self.value(combined, "wash-machine"), 0.9 * 0.35 * 0.9 / total, accuracy: 1e-5)
        XCTAssertGreaterThan(Self.value(combined, "wash-machine"), 0.7)
        XCTAssertEqual(Self.value(combined, "wash-machine-permanent-press"), 0, "the classifier saw no bar on a plain tub")
    }

    func testNothingChangesWhenTheTemperatureNetworkRulesOutEveryCode() {
        let p = Self.probabilities(["wash-30-very-mild": 0.7, "none": 0.3])
        let q: [Float] = [0, 0, 0, 0, 0, 1, 0]
        XCTAssertEqual(TemperatureReader.combine(p, classes: Self.classes, temperature: q, temperatures: Self.temperatures), p)
    }

    func testOnlyMachineWashTubsAreRead() throws {
        XCTAssertEqual(try XCTUnwrap(TemperatureReader.tubShare(Self.probabilities(["wash-30": 0.3, "wash-70": 0.3, "none": 0.4]),
                                                                 classes: Self.classes)), 0.6, accuracy: 1e-6)
        XCTAssertNil(TemperatureReader.tubShare(Self.probabilities(["wash-30": 0.2, "wash-hand": 0.6, "none": 0.2]), classes: Self.classes))
        XCTAssertEqual(TemperatureReader.tubShare(Self.probabilities(["wash-machine": 0.9, "wash-30": 0.1]), classes: Self.classes), 1)
        XCTAssertNil(TemperatureReader.tubShare(Self.probabilities(["wash-no": 0.6, "wash-30": 0.4]), classes: Self.classes))
        XCTAssertNil(TemperatureReader.tub(CareSymbol.named("wash-hand")!), "hand washing states a temperature but shows none")
        XCTAssertNil(TemperatureReader.tub(CareSymbol.named("wash-no")!))
        XCTAssertNil(TemperatureReader.tub(CareSymbol.named("iron-low")!))
        XCTAssertEqual(TemperatureReader.tub(CareSymbol.named("wash-machine-delicate")!)?.process, .veryMild)
        XCTAssertNil(TemperatureReader.tub(CareSymbol.named("wash-machine-delicate")!)?.celsius)
        XCTAssertEqual(TemperatureReader.tub(CareSymbol.named("wash-40-very-mild")!)?.celsius, 40)
        XCTAssertEqual(TemperatureReader.tub(CareSymbol.named("wash-40-very-mild")!)?.process, .veryMild)
        XCTAssertEqual(Set(CareSymbol.all.compactMap(TemperatureReader.tub).map(\.celsius)), Set(Self.temperatures))
        XCTAssertEqual(CareSymbol.all.compactMap(TemperatureReader.tub).count, 15, "12 with a temperature, 3 plain")
    }

    func testANetworkThatNamesOtherClassesIsRefused() throws {
        let original = #"["wash-30","bleach-no","tumble-low","none"]"#
        for (classes, message) in [(#"["30","40","50","hot"]"#, "not all temperatures"),
                                   (#"["30","40","50","none"]"#, "not once each of the temperatures a tub shows")] {
            let network = try Network(data: NetworkTests.tiny(replacing: original, with: classes), source: "t.atlnn")
            XCTAssertThrowsError(try TemperatureReader(network: network)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
                XCTAssertTrue("\(error)".contains("t.atlnn"), "\(error)")
            }
        }
    }
}
