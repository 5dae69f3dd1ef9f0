import Foundation
import XCTest

/// `atl-reconstruct` run as a user runs it: on a synthetic capture made by `synth-capture`, in
/// pipelines, with its model read back by pycolmap, and on bad input.
final class ReconstructTests: XCTestCase {
    /// One small capture for every test in the class (rendering it takes a few seconds).
    static let capture: String = {
        let dir = NSTemporaryDirectory() + "atelier-reconstruct-capture-\(UUID().uuidString)"
        let shell = try! Shell()
        let result = try! shell.run("synth-capture --preset small-12 --width 640 --height 480 --supersampling 2 --texture-size 1024 -q --out '\(dir)'")
        precondition(result.status == 0, "synth-capture failed: \(result.err)")
        shell.remove()
        return dir
    }()

    var shell: Shell!

    override func setUpWithError() throws { shell = try Shell() }
    override func tearDown() { shell.remove() }

    func testReconstructsACaptureThatPycolmapReadsBack() throws {
        let result = try shell.run("atl-reconstruct --detail sparse '\(Self.capture)' --out m --progress json 2> progress.ndjson")
        XCTAssertEqual(result.status, 0, result.err)
        let records = Shell.records(result)
        XCTAssertEqual(records.count, 1)
        let model = try XCTUnwrap(records.first)
        XCTAssertEqual(model["type"] as? String, "model")
        XCTAssertTrue((model["id"] as? String)?.hasPrefix("m_") ?? false)
        XCTAssertEqual(model["detail"] as? String, "sparse")
        XCTAssertEqual(model["images"] as? Int, 12)
        XCTAssertEqual(model["registered"] as? Int, 12)
        let points = try XCTUnwrap(model["points"] as? Int)
        XCTAssertGreaterThan(points, 500)
        let metrics = try XCTUnwrap(model["metrics"] as? [String: Any])
        let error = try XCTUnwrap(metrics["meanReprojectionErrorPixels"] as? Double)
        XCTAssertLessThan(error, 1)
        XCTAssertEqual((model["skipped"] as? [Any])?.count, 0)
        XCTAssertEqual(model["dir"] as? String, shell.dir + "/m")

        // Progress: NDJSON events through the three stages, in order, ending at 1.
        let events = try String(contentsOfFile: shell.dir + "/progress.ndjson", encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let stages = events.compactMap { $0["stage"] as? String }
        XCTAssertEqual(stages.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } },
                       ["pre-processing", "feature matching", "image alignment"])
        XCTAssertEqual(events.last?["fraction"] as? Double, 1)

        // pycolmap, COLMAP's own reader, loads the model and agrees on what is in it.
        try requirePycolmap()
        let check = try shell.run("""
            python3 -c '
            import pycolmap, numpy as np
            r = pycolmap.Reconstruction("m/sparse")
            errors = [p.error for p in r.points3D.values()]
            print(r.num_reg_images(), r.num_points3D(), len(r.cameras), r.cameras[1].model.name, round(float(np.mean(errors)), 6))
            '
            """)
        XCTAssertEqual(check.status, 0, check.err)
        let fields = check.out.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        XCTAssertEqual(fields[0], "12")
        XCTAssertEqual(Int(fields[1]), points)
        XCTAssertEqual(fields[2], "1")
        XCTAssertEqual(fields[3], "RADIAL")
        XCTAssertLessThan(try XCTUnwrap(Double(fields[4])), 1)

