import Foundation
import XCTest

/// `atl-export --format html`: the lookbook of the sample wardrobe (with a photo), read back by
/// Python's HTML parser (`Support/check_site.py`: relative links that resolve, no network, alt
/// text, headings, labelled filters), published whole and incrementally, and opened in headless
/// Chromium from file://: the filters change what is shown, nothing is logged to the console,
/// and the pages are drawn.
final class LookbookTests: XCTestCase {
    static let checker = Shell.root + "/Tests/EndToEndTests/Support/check_site.py"

    func testTheSiteIsWholeLinkedAndRewrittenOnlyWhereItChanged() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        let shirt = try sh.run("atl-query garments --where 'name=White Oxford Shirt' --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try sh.run("cp \(Shell.root)/examples/care-label.jpg label.jpg && atl-import --images label.jpg --garment \(shirt) > /dev/null")
        // A near-duplicate of that photo (half the size, re-encoded), for the duplicates page.
        try sh.run("python3 -c \"from PIL import Image; i = Image.open('label.jpg'); i.resize((i.width // 2, i.height // 2)).save('copy.jpg', quality=80)\" && atl-import --images copy.jpg > /dev/null")
        let first = try sh.run("atl-export --format html -o site")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.hasPrefix("file://") && first.out.contains("/site/index.html"), first.out)
        XCTAssertTrue(first.err.contains("0 unchanged"), first.err)
        let checked = try sh.run("python3 \(Self.checker) site")
        XCTAssertTrue(checked.out.hasPrefix("ok "), checked.out + checked.err)
        // Every garment and outfit has its page; the photo is in the site and on the shirt's page.
        let garments = Int(try sh.run("atl-query garments | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sh.dir + "/site/garments").count, garments)
        let page = try String(contentsOfFile: sh.dir + "/site/garments/\(shirt).html", encoding: .utf8)
        XCTAssertTrue(page.contains("<img src=\"../img/"), page)
        XCTAssertTrue(page.contains("aria-label=\"Machine wash, at most 40 °C"), "care icons with their meaning")
        XCTAssertTrue(try String(contentsOfFile: sh.dir + "/site/insights.html", encoding: .utf8).contains("class=\"bar\""))
        // The laundry plan's loads, as atl-query laundry-plan plans them, and the duplicate photos.
        let laundry = try String(contentsOfFile: sh.dir + "/site/laundry.html", encoding: .utf8)
        let loads = try sh.run("atl-query laundry-plan | jq -c 'select(.type == \"laundry\")' | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(laundry.components(separatedBy: "<article class=\"load\">").count - 1, Int(loads)! + Int(try sh.run("atl-query laundry --where status!=done --where status!=cancelled | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!)
        XCTAssertTrue(try String(contentsOfFile: sh.dir + "/site/photos.html", encoding: .utf8).contains("<h2>2 photos alike</h2>"))
        // The same catalog again: nothing rewritten.
        let second = try sh.run("atl-export --format html -o site")
        XCTAssertTrue(second.err.contains(" 0 files written"), second.err)
        // One garment renamed: its page, the index and its outfits' pages, not the rest.
        try sh.run("echo '{\"type\":\"garment\",\"id\":\"\(shirt)\",\"name\":\"Oxford Shirt\"}' | atl-import > /dev/null")
        let third = try sh.run("atl-export --format html -o site")
        let written = Int(third.err.components(separatedBy: "; ").last!.split(separator: " ").first!)!
        XCTAssertGreaterThan(written, 1, third.err)
        XCTAssertLessThan(written, 10, third.err)
        XCTAssertTrue(try String(contentsOfFile: sh.dir + "/site/garments/\(shirt).html", encoding: .utf8).contains("<h1>Oxford Shirt</h1>"))
        // Only the records on standard input, with '-'.
        let partial = try sh.run("atl-query garments --where category=footwear | atl-export --format html -o shoes -")
        XCTAssertEqual(partial.status, 0, partial.err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sh.dir + "/shoes/garments").count,
                       Int(try sh.run("atl-query garments --where category=footwear | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!)
    }

    func testAnotherDirectoryIsNeverReplaced() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null && mkdir notes && echo mine > notes/todo.txt")
        let refused = try sh.run("atl-export --format html -o notes")
        XCTAssertEqual(refused.status, 73, refused.err)
        XCTAssertTrue(refused.err.contains("will not replace notes"), refused.err)
        XCTAssertEqual(try String(contentsOfFile: sh.dir + "/notes/todo.txt", encoding: .utf8), "mine\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sh.dir).filter { $0.contains(".new-") }, [], "staging left behind")
        XCTAssertEqual(try sh.run("atl-export --format html").status, 64)
        // A one-letter relative name (Foundation's path methods trapped on it).
        XCTAssertEqual(try sh.run("atl-export --format html -o x").status, 0)
        // What a killed export left beside the site (its process gone) is cleared by the next.
        try sh.run("mkdir -p .site.new-999999999/garments && touch .site.new-999999999/garments/x.html")
        XCTAssertEqual(try sh.run("atl-export --format html -o site").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sh.dir + "/.site.new-999999999"))
    }

    func testFiltersWorkInARealBrowserWithoutConsoleErrors() throws {
        guard let browser = ["chromium", "chromium-browser"].first(where: { (try? Shell().run("command -v \($0)").status) == 0 }) else {
            throw XCTSkip("no chromium: apt-get install chromium (the CI installs it)")
        }
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null && atl-export --format html -o site > /dev/null")
        let chrome = "timeout 90 \(browser) --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0"
        let footwear = Int(try sh.run("atl-query garments --where category=footwear | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!
        let all = Int(try sh.run("atl-query garments | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!
        let dom = try sh.run("\(chrome) --dump-dom 'file://\(sh.dir)/site/index.html#category=footwear'")
        XCTAssertEqual(dom.status, 0, dom.err)
        XCTAssertTrue(dom.out.contains(">\(footwear) of \(all) garments<"), "the filter from the address is applied")
        let hidden = dom.out.components(separatedBy: "<li class=\"card\"").dropFirst().filter { $0.prefix(while: { $0 != ">" }).contains("hidden") }.count
        XCTAssertEqual(hidden, all - footwear)
        XCTAssertFalse(dom.out.contains("id=\"filters\" hidden"), "the filters are shown once the script runs")
        for page in ["index.html", "insights.html", "outfits.html", "laundry.html", "photos.html", "garments/" + (try FileManager.default.contentsOfDirectory(atPath: sh.dir + "/site/garments").sorted().first!)] {
            let shot = try sh.run("\(chrome) --window-size=1000,800 --screenshot=shot.png 'file://\(sh.dir)/site/\(page)'")
            XCTAssertEqual(shot.status, 0, shot.err)
            XCTAssertFalse(shot.err.contains("CONSOLE"), "\(page): \(shot.err)")
            XCTAssertFalse(shot.err.contains("Uncaught"), "\(page): \(shot.err)")
            // Drawn, not blank: many colours across the screenshot.
            let colours = try sh.run("python3 -c \"from PIL import Image; print(len(Image.open('shot.png').convert('RGB').getcolors(1 << 24)))\"")
            XCTAssertGreaterThan(Int(colours.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 20, "\(page) looks blank")
        }
    }
}
