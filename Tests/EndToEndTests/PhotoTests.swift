import Foundation
import XCTest

/// Photos end to end: `atl-import --images`, `atl-classify --task hash` and
/// `atl-query duplicates` on photos made by Pillow, checked against Pillow/imagehash and the
/// files on disk.
final class PhotoTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws {
        sh = try Shell()
        let made = try sh.run("python3 \(Shell.root)/Tests/EndToEndTests/Support/make_photos.py .")
        XCTAssertEqual(made.status, 0, "make_photos.py needs Pillow (make test installs it): \(made.err)")
    }

    override func tearDown() { sh.remove() }

    func testImportStoresEachPhotoOnceWithThumbnailsAndExif() throws {
        try sh.run("atl-import --sample > /dev/null")
        let garment = try sh.run("atl-query garments --limit 1 --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        let first = try sh.run("atl-import --images wardrobe --garment \(garment)")
        XCTAssertEqual(first.status, 0, first.err)
        let records = Shell.records(first)
        XCTAssertEqual(records.count, 11)
        for record in records {
            let path = try XCTUnwrap(record["path"] as? String)
            let source = try XCTUnwrap(record["source"] as? String)
            // The stored file is the original, byte for byte, named by its sha256.
            let sum = try sh.run("sha256sum < '\(source)' | cut -d' ' -f1; cmp '\(source)' '\(path)' && echo same")
            XCTAssertEqual(sum.lines, [String((record["id"] as! String).dropFirst(7)), "same"])
            XCTAssertEqual(record["garment"] as? String, garment)
            // Thumbnails, read by Pillow: 256 pixels on the longer side, and a square of 256 (or of
            // the shorter side of a smaller photo: thumbnails never enlarge).
            let sizes = try sh.run(#"python3 -c "import sys; from PIL import Image; print(*[Image.open(p).size for p in sys.argv[1:]])" "\#(record["thumbnail"]!)" "\#(record["thumbnailSquare"]!)""#)
            let side = min(256, record["height"] as! Int)
            XCTAssertEqual(sizes.out, "(256, \(256 * (record["height"] as! Int) / (record["width"] as! Int))) (\(side), \(side))\n", sizes.err)
        }
        let shirt = try XCTUnwrap(records.first { ($0["source"] as? String)?.hasSuffix("/garment-1.jpg") == true })
        XCTAssertEqual(shirt["width"] as? Int, 640)
        XCTAssertEqual(shirt["takenAt"] as? String, "2026-11-11T09:30:00Z")
        let camera = try XCTUnwrap(shirt["camera"] as? [String: Any])
        XCTAssertEqual(camera["make"] as? String, "Atelier Test Camera")
        XCTAssertEqual(camera["focalLength35mmMm"] as? Double, 26)
        XCTAssertEqual(camera["focalLengthMm"] as? Double, 4.2, "Pillow writes it as a DOUBLE, not a RATIONAL")
        XCTAssertEqual(try sh.run("atl-query garments --where id=\(garment) | jq '.images | length'").out, "11\n")

        // Again: nothing new is written, and it says so.
        let before = try sh.run("find images -type f | sort | xargs sha256sum").out
        let second = try sh.run("atl-import --images wardrobe")
        XCTAssertEqual(second.status, 0)
        XCTAssertEqual(second.err, "atl-import: 0 new photos stored, 11 already in the catalog\n")
        XCTAssertEqual(Shell.records(second).count, 11, "the photos are still listed, for the next tool in the pipe")
        XCTAssertEqual(try sh.run("find images -type f | sort | xargs sha256sum").out, before)
        XCTAssertEqual(try sh.run(#"sqlite3 "$ATELIER_DB" 'SELECT count(*) FROM images'"#).out, "11\n")
    }

    func testCopiesInOneRunAndAbandonedStagingDirectories() throws {
        // A killed import leaves its staging directory; the next import removes it, but not one
        // whose process still runs (pid 1 always does).
        try sh.run("mkdir -p images/.staging-999999999-7 images/.staging-1-7 && echo partial > images/.staging-999999999-7/0")
        try sh.run("mkdir copies && cp wardrobe/garment-1.jpg copies/again.jpg")
        let result = try sh.run("atl-import --images wardrobe copies")
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "atl-import: 11 new photos stored, 1 already in the catalog\n", "a copy under another name is one photo")
        XCTAssertEqual(Shell.records(result).count, 12)
        XCTAssertEqual(try sh.run("ls -a images | grep staging").out, ".staging-1-7\n")
        XCTAssertEqual(try sh.run("find images -type f | wc -l").out, "33\n", "11 photos and 22 thumbnails")
        XCTAssertEqual(try sh.run(#"sqlite3 "$ATELIER_DB" 'SELECT count(*) FROM images'"#).out, "11\n")
    }

    func testBadPhotosAreNamedAndNothingIsHalfWritten() throws {
        for (file, message) in [("empty.jpg", "not a JPEG or PNG image (empty file)"),
                                ("notes.jpg", "not a JPEG or PNG image (it looks like text)"),
                                ("truncated.jpg", "damaged image: Premature end of JPEG file"),
                                ("bomb.jpg", "image is 60000×60000 pixels, more than the limit of 100000000 (raise it with --max-pixels)"),
                                ("broken.png", "damaged image:")] {
            let result = try sh.run("atl-import --images wardrobe bad/\(file)")
            XCTAssertEqual(result.status, 65, file)
            XCTAssertTrue(result.err.hasPrefix("atl-import: bad/\(file): \(message)"), result.err)
            XCTAssertTrue(result.err.hasSuffix("; nothing was imported\n"), result.err)
            XCTAssertEqual(result.out, "")
            XCTAssertEqual(try sh.run("find images -type f 2>/dev/null | wc -l").out, "0\n", "no photo of the failed run stays in the store")
        }
        XCTAssertEqual(try sh.run(#"sqlite3 "$ATELIER_DB" 'SELECT count(*) FROM images'"#).out, "0\n")
        let skipping = try sh.run("atl-import --images wardrobe bad --skip-invalid")
        XCTAssertEqual(skipping.status, 0, skipping.err)
        XCTAssertEqual(Shell.records(skipping).count, 11)
        XCTAssertEqual(skipping.err.components(separatedBy: "(skipped)").count - 1, 5, skipping.err)
        XCTAssertTrue(skipping.err.hasSuffix("11 new photos stored, 5 skipped as unreadable\n"), skipping.err)
        let missing = try sh.run("atl-import --images no-such-dir")
        XCTAssertEqual(missing.status, 66)
        let huge = try sh.run("atl-import --images bad/bomb.jpg --max-pixels 4000000000")
        XCTAssertEqual(huge.status, 65, "a raised limit lets the header through, and the damaged data is still refused")
    }

    func testHashesMatchImagehashAndDuplicatesGroup() throws {
        let ours = try sh.run("atl-classify --task hash $(find wardrobe -type f | sort) | jq -r '[.phash, .dhash] | @tsv'")
        XCTAssertEqual(ours.status, 0, ours.err)
        let reference = try sh.run("""
            python3 -c "import sys, imagehash; from PIL import Image
            for p in sys.argv[1:]: print(imagehash.phash(Image.open(p)), imagehash.dhash(Image.open(p)), sep='\\t')" $(find wardrobe -type f | sort)
            """)
        XCTAssertEqual(reference.status, 0, "imagehash is a test dependency (make test installs it): \(reference.err)")
        XCTAssertEqual(ours.lines, reference.lines, "the same bits as Python's imagehash")

        let groups = try sh.run("atl-classify --task hash $(find wardrobe -type f | sort) | atl-query - duplicates")
        XCTAssertEqual(groups.status, 0, groups.err)
        let records = Shell.records(groups)
        func names(_ group: [String: Any]) -> [String] {
            (group["images"] as! [[String: Any]]).map { ($0["path"] as! String).components(separatedBy: "/").last! }.sorted()
        }
        XCTAssertEqual(records.map(names), [
            ["garment-0-bright.jpg", "garment-0-q60.jpg", "garment-0-small.jpg", "garment-0.jpg"],
            ["garment-1-bright.jpg", "garment-1-q60.jpg", "garment-1-small.jpg", "garment-1.jpg"],
            ["garment-2.jpg", "garment-3.jpg", "garment-4.png"],
        ])
        XCTAssertEqual(records.last?["id"] as? String, "other")
        // The catalog computes the same at import, and --threshold 0 keeps only exact matches.
        try sh.run("atl-import --images wardrobe > /dev/null")
        XCTAssertEqual(try sh.run("atl-query duplicates | jq -c .size").lines, ["4", "4", "3"])
        XCTAssertEqual(try sh.run("atl-query duplicates --threshold 0 | jq -c .size").lines, ["4", "4", "3"])
        let unhashed = try sh.run(#"echo '{"type":"image","id":"x"}' | atl-query - duplicates"#)
        XCTAssertEqual(unhashed.status, 1)
        XCTAssertEqual(unhashed.err, "atl-query: 1 image has no phash and was left out; add hashes with: atl-classify --task hash\n")
    }

    func testClassifyPassesOtherRecordsThroughAndFailsClearly() throws {
        let mixed = try sh.run("""
            { echo '{"type":"garment","name":"x"}'; echo '{"type":"image","path":"wardrobe/garment-2.jpg","note":"kept"}'; } | atl-classify --task hash
            """)
        XCTAssertEqual(mixed.status, 0, mixed.err)
        XCTAssertEqual(mixed.lines.first, #"{"type":"garment","name":"x"}"#)
        let image = Shell.records(mixed)[1]
        XCTAssertEqual(image["note"] as? String, "kept")
        XCTAssertNotNil(image["phash"])
        let bad = try sh.run("atl-classify --task hash wardrobe/garment-2.jpg bad/truncated.jpg")
        XCTAssertEqual(bad.status, 65)
        XCTAssertEqual(bad.err, "atl-classify: bad/truncated.jpg: damaged image: Premature end of JPEG file\n")
        let head = try sh.run("atl-classify --task hash $(find wardrobe -type f) | head -1")
        XCTAssertEqual(head.status, 0)
        XCTAssertEqual(head.err, "")
    }

    func testColourReadingsSetTheGarmentsColour() throws {
        try sh.run("atl-import --sample > /dev/null")
        let garment = try sh.run("atl-query garments --limit 1 --fields id | jq -r .id").out.trimmingCharacters(in: .whitespacesAndNewlines)
        // garment-1 is drawn in #6f8b20 on a plain backdrop (make_photos.py, seed 101).
        let reading = try sh.run("atl-classify --task color wardrobe/garment-1.jpg --garment \(garment)")
        XCTAssertEqual(reading.status, 0, reading.err)
        let record = try XCTUnwrap(Shell.records(reading).first)
        XCTAssertEqual(record["type"] as? String, "color")
        XCTAssertEqual(record["colorName"] as? String, "olive")
        XCTAssertEqual(record["backdropExcluded"] as? Bool, true)
        let hex = try XCTUnwrap(record["color"] as? String)
        let rgb = stride(from: 1, to: 7, by: 2).map { Int(hex.dropFirst($0).prefix(2), radix: 16)! }
        XCTAssertLessThan(zip(rgb, [0x6f, 0x8b, 0x20]).map { abs($0 - $1) }.max()!, 8, hex)
        let stored = try sh.run("atl-classify --task color wardrobe/garment-1.jpg --garment \(garment) | atl-import | jq -c '[.id, .color, .colorName]'")
        XCTAssertEqual(stored.out, "[\"\(garment)\",\"\(hex)\",\"olive\"]\n", stored.err)
        // Through the catalog: a photo attached to a garment carries its garment to the reading.
        try sh.run("atl-import --images wardrobe/garment-2.jpg --garment \(garment) > /dev/null")
        let viaImage = try sh.run("atl-query images | atl-classify --task color | atl-import | jq -r .colorName")
        XCTAssertEqual(viaImage.out, "sky blue\n", viaImage.err)
        let nameless = try sh.run("atl-classify --task color wardrobe/garment-3.jpg | atl-import")
        XCTAssertEqual(nameless.status, 65)
        XCTAssertTrue(nameless.err.contains("this color record names no garment"), nameless.err)
    }

    func testQualityAdviceFollowsWhatIsWrongWithThePhoto() throws {
        // A clean photo and three spoilt copies of it, made with Pillow.
        try sh.run(#"""
            python3 -c "
            from PIL import Image, ImageDraw, ImageFilter, ImageEnhance
            im = Image.new('RGB', (768, 512), (236, 236, 236))
            d = ImageDraw.Draw(im)
            d.polygon([(280, 90), (490, 90), (520, 440), (250, 440)], fill=(40, 70, 150))
            for y in range(100, 430, 14): d.line([(270, y), (500, y)], fill=(230, 200, 40), width=4)
            im.save('clean.jpg', quality=92)
            im.filter(ImageFilter.GaussianBlur(6)).save('blurry.jpg', quality=92)
            ImageEnhance.Brightness(im).enhance(0.25).save('dark.jpg', quality=92)
            small = Image.new('RGB', (768, 512), (236, 236, 236)); small.paste(im.resize((154, 102)), (307, 205)); small.save('far.jpg', quality=92)
            "
            """#)
        let result = try sh.run("atl-classify --task quality clean.jpg blurry.jpg dark.jpg far.jpg")
        XCTAssertEqual(result.status, 0, result.err)
        let records = Dictionary(uniqueKeysWithValues: Shell.records(result).map { ($0["path"] as! String, $0) })
        func score(_ photo: String, _ name: String) -> Double { ((records[photo]?["scores"] as? [String: Any])?[name] as? Double) ?? -1 }
        func advice(_ photo: String) -> String { ((records[photo]?["advice"] as? [String]) ?? []).joined(separator: " | ") }
        XCTAssertEqual(records["clean.jpg"]?["verdict"] as? String, "good", advice("clean.jpg"))
        XCTAssertEqual(advice("clean.jpg"), "")
        XCTAssertLessThan(score("blurry.jpg", "sharpness"), score("clean.jpg", "sharpness"))
        XCTAssertTrue(advice("blurry.jpg").contains("blurry"), advice("blurry.jpg"))
        XCTAssertLessThan(score("dark.jpg", "exposure"), score("clean.jpg", "exposure"))
        XCTAssertTrue(advice("dark.jpg").contains("dark") || advice("dark.jpg").contains("exposure"), advice("dark.jpg"))
        XCTAssertLessThan(score("far.jpg", "framing"), score("clean.jpg", "framing"))
        XCTAssertTrue(advice("far.jpg").contains("move closer"), advice("far.jpg"))
        XCTAssertEqual(records["far.jpg"]?["type"] as? String, "quality")
    }

    /// Near-duplicates (re-encoded, halved, 5% cropped, brightened) of five distinct garments:
    /// over every pair, our hashes find them at least as well as imagehash's (F1), and every
    /// re-encoded and resized copy is found.
    func testDuplicatePrecisionAndRecallMatchImagehash() throws {
        let made = try sh.run(#"""
            mkdir -p pairs && python3 -c "
            from PIL import Image, ImageEnhance
            for i in range(5):
                im = Image.open(f'wardrobe/garment-{i}.' + ('png' if i == 4 else 'jpg')).convert('RGB')
                w, h = im.size
                im.save(f'pairs/{i}-original.jpg', quality=92)
                im.save(f'pairs/{i}-q60.jpg', quality=60)
                im.resize((w // 2, h // 2), Image.LANCZOS).save(f'pairs/{i}-half.jpg', quality=90)
                im.crop((w // 20, h // 20, w - w // 20, h - h // 20)).resize((w, h), Image.LANCZOS).save(f'pairs/{i}-crop.jpg', quality=90)
                ImageEnhance.Brightness(im).enhance(1.2).save(f'pairs/{i}-bright.jpg', quality=90)
            "
            """#)
        XCTAssertEqual(made.status, 0, made.err)
        let ours = try sh.run("atl-classify --task hash $(ls pairs/*.jpg | sort) | jq -r '[(.path | split(\"/\") | last), .phash] | @tsv'")
        let theirs = try sh.run("""
            python3 -c "import sys, imagehash; from PIL import Image
            for p in sys.argv[1:]: print(p.split('/')[-1], imagehash.phash(Image.open(p)), sep='\t')" $(ls pairs/*.jpg | sort)
            """)
        XCTAssertEqual(ours.status, 0, ours.err)
        XCTAssertEqual(theirs.status, 0, theirs.err)
        func score(_ lines: [String]) -> (f1: Double, missed: [String]) {
            let items = lines.map { $0.split(separator: "\t").map(String.init) }.map { (name: $0[0], hash: UInt64($0[1], radix: 16)!) }
            var (tp, fp, fn) = (0, 0, 0)
            var missed: [String] = []
            for a in 0 ..< items.count {
                for b in a + 1 ..< items.count {
                    let same = items[a].name.prefix(1) == items[b].name.prefix(1)
                    let found = (items[a].hash ^ items[b].hash).nonzeroBitCount <= 8
                    if same && found { tp += 1 } else if found { fp += 1 } else if same {
                        fn += 1
                        missed.append(items[a].name + "~" + items[b].name)
                    }
                }
            }
            return (2 * Double(tp) / Double(2 * tp + fp + fn), missed)
        }
        let (ourF1, ourMissed) = score(ours.lines)
        let (theirF1, _) = score(theirs.lines)
        XCTAssertEqual(ours.lines.count, 25)
        XCTAssertGreaterThanOrEqual(ourF1, theirF1, "ours \(ourF1), imagehash \(theirF1)")
        XCTAssertGreaterThan(ourF1, 0.6)
        XCTAssertTrue(ourMissed.allSatisfy { $0.contains("crop") || $0.contains("bright") }, "\(ourMissed)")
    }
}
