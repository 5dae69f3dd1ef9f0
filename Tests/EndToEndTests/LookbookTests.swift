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
        // The catalog's identifiers are written as words where people read them, and kept where
        // programs do (the filters' values).
        let tee = try sh.run("atl-query garments --where 'name=Black Crew T-Shirt' --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        let teePage = try String(contentsOfFile: sh.dir + "/site/garments/\(tee).html", encoding: .utf8)
        XCTAssertTrue(teePage.contains("top · t-shirt") && teePage.contains("100% organic cotton"), teePage)
        XCTAssertFalse(teePage.contains("tShirt") || teePage.contains("organicCotton"), teePage)
        let index = try String(contentsOfFile: sh.dir + "/site/index.html", encoding: .utf8)
        XCTAssertTrue(index.contains("<option value=\"onePiece\">one piece</option>"), index)
        // Each planned load's heading names its bin and programme in words ("darks delicate:
        // synthetics"), and no heading keeps the stored identifier.
        let planned = try sh.run("atl-query laundry-plan | jq -r 'select(.type == \"laundry\") | .bin + \" \" + .program' | sort -u").lines
        XCTAssertFalse(planned.isEmpty)
        func words(_ identifier: Substring) -> String {
            identifier.reduce(into: "") { out, c in out += c.isUppercase ? " " + c.lowercased() : String(c) }
        }
        for load in planned {
            let parts = load.split(separator: " ")
            XCTAssertTrue(laundry.contains("<h3>\(words(parts[0])): \(words(parts[1]))"), "\(load) in words: \(laundry)")
        }
        let headings = laundry.components(separatedBy: "<h3>").dropFirst().map { $0.components(separatedBy: "</h3>")[0] }
        XCTAssertFalse(headings.isEmpty)
        for heading in headings { XCTAssertNil(heading.range(of: "[a-z][A-Z]", options: .regularExpression), heading) }
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

    // MARK: in a real browser

    static let browse = Shell.root + "/Tests/EndToEndTests/Support/browse.py"
    static let measures = Shell.root + "/Tests/EndToEndTests/Support/view_measures.py"

    /// What headless Chromium saw on a page (`Support/browse.py`): console messages, uncaught
    /// exceptions, failed loads and each `--eval`'s value.
    struct Visit {
        let report: [String: Any]
        var values: [Any] { report["values"] as? [Any] ?? [] }
        /// Everything that should not happen on a page: console errors and warnings, uncaught
        /// exceptions, loads that failed, and browser log errors. (The software GL's note that a
        /// screenshot read pixels back is the test's doing, not the page's.)
        var problems: [String] {
            var found: [String] = []
            if report["ok"] as? Bool != true { found.append("not ok: \(report["error"] ?? "?")") }
            for case let message as [String: Any] in report["console"] as? [Any] ?? [] where ["error", "warning", "assert"].contains(message["level"] as? String ?? "") {
                found.append("console \(message["level"]!): \(message["text"] ?? "")")
            }
            found += (report["exceptions"] as? [String] ?? []).map { "exception: \($0)" }
            for case let failed as [String: Any] in report["failed"] as? [Any] ?? [] { found.append("failed load: \(failed["url"] ?? "") \(failed["error"] ?? "")") }
            for case let entry as [String: Any] in report["log"] as? [Any] ?? [] {
                let text = entry["text"] as? String ?? ""
                if entry["level"] as? String == "error" || (entry["level"] as? String == "warning" && !text.contains("GL Driver Message")) {
                    found.append("log \(entry["level"]!): \(text)")
                }
            }
            return found
        }
    }

    func visit(_ sh: Shell, _ url: String, _ actions: [String]) throws -> Visit {
        let quoted = actions.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let run = try sh.run("python3 \(Self.browse) '\(url)' \(quoted)")
        if run.status == 77 { throw XCTSkip("no chromium: apt-get install chromium (the CI installs it)") }
        XCTAssertEqual(run.status, 0, run.err)
        let report = try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any] ?? [:]
        return Visit(report: report)
    }

    /// Makes every lazy image load now, waits until each is complete, and records the addresses
    /// of those that did not decode (one value).
    static let everyImageLoaded = [
        "--wait", "(document.querySelectorAll('img[loading=lazy]').forEach(function (i) { i.loading = 'eager'; }), true)",
        "--wait", "Array.prototype.every.call(document.images, function (i) { return i.complete; })",
        "--eval", "Array.prototype.filter.call(document.images, function (i) { return !(i.naturalWidth > 0); }).map(function (i) { return i.src; })",
    ]

    func testEveryPageInARealBrowserWithoutConsoleErrorsAndTheFiltersWork() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        let shirt = try sh.run("atl-query garments --where 'name=White Oxford Shirt' --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try sh.run("cp \(Shell.root)/examples/care-label.jpg label.jpg && atl-import --images label.jpg --garment \(shirt) > /dev/null")
        try sh.run("atl-export --format html -o site > /dev/null")
        let site = "file://\(sh.dir)/site/"
        let footwear = Int(try sh.run("atl-query garments --where category=footwear | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!
        let tops = Int(try sh.run("atl-query garments --where category=top | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!
        let all = Int(try sh.run("atl-query garments | wc -l").out.trimmingCharacters(in: .whitespacesAndNewlines))!
        let visible = "document.querySelectorAll('#garments .card:not([hidden])').length"

        // The index, filtered from the address, then by choosing another category as a person
        // would (the select's change event), then by keyboard focus on a select.
        let index = try visit(sh, site + "index.html#category=footwear", Self.everyImageLoaded + [
            "--eval", visible,
            "--eval", "document.getElementById('shown').textContent",
            "--eval", "var s = document.querySelector('select[name=category]'); s.value = 'top'; s.dispatchEvent(new Event('change', {bubbles: true})); " + visible,
            "--eval", "location.hash",
            "--eval", "var s = document.querySelector('select[name=category]'); s.focus(); document.activeElement === s",
            "--eval", "var s = document.querySelector('select[name=category]'); s.value = ''; s.dispatchEvent(new Event('change', {bubbles: true})); " + visible,
            "--shot", "index.png",
        ])
        XCTAssertEqual(index.problems, [])
        XCTAssertEqual(index.values[0] as? [String], [], "images that did not load")
        XCTAssertEqual(index.values[1] as? Int, footwear, "the filter in the address")
        XCTAssertEqual(index.values[2] as? String, "\(footwear) of \(all) garments")
        XCTAssertEqual(index.values[3] as? Int, tops, "choosing another category")
        XCTAssertEqual(index.values[4] as? String, "#category=top", "the filter is kept in the address")
        XCTAssertEqual(index.values[5] as? Bool, true, "the filters take the keyboard focus")
        XCTAssertEqual(index.values[6] as? Int, all, "'any' shows every garment again")

        let outfit = try FileManager.default.contentsOfDirectory(atPath: sh.dir + "/site/outfits").sorted().first!
        for page in ["insights.html", "outfits.html", "laundry.html", "photos.html", "models.html", "outfits/" + outfit, "garments/\(shirt).html"] {
            let seen = try visit(sh, site + page, Self.everyImageLoaded + ["--eval", "document.querySelectorAll('svg, img').length", "--shot", "shot.png"])
            XCTAssertEqual(seen.problems, [], page)
            XCTAssertEqual(seen.values[0] as? [String], [], "\(page): images that did not load")
            // Drawn, not blank: many colours across the screenshot.
            let colours = try sh.run("python3 -c \"from PIL import Image; print(len(Image.open('shot.png').convert('RGB').getcolors(1 << 24)))\"")
            XCTAssertGreaterThan(Int(colours.out.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 20, "\(page) looks blank")
        }
        // The outfit's garments side by side, each with its picture.
        let outfitSeen = try visit(sh, site + "outfits/" + outfit, ["--eval", "document.querySelectorAll('.side .card img, .side .card .swatch').length", "--eval", "document.querySelectorAll('.side .card').length"])
        XCTAssertEqual(outfitSeen.values[0] as? Int, outfitSeen.values[1] as? Int)
        XCTAssertGreaterThan(outfitSeen.values[1] as? Int ?? 0, 1)
    }

    func testAModelIsShownInThreeDAndTurnsInARealBrowser() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try sh.run("atl-import --sample > /dev/null")
        let coat = try sh.run("atl-query garments --where category=outerwear --limit 1 --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        // A mesh written by other code (numpy, Pillow) as atl-reconstruct leaves one, and its
        // model record naming the coat; and a model whose mesh is gone.
        let made = try sh.run("python3 \(Shell.root)/Tests/EndToEndTests/Support/make_model.py mesh")
        XCTAssertEqual(made.status, 0, made.err)
        let id = try sh.run("""
            echo '{"type":"model","garment":"\(coat)","detail":"medium","files":{"mesh":"\(sh.dir)/mesh/model.ply"},"vertices":1227,"faces":2400}' | atl-import | jq -r .id
            """).out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(id.hasPrefix("m_"), id)
        try sh.run("echo '{\"type\":\"model\",\"files\":{\"mesh\":\"\(sh.dir)/gone/model.ply\"}}' | atl-import > /dev/null")
        let export = try sh.run("atl-export --format html -o site")
        XCTAssertEqual(export.status, 0, export.err)
        XCTAssertTrue(export.err.contains("and 1 3D model;"), export.err)
        XCTAssertTrue(export.err.contains("gone/model.ply") && export.err.contains("the lookbook leaves this model out"), export.err)
        let checked = try sh.run("python3 \(Self.checker) site")
        XCTAssertTrue(checked.out.hasPrefix("ok "), checked.out + checked.err)
        // Again: the model's files are not made again, and nothing is rewritten; a changed
        // texture makes them again.
        let again = try sh.run("atl-export --format html -o site")
        XCTAssertTrue(again.err.contains("not made again: 1 of 2") && again.err.contains(" 0 files written"), again.err)
        try sh.run("python3 -c \"from PIL import Image; Image.new('RGB', (64, 64), (0, 114, 178)).save('mesh/texture.png')\"")
        let changed = try sh.run("atl-export --format html -o site")
        XCTAssertFalse(changed.err.contains("not made again"), changed.err)
        XCTAssertTrue(changed.err.contains(" 4 files written"), "the GLB, the USDZ, the still and their fingerprint: \(changed.err)")
        try sh.run("python3 \(Shell.root)/Tests/EndToEndTests/Support/make_model.py mesh > /dev/null && atl-export --format html -o site 2> /dev/null")

        // three.js copied from libjs-three with its licence, and the model's files.
        for file in ["js/three.min.js", "js/GLTFLoader.js", "js/OrbitControls.js", "js/three.js-LICENSE.txt", "js/viewer.js",
                     "models/\(id).html", "models/\(id).glb.js", "models/\(id).usdz", "models/\(id)-poster.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: sh.dir + "/site/" + file), file)
        }
        XCTAssertTrue(try String(contentsOfFile: sh.dir + "/site/js/three.js-LICENSE.txt", encoding: .utf8).contains("Expat"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: sh.dir).filter { $0.hasPrefix(".atl-lookbook-models") }, [], "work files left")
        // The embedded GLB, read back by pygltflib: the mesh's vertices and faces and its texture.
        let glb = try sh.run("""
            python3 -c "
            import base64, re, pygltflib
            text = open('site/models/\(id).glb.js').read()
            data = base64.b64decode(re.search(r'= \\"([A-Za-z0-9+/=]+)\\";', text).group(1))
            g = pygltflib.GLTF2.load_from_bytes(data)
            p = g.meshes[0].primitives[0]
            print(data[:4].decode(), g.accessors[p.attributes.POSITION].count, g.accessors[p.indices].count, len(g.images))
            "
            """)
        XCTAssertEqual(glb.out.trimmingCharacters(in: .whitespacesAndNewlines), "glTF 1227 7200 1", glb.err)
        // The USDZ, opened by Pixar's own library and checked as usdchecker does.
        let usd = try sh.run("python3 \(Shell.root)/scripts/usdcheck.py site/models/\(id).usdz")
        XCTAssertEqual(usd.status, 0, usd.out + usd.err)
        let page = try String(contentsOfFile: sh.dir + "/site/models/\(id).html", encoding: .utf8)
        XCTAssertTrue(page.contains("<a rel=\"ar\" href=\"../models/\(id).usdz\"><img"), "AR Quick Look wants an image as the link's first child")
        XCTAssertTrue(try String(contentsOfFile: sh.dir + "/site/garments/\(coat).html", encoding: .utf8).contains("data-model=\"\(id)\""), "the coat's page shows its model")

        // In the browser: the live view replaces the still (and matches it), the buttons turn it
        // (the red front gives way to the green side), Reset brings the first view back, and a
        // drag with the mouse and the wheel move it through OrbitControls.
        let state = "document.querySelector('.stage').dataset.state"
        let centre = "var r = document.querySelector('.stage canvas').getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;"
        let seen = try visit(sh, "file://\(sh.dir)/site/models/\(id).html", Self.everyImageLoaded + [
            "--wait", state,
            "--eval", state,
            "--eval", "var r = document.querySelector('.stage canvas').getBoundingClientRect(); [r.x, r.y, r.width, r.height].join(',')",
            "--eval", "document.querySelector('.stage .poster').offsetParent === null",
            "--shot", "front.png",
            "--eval", "for (var i = 0; i < 6; i++) document.querySelector('button[data-action=right]').click(); true",
            "--shot", "side.png",
            "--eval", "document.querySelector('button[data-action=reset]').click(); true",
            "--shot", "again.png",
            "--eval", centre + " var c = document.querySelector('.stage canvas'); c.dispatchEvent(new MouseEvent('mousedown', {clientX: x, clientY: y, button: 0, bubbles: true})); document.dispatchEvent(new MouseEvent('mousemove', {clientX: x + 150, clientY: y, bubbles: true})); document.dispatchEvent(new MouseEvent('mouseup', {clientX: x + 150, clientY: y, bubbles: true})); true",
            "--shot", "dragged.png",
            "--eval", centre + " document.querySelector('button[data-action=reset]').click(); for (var i = 0; i < 5; i++) document.querySelector('.stage canvas').dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: x, clientY: y, bubbles: true, cancelable: true})); true",
            "--shot", "zoomed.png",
        ])
        XCTAssertEqual(seen.problems, [])
        XCTAssertEqual(seen.values.first as? [String], [], "images that did not load")
        XCTAssertEqual(seen.values[1] as? String, "ready", "the viewer did not start")
        XCTAssertEqual(seen.values[3] as? Bool, true, "the still is hidden once the view is live")
        let region = try XCTUnwrap(seen.values[2] as? String)
        let measured = try sh.run("python3 \(Self.measures) --region \(region) --poster site/models/\(id)-poster.png front.png side.png again.png dragged.png zoomed.png")
        XCTAssertEqual(measured.status, 0, measured.err)
        let m = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(measured.out.utf8)) as? [String: Any])
        let shots = try XCTUnwrap(m["shots"] as? [[String: Any]])
        let difference = try XCTUnwrap(m["difference"] as? [[Double]])
        let overlap = try XCTUnwrap(m["overlap"] as? [Double])
        let front = try XCTUnwrap(shots[0]["mean"] as? [Double]), side = try XCTUnwrap(shots[1]["mean"] as? [Double])
        XCTAssertGreaterThan(shots[0]["colours"] as? Int ?? 0, 100, "the canvas is not drawn")
        XCTAssertTrue((0.1 ... 0.8).contains(shots[0]["foreground"] as? Double ?? 0), "the model fills part of the view: \(shots[0])")
        XCTAssertGreaterThan(overlap[0], 0.9, "the still and the live view frame the model alike")
        XCTAssertTrue(front[0] > front[1] && front[0] > front[2], "the red front first: \(front)")
        XCTAssertTrue(side[1] > side[0] && side[1] > side[2], "the green side after turning 90°: \(side)")
        XCTAssertGreaterThan(difference[0][1], 10, "turning changes the picture")
        XCTAssertLessThan(difference[0][2], 0.5, "Reset goes back to the first view")
        XCTAssertGreaterThan(difference[0][3], 5, "a drag turns the model")
        XCTAssertGreaterThan(shots[4]["foreground"] as? Double ?? 0, (shots[0]["foreground"] as? Double ?? 1) * 1.2, "the wheel zooms in")

        // The coat's own page shows the same live view.
        let garment = try visit(sh, "file://\(sh.dir)/site/garments/\(coat).html", ["--wait", state, "--eval", state])
        XCTAssertEqual(garment.problems, [])
        XCTAssertEqual(garment.values.first as? String, "ready")

        // Without three.js: a warning, the still and the USDZ, no script, nothing logged.
        let still = try sh.run("ATELIER_THREE_JS=\(sh.dir)/none atl-export --format html -o plain")
        XCTAssertEqual(still.status, 0, still.err)
        XCTAssertTrue(still.err.contains("three.js was not found"), still.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sh.dir + "/plain/js"))
        let plain = try visit(sh, "file://\(sh.dir)/plain/models/\(id).html", Self.everyImageLoaded + ["--eval", "document.scripts.length", "--eval", "document.querySelector('.model-note').textContent"])
        XCTAssertEqual(plain.problems, [])
        XCTAssertEqual(plain.values[0] as? [String], [])
        XCTAssertEqual(plain.values[1] as? Int, 0)
        XCTAssertTrue((plain.values[2] as? String ?? "").contains("libjs-three"))
    }
}
