import Foundation
import XCTest

/// `atl-reconstruct` run as a user runs it: on a synthetic capture made by `synth-capture`, in
/// pipelines, with its model read back by pycolmap, and on bad input.
final class ReconstructTests: XCTestCase {
    /// One small capture for every test in the class (rendered once for the test run).
    static var capture: String { SmallCapture.path }

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
        try assertReprojectionErrorsRecomputeFromTheModel(in: "m/sparse", recordedMean: error, points: points)

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
        // One line per cause, with the photos it concerns, not a sentence per photo.
        XCTAssertTrue(result.err.contains("no verified matches"), result.err)
        XCTAssertEqual(result.err.components(separatedBy: "no verified matches").count, 2, result.err)
        XCTAssertTrue(result.err.contains("noise2.png") || result.err.contains("noise0.png–noise3.png"), result.err)
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

    /// Recomputes every point's reprojection error from the written model, in numpy and by hand
    /// (COLMAP's RADIAL model: `f, cx, cy, k1, k2`; image poses as camera-from-world quaternion
    /// `w x y z` and translation), not trusting the ERROR column or the record: each point's
    /// ERROR is the mean distance over its track to within 1e-6 px, the record's mean (per
    /// observation, rounded to 3 decimals) is the recomputed one, every point is in front of
    /// the cameras that see it, and every track element's keypoint names that point back.
    func assertReprojectionErrorsRecomputeFromTheModel(in dir: String, recordedMean: Double, points: Int,
                                                        file: StaticString = #filePath, line: UInt = #line) throws {
        try """
            import sys, numpy as np
            def rows(name):
                return [l.split() for l in open(f"{sys.argv[1]}/{name}").read().split("\\n")[:-1] if not l.startswith("#")]
            cameras = {int(r[0]): (r[1], np.array(r[4:], dtype=float)) for r in rows("cameras.txt")}
            images = {}
            lines = rows("images.txt")
            for head, keypoints in zip(lines[0::2], lines[1::2]):
                w, x, y, z = np.array(head[1:5], dtype=float) / np.linalg.norm(np.array(head[1:5], dtype=float))
                camFromWorld = np.array([[1 - 2*(y*y + z*z), 2*(x*y - w*z), 2*(x*z + w*y)],
                                         [2*(x*y + w*z), 1 - 2*(x*x + z*z), 2*(y*z - w*x)],
                                         [2*(x*z - w*y), 2*(y*z + w*x), 1 - 2*(x*x + y*y)]])
                images[int(head[0])] = (camFromWorld, np.array(head[5:8], dtype=float), int(head[8]), np.array(keypoints, dtype=float).reshape(-1, 3))
            worst, behind, unlinked, total, count = 0.0, 0, 0, 0.0, 0
            for r in rows("points3D.txt"):
                pointInWorld, stored, track = np.array(r[1:4], dtype=float), float(r[7]), np.array(r[8:], dtype=int).reshape(-1, 2)
                distances = []
                for image, keypoint in track:
                    R, t, camera, keypoints = images[image]
                    model, (f, cx, cy, k1, k2) = cameras[camera]
                    assert model == "RADIAL", model
                    pointInCam = R @ pointInWorld + t
                    behind += pointInCam[2] <= 0
                    unlinked += int(keypoints[keypoint, 2]) != int(r[0])
                    u, v = pointInCam[:2] / pointInCam[2]
                    radial = 1 + k1 * (u*u + v*v) + k2 * (u*u + v*v)**2
                    distances.append(np.hypot(f * u * radial + cx - keypoints[keypoint, 0], f * v * radial + cy - keypoints[keypoint, 1]))
                worst = max(worst, abs(np.mean(distances) - stored))
                total += sum(distances)
                count += len(distances)
            print(len(rows("points3D.txt")), behind, unlinked, worst, total / count)
            """.write(toFile: shell.dir + "/reprojection.py", atomically: true, encoding: .utf8)
        let check = try shell.run("python3 reprojection.py '\(dir)'")
        XCTAssertEqual(check.status, 0, check.err, file: file, line: line)
        let fields = check.out.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 5 else { return XCTFail("reprojection.py printed \(check.out)", file: file, line: line) }
        XCTAssertEqual(Int(fields[0]), points, "points in points3D.txt", file: file, line: line)
        XCTAssertEqual(fields[1], 0, "observations behind their camera", file: file, line: line)
        XCTAssertEqual(fields[2], 0, "track elements whose keypoint names another point", file: file, line: line)
        XCTAssertLessThan(fields[3], 1e-6, "largest difference between a point's ERROR and its recomputed mean, pixels", file: file, line: line)
        XCTAssertEqual(recordedMean, fields[4], accuracy: 0.0005 + 1e-9, "the record's meanReprojectionErrorPixels", file: file, line: line)
        XCTAssertLessThan(fields[4], 1, file: file, line: line)
    }

    func requirePycolmap() throws {
        let probe = try shell.run("python3 -c 'import pycolmap'")
        if probe.status != 0 {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("pycolmap is missing: scripts/install-test-deps.sh installs it") }
            throw XCTSkip("pycolmap is not installed (scripts/install-test-deps.sh installs it)")
        }
    }
}
