import Foundation
import XCTest

/// `atl-export --format svg|png` on the sample wardrobe's stats, read back with Python's own XML
/// parser and Pillow (`Support/check_chart.py`): the numbers drawn are the numbers given, on
/// the scale the axis shows, within a pixel; the PNG is librsvg's drawing of the same chart.
final class ChartTests: XCTestCase {
    static let checker = Shell.root + "/Tests/EndToEndTests/Support/check_chart.py"

    func testChartsDrawTheNumbersTheyAreGiven() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        for (stats, args, field, kind) in [
            ("--by category", "", "garments", "bars"),
            ("--by brand", "--value value", "value", "bars"),
            ("--by category", "--chart donut --value wears", "wears", "donut"),
            ("--by brand", "--chart donut --value value", "value", "donut"),  // more brands than colours: folded
            ("--by season", "--chart donut", "garments", "donut"),
            ("--by month --since 1y", "", "wears", "line"),
            ("--by weekday --since 90d", "--chart line", "wears", "line"),
            ("--by garment", "", "costPerWear", "ranking"),
            ("--by garment", "--chart ranking --value wears --title 'Most worn'", "wears", "ranking"),
        ] {
            let made = try sh.run("atl-query stats \(stats) > stats.ndjson && atl-export --format svg \(args) -o chart.svg < stats.ndjson")
            XCTAssertEqual(made.status, 0, "\(stats) \(args): \(made.err)")
            let checked = try sh.run("python3 \(Self.checker) svg chart.svg stats.ndjson \(field) \(kind)")
            XCTAssertEqual(checked.out, "ok\n", "\(stats) \(args): \(checked.out)\(checked.err)")
        }
        // The title given is the chart's title, as text.
        XCTAssertTrue(try sh.run("atl-query stats --by garment | atl-export --format svg --title 'Most <worn> & loved' 2>/dev/null").out
            .contains("<title id=\"chart-title\">Most &lt;worn&gt; &amp; loved</title>"))
        // Each garment's bar is drawn in the garment's own colour.
        let ranking = try sh.run("atl-query stats --by garment --where 'name=Yellow Raincoat' | atl-export --format svg").out
        XCTAssertTrue(ranking.contains("fill=\"#f2c12e\""), ranking)
    }

    func testPNGIsTheSameChartDrawnByLibrsvg() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        for (args, kind) in [("--width 640 --height 400", "bars"), ("--chart donut --width 900 --height 500", "donut")] {
            let made = try sh.run("atl-query stats --by category | atl-export --format png \(args) -o chart.png")
            XCTAssertEqual(made.status, 0, made.err)
            let size = args.split(separator: " ").compactMap { Int($0) }
            let checked = try sh.run("python3 \(Self.checker) png chart.png \(size[0]) \(size[1]) \(kind)")
            XCTAssertEqual(checked.out, "ok\n", "\(args): \(checked.out)\(checked.err)")
        }
        // To standard output when it is not a terminal.
        XCTAssertTrue(try sh.run("atl-query stats | atl-export --format png | head -c 8 | od -c | head -1").out.contains("P   N   G"))
    }

    func testBadInputIsRefusedAndNothingIsWritten() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        for (command, status, message) in [
            ("atl-query garments | atl-export --format svg -o chart.svg", 65, "no stats records"),
            ("printf '{\"type\":\"stats\",\"by\":\"category\",\"group\":\"top\",\"garments\":3}\\n{oops\\n' | atl-export --format svg -o chart.svg", 65, "stdin:2:"),
            ("{ atl-query stats --by category; atl-query stats --by brand; } | atl-export --format svg -o chart.svg", 65, "grouped two ways"),
            ("atl-query stats --by category | atl-export --format svg --value colour -o chart.svg", 65, "no stats record has the field"),
            ("atl-query stats --by category | atl-export --format csv --chart donut -o chart.svg", 64, "apply to --format svg and png"),
            ("atl-query stats --by category | atl-export --format svg --width 50 -o chart.svg", 64, "--width"),
            ("printf '{\"type\":\"stats\",\"by\":\"category\",\"group\":\"top\",\"garments\":0}\\n' | atl-export --format svg --chart donut -o chart.svg", 65, "no shares"),
        ] {
            let result = try sh.run(command)
            XCTAssertEqual(result.status, Int32(status), command + ": " + result.err)
            XCTAssertTrue(result.err.contains(message), command + ": " + result.err)
            XCTAssertFalse(FileManager.default.fileExists(atPath: sh.dir + "/chart.svg"), "half-written chart: \(command)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sh.dir).filter { $0.contains("chart") }, [])
    }
}
