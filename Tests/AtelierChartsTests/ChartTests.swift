import AtelierRecords
import XCTest
@testable import AtelierCharts

/// Axes, the data taken from stats records, and the geometry of the marks.
final class AtelierChartsTests: XCTestCase {
    func testNiceAxes() {
        XCTAssertEqual(ValueAxis(largest: 13).maximum, 15)
        XCTAssertEqual(ValueAxis(largest: 13).step, 5)
        XCTAssertEqual(ValueAxis(largest: 399).maximum, 400)
        XCTAssertEqual(ValueAxis(largest: 0.37).step, 0.1, accuracy: 1e-12)
        XCTAssertEqual(ValueAxis(largest: 0.37).maximum, 0.4, accuracy: 1e-12)
        XCTAssertEqual(ValueAxis(largest: 0).maximum, 1)
        XCTAssertEqual(ValueAxis(largest: 1000).ticks, [0, 200, 400, 600, 800, 1000])
        XCTAssertEqual(ValueAxis(largest: 0.37).label(0.30000000000000004), "0.3")
        XCTAssertEqual(ChartNumber.format(12.5), "12.5")
        XCTAssertEqual(ChartNumber.format(-0.001), "0")
    }

    func record(_ json: String) -> JSONObject { Array(json.utf8).withUnsafeBytes { try! JSONParser.parseObject($0) } }

