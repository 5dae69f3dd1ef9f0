import Foundation
import XCTest

/// `atl-classify --task care` end to end: a label photo drawn by the independent test renderer
/// (benchmarks/care/render_test.py, seed 20261123, labels/0206.jpg, whose truth is below), read,
/// stored on a garment through atl-import and checked in the catalog with sqlite3; photos without
/// a label; and the failure paths.
final class CareTests: XCTestCase {
    var sh: Shell!
    static let label = Shell.root + "/examples/care-label.jpg"
    /// The renderer's ground truth for the label: codes in reading order and their ink boxes.
    static let truth: [(code: String, box: [Double])] = [
        ("wash-machine-permanent-press", [112, 395, 121, 115]), ("bleach-any", [274, 356, 98, 105]),
        ("dry-no", [384, 304, 120, 128]), ("iron-low", [537, 286, 114, 105]), ("pro-p", [673, 249, 90, 94]),
    ]

    override func setUpWithError() throws { sh = try Shell() }
    override func tearDown() { sh.remove() }

    static func iou(_ a: [Double], _ b: [Double]) -> Double {
        let ix = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
        let iy = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
        return ix * iy / (a[2] * a[3] + b[2] * b[3] - ix * iy)
    }

    func testALabelReadsAsItsSymbolsInReadingOrderWithBoxesAndConstraints() throws {
        let result = try sh.run("atl-classify --task care '\(Self.label)'")
        XCTAssertEqual(result.status, 0, result.err)
        let record = try XCTUnwrap(Shell.records(result).first)
        XCTAssertEqual(record["type"] as? String, "care")
        XCTAssertEqual(record["path"] as? String, Self.label)
        let symbols = try XCTUnwrap(record["symbols"] as? [[String: Any]])
        XCTAssertEqual(symbols.map { $0["code"] as? String }, Self.truth.map(\.code))
        for (symbol, truth) in zip(symbols, Self.truth) {
            let box = try XCTUnwrap(symbol["box"] as? [Double])
            XCTAssertGreaterThan(Self.iou(box, truth.box), 0.5, "\(truth.code): \(box) against \(truth.box)")
            let confidence = try XCTUnwrap(symbol["confidence"] as? Double)
            XCTAssert((0.5 ... 1).contains(confidence), "\(truth.code): \(confidence)")
        }
        // Together: permanent press (mild), any bleach, no drying, iron at 110 °C, dry clean in P.
        let constraints = try XCTUnwrap(record["constraints"] as? [String: Any])
        XCTAssertEqual(constraints["maxIronCelsius"] as? Int, 110, "\(constraints)")
        XCTAssertEqual(constraints["washProcess"] as? String, "mild", "\(constraints)")
    }

