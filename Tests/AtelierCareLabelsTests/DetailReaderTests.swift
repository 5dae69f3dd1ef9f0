import AtelierWardrobe
import Foundation
import XCTest
@testable import AtelierCareLabels

/// A detail network decides what a symbol shows inside it (a tub's temperature, a tumble circle's
/// dots or fill); the classifier keeps whether it is such a symbol and which bars are under it.
final class DetailReaderTests: XCTestCase {
    static let classes: [CareSymbol?] = CareSymbol.all.map { $0 } + [nil]
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/AtelierCareLabels/Models")

    /// A shipped detail network, read against the classifier's classes of these tests.
    static func shipped(_ file: String) throws -> DetailReader {
        try DetailReader(network: Network(contentsOf: models.appendingPathComponent(file)), classes: classes)
    }

    /// The temperature network's classes: 30, 40, 50, 60, 70, 95, none.
    static let temperature = try! shipped("care-temperature.atlnn")
    /// The tumble network's classes: 1, 2, 3 dots, filled, none.
    static let tumble = try! shipped("care-tumble.atlnn")

    /// Classifier probabilities with `values` on the named codes ("none" for the last class).
    static func probabilities(_ values: [String: Float]) -> [Float] {
        classes.map { values[$0?.code ?? "none"] ?? 0 }
    }

    static func value(_ p: [Float], _ code: String) -> Float {
        p[classes.firstIndex { ($0?.code ?? "none") == code }!]
    }

    /// The codes `reader` judges, by the name of the network class each shows.
    static func judged(_ reader: DetailReader) -> [String: Set<String>] {
        var out: [String: Set<String>] = [:]
        for (symbol, k) in zip(classes, reader.shown) {
            guard let k else { continue }
            out[reader.network.classes[k], default: []].insert(symbol!.code)
        }
        return out
    }