    func testStatsBecomePointsInTheLargestCurrencyWithoutTheTotal() throws {
        let data = try ChartData.fromStats([
            record(#"{"type":"stats","by":"brand","group":"A","value":{"EUR":10,"USD":5}}"#),
            record(#"{"type":"stats","by":"brand","group":"B","value":{"EUR":30}}"#),
            record(#"{"type":"stats","by":"brand","group":"C"}"#),
            record(#"{"type":"stats","by":"brand","group":"all","total":true,"value":{"EUR":40,"USD":5}}"#),
        ], field: "value")
        XCTAssertEqual(data.points.map(\.label), ["A", "B", "C"])
        XCTAssertEqual(data.points.map(\.value), [10, 30, 0])
        XCTAssertEqual(data.currency, "EUR")
        XCTAssertEqual(data.otherCurrencies, ["USD"])
        XCTAssertEqual(data.axisTitle, "value (EUR)")
        XCTAssertThrowsError(try ChartData.fromStats([record(#"{"type":"garment","name":"x"}"#)], field: nil))
    }

    /// The catalog's words are written as words on the chart; the marks' data keep them, and
    /// brands are shown as spelt.
    func testVocabularyLabelsAreShownAsWords() throws {
        let categories = try ChartData.fromStats([
            record(#"{"type":"stats","by":"category","group":"onePiece","garments":4}"#),
            record(#"{"type":"stats","by":"category","group":"top","garments":9}"#),
        ], field: nil)
        XCTAssertEqual(categories.points.map(\.shown), ["one piece", "top"])
        let svg = try SVGChart(kind: .bars, data: categories, title: "By category").render()
        XCTAssertTrue(svg.contains("data-label=\"onePiece\"") && svg.contains(">one piece</text>"), svg)
        let brands = try ChartData.fromStats([record(#"{"type":"stats","by":"brand","group":"eBay","garments":1}"#)], field: nil)
        XCTAssertEqual(brands.points.map(\.shown), ["eBay"])
        XCTAssertEqual(Wording.spoken("tShirt"), "t-shirt")
        XCTAssertEqual(Wording.spoken("woolAndCashmere"), "wool and cashmere")
        XCTAssertEqual(Wording.spoken("darksDelicate"), "darks delicate")
        XCTAssertEqual(Wording.spoken("MA-1 Jacket"), "MA-1 Jacket")
        XCTAssertEqual(Wording.spoken("bouclé"), "bouclé")
    }

    func testMonthsBetweenAreFilledAtZero() throws {
        let data = try ChartData.fromStats([
            record(#"{"type":"stats","by":"month","group":"2025-11","wears":4}"#),
            record(#"{"type":"stats","by":"month","group":"2026-02","wears":7}"#),
        ], field: nil)
        XCTAssertEqual(data.points.map(\.label), ["2025-11", "2025-12", "2026-01", "2026-02"])
        XCTAssertEqual(data.points.map(\.value), [4, 0, 0, 7])
    }

    func testBarHeightsAreTheirValuesOnTheAxis() throws {
        let data = ChartData(points: [ChartPoint(label: "a", value: 13), ChartPoint(label: "b & c", value: 6.5)], field: "wears", dimension: "category")
        let svg = try SVGChart(kind: .bars, data: data, title: "T", width: 800, height: 480).render()
        // Axis 0…15 over a plot of 480 - 60 - 56 = 364 pixels.
        XCTAssertTrue(svg.contains(##"height="315.47" fill="#0072B2" data-label="a" data-value="13""##), svg)
        XCTAssertTrue(svg.contains(#"data-label="b &amp; c" data-value="6.5""#))
        XCTAssertThrowsError(try SVGChart(kind: .bars, data: ChartData(points: [ChartPoint(label: "x", value: -1)], field: "wears", dimension: "d"), title: "T").render())
    }

    func testPNGThroughLibrsvg() throws {
        let data = ChartData(points: [ChartPoint(label: "a", value: 3)], field: "wears", dimension: "category")
        let png = try PNGRenderer.png(svg: try SVGChart(kind: .bars, data: data, title: "T").render(), width: 320, height: 200)
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // Width and height in the IHDR chunk, big-endian.
        XCTAssertEqual(png[16 ..< 24].map { Int($0) }, [0, 0, 1, 64, 0, 0, 0, 200])
        XCTAssertThrowsError(try PNGRenderer.png(svg: "<svg", width: 10, height: 10))
    }
}

/// The donut's slices: largest first, and past the palette's eight colours the smallest folded
/// into one slice that names them.
final class DonutSliceTests: XCTestCase {
    func testLargestFirstWithTiesInTheOrderGiven() {
        let points = [("a", 1.0), ("b", 5.0), ("c", 3.0), ("d", 5.0)].map { ChartPoint(label: $0.0, value: $0.1) }
        XCTAssertEqual(SVGChart.donutSlices(points).map(\.label), ["b", "d", "c", "a"])
        XCTAssertTrue(SVGChart.donutSlices(points).allSatisfy { $0.others.isEmpty })
    }

    func testEightGroupsKeepTheirColoursAndNineFold() {
        let eight = (1 ... 8).map { ChartPoint(label: "g\($0)", value: Double($0)) }
        XCTAssertEqual(SVGChart.donutSlices(eight).count, 8)
        XCTAssertTrue(SVGChart.donutSlices(eight).allSatisfy { $0.others.isEmpty })
        let forty = (1 ... 40).map { ChartPoint(label: "g\($0)", value: Double($0)) }
        let slices = SVGChart.donutSlices(forty)
        XCTAssertEqual(slices.count, 8)
        XCTAssertEqual(slices.prefix(7).map(\.label), (34 ... 40).reversed().map { "g\($0)" })
        XCTAssertEqual(slices[7].label, "33 more")
        XCTAssertEqual(slices[7].value, Double((1 ... 33).reduce(0, +)))
        XCTAssertEqual(Set(slices[7].others), Set((1 ... 33).map { "g\($0)" }))
    }

    func testTheSVGNamesTheFoldedGroups() throws {
        let points = (1 ... 12).map { ChartPoint(label: "brand <\($0)>", value: Double($0)) }
        let svg = try SVGChart(kind: .donut, data: ChartData(points: points, field: "value", dimension: "brand"), title: "Shares").render()
        XCTAssertEqual(svg.components(separatedBy: "class=\"slice\"").count - 1, 8)
        XCTAssertTrue(svg.contains("data-label=\"5 more\" data-value=\"15\""), svg)
        XCTAssertTrue(svg.contains("data-others=\"[&quot;brand &lt;5&gt;&quot;,"), svg)
    }
}