    func testWithGarmentAtlImportStoresTheCodesOnTheGarment() throws {
        try sh.run("atl-import --sample > /dev/null")
        let garment = try sh.run("atl-query garments --limit 1 --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        let stored = try sh.run("atl-classify --task care '\(Self.label)' --garment \(garment) | atl-import | jq -c .care")
        XCTAssertEqual(stored.status, 0, stored.err)
        let codes = "[" + Self.truth.map { "\"\($0.code)\"" }.joined(separator: ",") + "]"
        XCTAssertEqual(stored.out, codes + "\n")
        // Read back with sqlite3, not with our own tools.
        let column = try sh.run("sqlite3 \"$ATELIER_DB\" \"SELECT care FROM garments WHERE id = '\(garment)'\"")
        XCTAssertEqual(column.out, codes + "\n", column.err)
    }

    func testPhotosWithoutALabelGiveNoSymbols() throws {
        // A blank label, a text-only label and a plain fabric, made with Pillow.
        let made = try sh.run(#"""
            python3 -c "
            from PIL import Image, ImageDraw, ImageFilter
            import random
            random.seed(5)
            blank = Image.new('RGB', (1000, 700), (60, 70, 90)); ImageDraw.Draw(blank).rectangle([250, 200, 750, 500], fill=(245, 243, 236)); blank.save('blank.jpg', quality=85)
            text = blank.copy(); d = ImageDraw.Draw(text)
            for i, line in enumerate(['100% COTTON', 'MADE IN PORTUGAL', 'EU 40  UK 12  US 8', 'RN 54867  CA 12345']): d.text((300, 230 + 60 * i), line, fill=(30, 30, 30), font_size=34)
            text.save('text.jpg', quality=85)
            fabric = Image.new('RGB', (1000, 700), (150, 40, 40)); d = ImageDraw.Draw(fabric)
            for x in range(0, 1000, 6): d.line([(x, 0), (x, 700)], fill=(120 + random.randint(0, 30), 30, 30), width=2)
            fabric.filter(ImageFilter.GaussianBlur(1)).save('fabric.jpg', quality=85)
            "
            """#)
        XCTAssertEqual(made.status, 0, made.err)
        let result = try sh.run("atl-classify --task care blank.jpg text.jpg fabric.jpg | jq -c '[.path, .symbols, .constraints]'")
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.lines, ["[\"blank.jpg\",[],{}]", "[\"text.jpg\",[],{}]", "[\"fabric.jpg\",[],{}]"])
    }

    func testACropOfOneSymbolReadsAsThatSymbol() throws {
        // Each symbol cut from the label with no, 4 % and 10 % margin around its ink and shrunk to
        // 48 px wide, as a user crops a photo to one symbol; and squares of the fabric and of the
        // label's text, which are no symbol. (The detector alone misses some of the tight ones.)
        let margins = [0.0, 0.04, 0.1]
        let cuts = Self.truth.indices.flatMap { i in
            margins.indices.map { j in
                let box = Self.truth[i].box, m = margins[j] * max(box[2], box[3])
                return "c = im.crop((\(box[0] - m), \(box[1] - m), \(box[0] + box[2] + m), \(box[1] + box[3] + m))); "
                    + "c.resize((48, round(48 * c.height / c.width)), Image.LANCZOS).save('crop\(i)-\(j).png')"
            }
        }
        let script = "from PIL import Image; im = Image.open('\(Self.label)')\n\(cuts.joined(separator: "\n"))\n"
            + "im.crop((20, 20, 120, 120)).save('plain.png'); im.crop((200, 480, 320, 600)).save('text.png')\n"
        try script.write(toFile: sh.dir + "/cut.py", atomically: true, encoding: .utf8)
        let made = try sh.run("python3 cut.py")
        XCTAssertEqual(made.status, 0, made.err)
        let paths = Self.truth.indices.flatMap { i in margins.indices.map { "crop\(i)-\($0).png" } }
        let result = try sh.run("atl-classify --task care \(paths.joined(separator: " ")) plain.png text.png | jq -c '[.path, [.symbols[].code]]'")
        XCTAssertEqual(result.status, 0, result.err)
        let expected = Self.truth.indices.flatMap { i in margins.indices.map { "[\"crop\(i)-\($0).png\",[\"\(Self.truth[i].code)\"]]" } }
        XCTAssertEqual(result.lines, expected + ["[\"plain.png\",[]]", "[\"text.png\",[]]"])
    }

    func testImageRecordsFromTheCatalogNameTheirImage() throws {
        try sh.run("atl-import --sample > /dev/null")
        let garment = try sh.run("atl-query garments --limit 1 --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try sh.run("atl-import --images '\(Self.label)' --garment \(garment) > /dev/null")
        // The photo's own garment carries over: no --garment needed to store the reading.
        let result = try sh.run("atl-query images | atl-classify --task care | tee care.jsonl | atl-import | jq -r '.care | length'")
        XCTAssertEqual(result.out, "\(Self.truth.count)\n", result.err)
        let record = try XCTUnwrap(Shell.records(try sh.run("cat care.jsonl")).first)
        XCTAssertEqual((record["image"] as? String)?.hasPrefix("sha256:"), true)
        XCTAssertEqual(record["garment"] as? String, garment)
    }

    func testBadInputIsNamedAndNothingIsPrinted() throws {
        try sh.run("head -c 3000 '\(Self.label)' > truncated.jpg; echo 'not a photo' > notes.txt")
        let truncated = try sh.run("atl-classify --task care truncated.jpg")
        XCTAssertEqual(truncated.status, 65)
        XCTAssertTrue(truncated.err.contains("truncated.jpg"), truncated.err)
        XCTAssertEqual(truncated.out, "")
        let skipped = try sh.run("atl-classify --task care --skip-invalid notes.txt '\(Self.label)' | jq -r .path")
        XCTAssertEqual(skipped.status, 0)
        XCTAssertEqual(skipped.lines, [Self.label])
        XCTAssertTrue(skipped.err.contains("notes.txt"), skipped.err)
        let badLine = try sh.run("printf '{\"type\":\"image\",\"path\":\"%s\"}\\n{oops\\n' '\(Self.label)' | atl-classify --task care")
        XCTAssertEqual(badLine.status, 65)
        XCTAssertTrue(badLine.err.contains("stdin:2"), badLine.err)
        let range = try sh.run("atl-classify --task care --min-confidence 2 '\(Self.label)'")
        XCTAssertEqual(range.status, 64)
    }

    /// With the networks nowhere (the source tree's hidden by an empty tmpfs, in a mount
    /// namespace of its own: root only, as in CI), exit 66 and one line naming the four files,
    /// every directory searched in order, and what to do; nothing on stdout.
    func testNetworksFoundNowhereAreNamedWithEveryPlaceSearched() throws {
        let models = Shell.root + "/Sources/AtelierCareLabels/Models"
        guard getuid() == 0, try sh.run("unshare -m sh -c 'mount -t tmpfs -o size=64k none \(models)'").status == 0 else {
            throw XCTSkip("hiding the source tree's networks needs root and mount -t tmpfs in unshare -m")
        }
        let result = try sh.run("mkdir empty && ATELIER_MODELS=empty unshare -m sh -c 'mount -t tmpfs -o size=64k none \(models) && exec atl-classify --task care \"\(Self.label)\"'")
        let installed = URL(fileURLWithPath: try sh.run("readlink -f \"$(command -v atl-classify)\"").out.trimmingCharacters(in: .newlines))
            .deletingLastPathComponent().appendingPathComponent("../share/atelier/models").standardizedFileURL.path
        XCTAssertEqual(result.status, 66, result.err)
        XCTAssertEqual(result.err, "atl-classify: the care-symbol networks (care-detector.atlnn, care-classifier.atlnn, care-temperature.atlnn, "
                       + "care-tumble.atlnn) are not in \(sh.dir)/empty, \(installed), \(models); set ATELIER_MODELS to their directory, or run 'make train-care'\n")
        XCTAssertEqual(result.out, "")
    }

    func testMissingOrDamagedNetworksAreReportedNotGuessed() throws {
        try sh.run("mkdir empty partial damaged && cp \(Shell.root)/Sources/AtelierCareLabels/Models/*.atlnn damaged/ && truncate -s 5000 damaged/care-classifier.atlnn"
                   + " && cp \(Shell.root)/Sources/AtelierCareLabels/Models/care-detector.atlnn partial/")
        let found = try sh.run("atl-classify --task care '\(Self.label)'")
        XCTAssertEqual(Shell.records(found).first?["symbols"].flatMap { $0 as? [[String: Any]] }?.map { $0["code"] as? String }, Self.truth.map(\.code))
        // The search goes on past an ATELIER_MODELS without all four networks to the models of
        // the source tree: the same reading, byte for byte, and nothing said about it.
        for dir in ["empty", "partial"] {
            let missing = try sh.run("atl-classify --task care '\(Self.label)'", env: ["ATELIER_MODELS": dir])
            XCTAssertEqual(missing.status, 0, missing.err)
            XCTAssertEqual(missing.err, "", dir)
            XCTAssertEqual(missing.out, found.out, dir)
        }
        let damaged = try sh.run("atl-classify --task care '\(Self.label)'", env: ["ATELIER_MODELS": "damaged"])
        XCTAssertEqual(damaged.status, 70)
        XCTAssertTrue(damaged.err.contains("care-classifier.atlnn"), damaged.err)
        XCTAssertEqual(damaged.out, "")
        // A detail network is checked as the others are: one whose classes its codes do not name.
        try sh.run("mkdir other && cp \(Shell.root)/Sources/AtelierCareLabels/Models/*.atlnn other/ && "
                   + #"sed -i '2s/"classes":\["30",/"classes":["35",/' other/care-temperature.atlnn"#)
        let other = try sh.run("atl-classify --task care '\(Self.label)'", env: ["ATELIER_MODELS": "other"])
        XCTAssertEqual(other.status, 70)
        XCTAssertTrue(other.err.contains("care-temperature.atlnn"), other.err)
        XCTAssertTrue(other.err.contains("not once each of its classes"), other.err)
        XCTAssertEqual(other.out, "")
    }
}
