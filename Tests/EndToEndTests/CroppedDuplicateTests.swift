import Foundation
import XCTest

/// `atl-query duplicates` finding crops, re-framings and small turns by local features, on
/// photos Pillow draws and edits; the pHash alone (`--hash-only`) misses them.
final class CroppedDuplicateTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws {
        sh = try Shell()
        // Two textured "prints" (blobs of many sizes and colours, as fabric and backgrounds
        // give), the first edited four ways.
        let made = try sh.run(#"""
            mkdir -p photos && python3 -c "
            import random
            from PIL import Image, ImageDraw, ImageFilter
            def texture(seed, size=(640, 480)):
                rng = random.Random(seed)
                im = Image.new('RGB', size, (128, 120, 110))
                d = ImageDraw.Draw(im)
                for _ in range(900):
                    x, y, r = rng.uniform(0, size[0]), rng.uniform(0, size[1]), rng.uniform(2, 18)
                    d.ellipse([x - r, y - r, x + r, y + r], fill=tuple(rng.randrange(256) for _ in range(3)))
                return im.filter(ImageFilter.GaussianBlur(1.2))
            a = texture(1)
            w, h = a.size
            a.save('photos/a.jpg', quality=92)
            a.crop((w // 20, h // 20, w - w // 20, h - h // 20)).resize((w, h), Image.LANCZOS).save('photos/a-crop5.jpg', quality=90)
            a.crop((w // 12, h // 12, w, h)).resize((w, h), Image.LANCZOS).save('photos/a-reframe.jpg', quality=90)
            a.crop((w // 10, 0, w, h)).save('photos/a-side.jpg', quality=90)
            a.rotate(3, resample=Image.BICUBIC).crop((w // 12, h // 12, w - w // 12, h - h // 12)).resize((w, h), Image.LANCZOS).save('photos/a-turn.jpg', quality=90)
            a.resize((w // 2, h // 2), Image.LANCZOS).save('photos/a-half.jpg', quality=60)
            texture(2).save('photos/b.jpg', quality=92)
            "
            """#)
        XCTAssertEqual(made.status, 0, "Pillow is a test dependency (make test installs it): \(made.err)")
    }

    override func tearDown() { sh.remove() }

    private func groups(_ result: Shell.Result) -> [[String]] {
        Shell.records(result).filter { $0["id"] as? String != "other" }.map { group in
            (group["images"] as! [[String: Any]]).map { ($0["path"] as! String).components(separatedBy: "/").last! }.sorted()
        }
    }

    func testCropsReframingsAndTurnsGroupWithTheirOriginal() throws {
        try sh.run("atl-classify --task hash photos/*.jpg > hashes.ndjson")
        let found = try sh.run("atl-query - duplicates hashes.ndjson")
        XCTAssertEqual(found.status, 0, found.err)
        // 10 % off one side, kept at its new shape, moves the pHash 22 bits from the original,
        // past the reach of 18; it is within reach of the re-framed copy, and once its features
        // are read, each pair of the group is judged by them.
        XCTAssertEqual(groups(found), [["a-crop5.jpg", "a-half.jpg", "a-reframe.jpg", "a-side.jpg", "a-turn.jpg", "a.jpg"]])
        XCTAssertEqual(found.err, "")
        // The hash alone does not reach the turned copy (its pHash is far), and a catalog gives
        // the same groups as the stream.
        let hashOnly = try sh.run("atl-query - duplicates --hash-only hashes.ndjson")
        XCTAssertFalse(groups(hashOnly).flatMap { $0 }.contains("a-turn.jpg"), hashOnly.out)
        try sh.run("atl-import --images photos > /dev/null")
        let catalog = try sh.run("atl-query duplicates --progress none")
        XCTAssertEqual(catalog.status, 0, catalog.err)
        XCTAssertEqual(Shell.records(catalog).first?["size"] as? Int, 6)
        XCTAssertEqual(Shell.records(catalog).last?["id"] as? String, "other")
    }

    func testACropIsFoundThroughTheWindowsOfItsOriginal() throws {
        try sh.run("atl-classify --task hash photos/a.jpg photos/a-side.jpg photos/b.jpg > hashes.ndjson")
        // Each record carries its 48 window pHashes, and they are what a catalog stores.
        let records = Shell.records(try sh.run("cat hashes.ndjson"))
        XCTAssertEqual(records.map { ($0["phashWindows"] as? String)?.count }, [768, 768, 768])
        XCTAssertTrue(records.allSatisfy { ($0["phashWindows"] as! String).allSatisfy(\.isHexDigit) })
        // 10 % off one side moves the pHash past the reach of the whole photo's (18 bits); the
        // copy's pHash lies close to the window of the original it shows, so the pair is
        // compared, and its features group it.
        let found = try sh.run("atl-query - duplicates hashes.ndjson")
        XCTAssertEqual(found.status, 0, found.err)
        XCTAssertEqual(groups(found), [["a-side.jpg", "a.jpg"]])
        let withoutWindows = try sh.run("jq -c 'del(.phashWindows)' hashes.ndjson | atl-query - duplicates")
        XCTAssertEqual(withoutWindows.status, 0, withoutWindows.err)
        XCTAssertEqual(groups(withoutWindows), [])
        // A catalog keeps them in a column of their own.
        try sh.run("atl-import --images photos > /dev/null")
        let stored = try sh.run(#"sqlite3 "$ATELIER_DB" "SELECT count(*) FROM images WHERE length(phash_windows) = 768 AND json_extract(extra, '$.phashWindows') IS NULL""#)
        XCTAssertEqual(stored.out, "7\n", stored.err)
        // Window hashes that are not hex are refused with the field named.
        let bad = try sh.run(#"echo '{"type":"image","id":"sha256:\#(String(repeating: "0", count: 64))","phashWindows":"xyz"}' | atl-import"#)
        XCTAssertEqual(bad.status, 65)
        XCTAssertTrue(bad.err.contains("phashWindows"), bad.err)
    }

    func testAPlainPhotoAndItsCropAreComparedPixelByPixel() throws {
        // A wall under soft light: a gradient with faint grain, too plain for local features. Its
        // crop (12 % off the left) joins it; the same wall's grain elsewhere does not.
        let made = try sh.run(#"""
            mkdir -p plain && python3 -c "
            import random
            from PIL import Image, ImageFilter
            def wall(seed, size=(480, 360)):
                rng = random.Random(seed)
                grain = Image.new('L', size)
                grain.putdata([rng.randrange(256) for _ in range(size[0] * size[1])])
                grain = grain.filter(ImageFilter.GaussianBlur(1.5))
                light = Image.linear_gradient('L').rotate(60).resize(size)
                return Image.blend(light, grain, 0.25)
            a = wall(1)
            a.save('plain/wall.jpg', quality=92)
            a.crop((58, 0, 480, 360)).save('plain/wall-crop.jpg', quality=90)
            wall(2).save('plain/other-wall.jpg', quality=92)
            "
            """#)
        XCTAssertEqual(made.status, 0, made.err)
        try sh.run("atl-classify --task hash plain/*.jpg > hashes.ndjson")
        let found = try sh.run("atl-query - duplicates hashes.ndjson")
        XCTAssertEqual(found.status, 0, found.err)
        XCTAssertEqual(groups(found), [["wall-crop.jpg", "wall.jpg"]])
    }

    func testAPhotoThatCannotBeReadFallsBackToTheHash() throws {
        try sh.run("atl-classify --task hash photos/a.jpg photos/a-half.jpg photos/b.jpg > hashes.ndjson")
        // The half-size copy's file is gone: its pairs are judged by pHash alone, with a warning.
        try sh.run("rm photos/a-half.jpg")
        let found = try sh.run("atl-query - duplicates hashes.ndjson")
        XCTAssertEqual(found.status, 0, found.err)
        XCTAssertEqual(groups(found), [["a-half.jpg", "a.jpg"]])
        XCTAssertTrue(found.err.hasPrefix("atl-query: \"") && found.err.contains("a-half.jpg") && found.err.contains("judged by pHash alone"), found.err)
        XCTAssertEqual(found.err.split(separator: "\n").count, 1, found.err)
        // Records with no file at all (hashes from elsewhere) are grouped by the hash, silently.
        let bare = try sh.run("jq -c 'del(.path)' hashes.ndjson | atl-query - duplicates")
        XCTAssertEqual(bare.err, "")
        XCTAssertEqual(Shell.records(bare).first?["size"] as? Int, 2)
    }

    func testOptionsAreCheckedBeforeAnythingIsRead() throws {
        let both = try sh.run("atl-query - duplicates --hash-only --verify-within 12 < /dev/null")
        XCTAssertEqual(both.status, 64)
        XCTAssertTrue(both.err.contains("--verify-within reads the photos and --hash-only does not"), both.err)
        let wide = try sh.run("atl-query - duplicates --verify-within 40 < /dev/null")
        XCTAssertEqual(wide.status, 64)
        XCTAssertTrue(wide.err.contains("from 0 to 24"), wide.err)
        let elsewhere = try sh.run("atl-query garments --hash-only")
        XCTAssertEqual(elsewhere.status, 64)
        XCTAssertTrue(elsewhere.err.contains("apply to duplicates only"), elsewhere.err)
    }
}