        // The coloured point cloud beside it holds the same points, for viewers.
        let cloud = try shell.run("python3 -c 'import trimesh; c = trimesh.load(\"m/sparse/points3D.ply\"); print(len(c.vertices), c.colors.shape[1])'")
        XCTAssertEqual(cloud.status, 0, cloud.err)
        XCTAssertEqual(cloud.out.trimmingCharacters(in: .whitespacesAndNewlines), "\(points) 4")
    }

    /// A directory of symbolic links to the photos (a common way to pick some) is read like the photos.
    func testFollowsLinksToPhotos() throws {
        let result = try shell.run("mkdir picked && for f in '\(Self.capture)'/img_000[1-6].jpg; do ln -s \"$f\" picked/; done && atl-reconstruct --detail sparse picked -o m --progress none")
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Shell.records(result).first?["images"] as? Int, 6)
    }

    /// Capture records from a transfer, then the end-of-batch record; other records pass through.
    func testReadsCaptureRecordsAndPassesOthersThrough() throws {
        let result = try shell.run("""
            { echo '{"type":"note","text":"kept"}'
              for f in '\(Self.capture)'/img_*.jpg; do printf '{"type":"capture","batch":"b_1","path":"%s"}\\n' "$f"; done
              echo '{"type":"batch","id":"b_1","status":"complete"}'; } | atl-reconstruct --detail sparse -o m --progress none
            """)
        XCTAssertEqual(result.status, 0, result.err)
        let records = Shell.records(result)
        XCTAssertEqual(records.map { $0["type"] as? String }, ["note", "batch", "model"])
        XCTAssertEqual(records.last?["registered"] as? Int, 12)
        XCTAssertEqual(records.last?["batch"] as? String, "b_1")
        XCTAssertTrue(FileManager.default.fileExists(atPath: shell.dir + "/m/sparse/points3D.txt"))
    }

    /// Unusable photos among good ones are left out with the reason, and the model is still made.
    func testLeavesOutUnusablePhotosAndSaysWhy() throws {
        let result = try shell.run("""
            mkdir set && cp '\(Self.capture)'/img_*.jpg set/
            cp set/img_0001.jpg set/img_0099.jpg
            head -c 3000 set/img_0002.jpg > set/broken.jpg
            python3 -c 'from PIL import Image; Image.new("RGB", (640, 480), (200, 200, 200)).save("set/blank.png")'
            atl-reconstruct --detail sparse set -o m --progress none
            """)
        XCTAssertEqual(result.status, 0, result.err)
        let model = try XCTUnwrap(Shell.records(result).last)
        XCTAssertEqual(model["images"] as? Int, 15)
        XCTAssertEqual(model["registered"] as? Int, 12)
        let skipped = try XCTUnwrap(model["skipped"] as? [[String: Any]])
        let reasons = Dictionary(uniqueKeysWithValues: skipped.map { ($0["name"] as! String, $0["reason"] as! String) })
        XCTAssertEqual(Set(reasons.keys), ["blank.png", "broken.jpg", "img_0099.jpg"])
        XCTAssertTrue(reasons["img_0099.jpg"]!.contains("duplicate of img_0001.jpg"), reasons["img_0099.jpg"]!)
        XCTAssertTrue(reasons["blank.png"]!.contains("features"), reasons["blank.png"]!)
        XCTAssertTrue(result.err.contains("atl-reconstruct: broken.jpg: left out:"), result.err)
    }

    /// Masks: features only where the mask is white. A photo masked out entirely has no
    /// features left and is left out; a photo without a mask is used whole, with a warning.
    func testMasksRestrictFeatures() throws {
        let result = try shell.run("""
            mkdir masks
            python3 -c '
            from PIL import Image
            for i in range(1, 12):
                Image.new("L", (640, 480), 0 if i == 3 else 255).save(f"masks/img_{i:04d}.jpg.png")
            '
            atl-reconstruct --detail sparse '\(Self.capture)' --masks masks -o m --progress none
            """)
        XCTAssertEqual(result.status, 0, result.err)
        let model = try XCTUnwrap(Shell.records(result).last)
        XCTAssertEqual(model["registered"] as? Int, 11)
        let skipped = try XCTUnwrap(model["skipped"] as? [[String: Any]])
        XCTAssertEqual(skipped.map { $0["name"] as? String }, ["img_0003.jpg"])
        XCTAssertTrue((skipped.first?["reason"] as? String)?.contains("masked out") ?? false)
        XCTAssertTrue(result.err.contains("no mask in masks for 1 photo (img_0012.jpg); used unmasked"), result.err)
    }

    /// --auto-mask finds the garment on the studio backdrop in every photo and still registers all.
    func testAutomaticMasks() throws {
        let result = try shell.run("atl-reconstruct --detail sparse '\(Self.capture)' --auto-mask -o m --progress none")
        XCTAssertEqual(result.status, 0, result.err)
        let model = try XCTUnwrap(Shell.records(result).last)
        XCTAssertEqual(model["registered"] as? Int, 12)
        XCTAssertEqual((model["metrics"] as? [String: Any])?["automaticallyMasked"] as? Int, 12)
    }

    /// `--garment` names the garment; atl-import stores the model and sets the garment's model.
    func testModelAttachesToAGarmentThroughImport() throws {
        let result = try shell.run("""
            atl-import --sample > /dev/null
            g=$(atl-query garments --limit 1 | jq -r .id)
            atl-reconstruct --detail sparse '\(Self.capture)' --garment "$g" -o m --progress none | atl-import > /dev/null
            atl-query garments --where "id=$g" | jq -r .model
            atl-query models | jq -r '[.garment, .registered, .detail] | @tsv'
            """)
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.lines
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines[0].hasPrefix("m_"), lines[0])
        let fields = lines[1].split(separator: "\t").map(String.init)
        XCTAssertTrue(fields[0].hasPrefix("g_"))
        XCTAssertEqual(Array(fields.dropFirst()), ["12", "sparse"])
    }

    /// File names with spaces or a line break cannot go into COLMAP's text format as they are:
    /// they are renamed in the model (with a warning), and pycolmap reads every image back.
    func testPhotoNamesWithSpacesAndLineBreaksStayReadable() throws {
        try requirePycolmap()
        let result = try shell.run("""
            mkdir set && for f in '\(Self.capture)'/img_*.jpg; do cp "$f" "set/my photo $(basename "$f")"; done
            mv "set/my photo img_0005.jpg" "set/line"$'\\n'"break.jpg"
            atl-reconstruct --detail sparse set -o m --progress none > model.json
            python3 -c 'import pycolmap; r = pycolmap.Reconstruction("m/sparse"); print(r.num_reg_images(), "line_break.jpg" in [i.name for i in r.images.values()], "my_photo_img_0001.jpg" in [i.name for i in r.images.values()])'
            """)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out.trimmingCharacters(in: .whitespacesAndNewlines), "12 True True")
        XCTAssertTrue(result.err.contains("12 photo names with spaces or control characters renamed"), result.err)
    }

    func testTooFewPhotosFailWithDataErrorAndWriteNothing() throws {
        let result = try shell.run("atl-reconstruct --detail sparse '\(Self.capture)/img_0001.jpg' '\(Self.capture)/img_0002.jpg' -o m")
        XCTAssertEqual(result.status, 65)
        XCTAssertTrue(result.err.contains("only 2 usable photos (at least 3 needed)"), result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shell.dir + "/m"))
        XCTAssertEqual(result.out, "")
    }

    /// Photos of nothing in common (noise), each rich in features: no pair verifies.
    func testPhotosWithNoOverlapFailAndNameThePhotos() throws {
        let result = try shell.run("""
            python3 -c '
            import random
            from PIL import Image
            for i in range(4):
                rng = random.Random(i)
                Image.frombytes("L", (320, 240), bytes(rng.randrange(256) for _ in range(320 * 240))).resize((640, 480)).save(f"noise{i}.png")
            '
            atl-reconstruct --detail sparse noise0.png noise1.png noise2.png noise3.png -o m
            """)
        XCTAssertEqual(result.status, 65, result.err)
        XCTAssertTrue(result.err.contains("no two photos could be aligned"), result.err)
        XCTAssertTrue(result.err.contains("noise2.png: no verified matches"), result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shell.dir + "/m/sparse"))
    }

    func testBadInputAndOutputErrors() throws {
        let badJSON = try shell.run("printf '{\"type\":\"capture\",\"path\":\"a.jpg\"}\\n{oops\\n' | atl-reconstruct --detail sparse -o m")
        XCTAssertEqual(badJSON.status, 65)
        XCTAssertTrue(badJSON.err.contains("stdin:2"), badJSON.err)

        let noPath = try shell.run("echo '{\"type\":\"capture\"}' | atl-reconstruct --detail sparse -o m")
        XCTAssertEqual(noPath.status, 65)
        XCTAssertTrue(noPath.err.contains("stdin:1"), noPath.err)

        let missing = try shell.run("atl-reconstruct --detail sparse no-such-dir -o m")
        XCTAssertEqual(missing.status, 66)
        XCTAssertTrue(missing.err.contains("no-such-dir"), missing.err)

        let exists = try shell.run("mkdir -p m/sparse && echo keep > m/sparse/cameras.txt && atl-reconstruct --detail sparse '\(Self.capture)' -o m")
        XCTAssertEqual(exists.status, 73)
        XCTAssertTrue(exists.err.contains("--overwrite"), exists.err)
        XCTAssertEqual(try String(contentsOfFile: shell.dir + "/m/sparse/cameras.txt", encoding: .utf8), "keep\n")

        let usage = try shell.run("atl-reconstruct --detail sparse --garment x '\(Self.capture)'")
        XCTAssertEqual(usage.status, 64)
    }

    /// --overwrite replaces a model whole; no staging directory is left behind.
    func testOverwriteReplacesTheModel() throws {
        let result = try shell.run("mkdir -p m/sparse && echo old > m/sparse/stale.txt && atl-reconstruct --detail sparse '\(Self.capture)' -o m --overwrite --progress none")
        XCTAssertEqual(result.status, 0, result.err)
        let files = try FileManager.default.contentsOfDirectory(atPath: shell.dir + "/m/sparse").sorted()
        XCTAssertEqual(files, ["cameras.txt", "images.txt", "points3D.ply", "points3D.txt"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: shell.dir + "/m"), ["sparse"])
    }

    func requirePycolmap() throws {
        let probe = try shell.run("python3 -c 'import pycolmap'")
        if probe.status != 0 {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("pycolmap is missing: scripts/install-test-deps.sh installs it") }
            throw XCTSkip("pycolmap is not installed (scripts/install-test-deps.sh installs it)")
        }
    }
}