    func testASplitBetweenDigitsGoesToTheTemperatureRead() {
        // "30" or "70": neither reaches 0.5 on its own, but the tub is sure and so is the digit.
        let p = Self.probabilities(["wash-30": 0.40, "wash-70": 0.35, "none": 0.25])
        let q: [Float] = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01]
        let combined = Self.temperature.combine(p, detail: q)
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
        let combined = Self.temperature.combine(p, detail: q)
        XCTAssertEqual(Self.value(combined, "wash-40-mild"), 0.85, accuracy: 1e-5, "the tubs' share goes to the code both allow")
        XCTAssertEqual(Self.value(combined, "wash-95"), 0, "the classifier ruled it out")
        XCTAssertEqual(Self.value(combined, "wash-60-mild"), 0, "the temperature network ruled it out")
        XCTAssertEqual(Self.value(combined, "iron-low"), 0.15, accuracy: 1e-6)
    }

    func testAPlainTubIsOneOfTheReadings() {
        // The classifier half sees digits that are not there; the temperature network sees an empty tub.
        let p = Self.probabilities(["wash-30": 0.45, "wash-machine": 0.35, "wash-30-mild": 0.1, "none": 0.1])
        let q: [Float] = [0.1, 0, 0, 0, 0, 0, 0.9]
        let combined = Self.temperature.combine(p, detail: q)
        let total: Float = 0.45 * 0.1 + 0.35 * 0.9 + 0.1 * 0.1
        XCTAssertEqual(Self.value(combined, "wash-machine"), 0.9 * 0.35 * 0.9 / total, accuracy: 1e-5)
        XCTAssertGreaterThan(Self.value(combined, "wash-machine"), 0.7)
        XCTAssertEqual(Self.value(combined, "wash-machine-permanent-press"), 0, "the classifier saw no bar on a plain tub")
    }

    func testNothingChangesWhenTheDetailNetworkRulesOutEveryCode() {
        let p = Self.probabilities(["wash-30-very-mild": 0.7, "none": 0.3])
        let q: [Float] = [0, 0, 0, 0, 0, 1, 0]
        XCTAssertEqual(Self.temperature.combine(p, detail: q), p)
    }

    func testAFilledCircleSeenAsEmptyIsMended() {
        // A filled circle at low contrast: the classifier leans to the empty one; the tumble
        // network sees the fill. The bars the classifier saw under neither stay unread.
        let p = Self.probabilities(["tumble-any": 0.45, "tumble-no-heat": 0.3, "tumble-delicate": 0.05, "none": 0.2])
        let q: [Float] = [0.02, 0.01, 0.01, 0.9, 0.06]
        let combined = Self.tumble.combine(p, detail: q)
        let total: Float = 0.45 * 0.06 + 0.3 * 0.9 + 0.05 * 0.06
        XCTAssertEqual(Self.value(combined, "tumble-no-heat"), 0.8 * 0.3 * 0.9 / total, accuracy: 1e-5)
        XCTAssertGreaterThan(Self.value(combined, "tumble-no-heat"), 0.7)
        XCTAssertEqual(Self.value(combined, "none"), 0.2, accuracy: 1e-6)
        XCTAssertEqual(combined.reduce(0, +), 1, accuracy: 1e-5)
    }

    func testOnlyTheirKindOfSymbolIsJudged() throws {
        let tubs = Self.temperature
        XCTAssertEqual(try XCTUnwrap(tubs.share(Self.probabilities(["wash-30": 0.3, "wash-70": 0.3, "none": 0.4]))), 0.6, accuracy: 1e-6)
        XCTAssertNil(tubs.share(Self.probabilities(["wash-30": 0.2, "wash-hand": 0.6, "none": 0.2])))
        XCTAssertEqual(tubs.share(Self.probabilities(["wash-machine": 0.9, "wash-30": 0.1])), 1)
        XCTAssertNil(tubs.share(Self.probabilities(["wash-no": 0.6, "wash-30": 0.4])))
        XCTAssertNil(Self.tumble.share(Self.probabilities(["tumble-no": 0.6, "tumble-low": 0.4])), "a crossed circle's inside is hidden")
        XCTAssertEqual(try XCTUnwrap(Self.tumble.share(Self.probabilities(["tumble-low": 0.3, "tumble-normal": 0.3, "iron-low": 0.4]))),
                       0.6, accuracy: 1e-6)
    }

    func testTheShippedNetworksJudgeWhatTheirSymbolsShow() {
        // The temperature network: every machine-wash tub under the temperature its water shows
        // (nil: ASTM's plain tubs), and nothing else, hand washing included.
        var water: [String: Set<String>] = [:]
        for symbol in CareSymbol.all where symbol.family == .washing && symbol.constraints.washProcess.map({ $0 != .hand }) == true {
            water[symbol.constraints.maxWashCelsius.map(String.init) ?? "none", default: []].insert(symbol.code)
        }
        XCTAssertEqual(Self.judged(Self.temperature), water)
        XCTAssertEqual(water.values.map(\.count).reduce(0, +), 15, "12 with a temperature, 3 plain")
        XCTAssertEqual(Self.judged(Self.tumble), ["1": ["tumble-low"], "2": ["tumble-normal"], "3": ["tumble-high"],
                                                  "filled": ["tumble-no-heat"],
                                                  "none": ["tumble-any", "tumble-permanent-press", "tumble-delicate"]])
    }

    func testANetworkWhoseCodesDoNotFitIsRefused() throws {
        let original = #""classes":["wash-30","bleach-no","tumble-low","none"],"meta":{"#
        let classes = #""classes":["a","b","c","d"],"meta":{"#
        for (codes, message) in [
            ("", "has no \"codes\" object"),
            (#""codes":{"a":["wash-30"],"b":["wash-40"],"c":["wash-50"]},"#, "not once each of its classes"),
            (#""codes":{"a":["wash-30"],"b":["wash-40"],"c":["wash-50"],"d":[]},"#, "no codes for its class \"d\""),
            (#""codes":{"a":["wash-30"],"b":["wash-40"],"c":["wash-50"],"d":["wash-35"]},"#, "names \"wash-35\", which the classifier does not read"),
            (#""codes":{"a":["wash-30"],"b":["wash-40"],"c":["wash-50"],"d":["wash-30"]},"#, "names \"wash-30\" twice"),
        ] {
            let data = NetworkTests.tiny(replacing: original, with: classes + codes)
            let network = try Network(data: data, source: "t.atlnn")
            XCTAssertThrowsError(try DetailReader(network: network, classes: Self.classes)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
                XCTAssertTrue("\(error)".contains("t.atlnn"), "\(error)")
            }
        }
        let fits = NetworkTests.tiny(replacing: original, with: classes + #""codes":{"a":["wash-30"],"b":["wash-40"],"c":["wash-50"],"d":["wash-60"]},"#)
        XCTAssertNoThrow(try DetailReader(network: Network(data: fits, source: "t.atlnn"), classes: Self.classes))
    }
}
