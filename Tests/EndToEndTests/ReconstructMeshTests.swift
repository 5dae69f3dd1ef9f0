import Foundation
import XCTest

/// Part 2 of `atl-reconstruct` as a user runs it: photos to a textured mesh, exported by
/// `atl-export` to USDZ, glTF, OBJ and PLY, each read back by an independent reader (Pixar's
/// validators, trimesh, pygltflib) and the surface scored against the capture's true mesh.
final class ReconstructMeshTests: XCTestCase {
    var shell: Shell!

    override func setUpWithError() throws {
        shell = try Shell()
        let probe = try shell.run("python3 -c 'import pxr, trimesh, pygltflib, scipy'")
        if probe.status != 0 {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("usd-core, trimesh, pygltflib or scipy is missing: scripts/install-test-deps.sh installs them") }
            throw XCTSkip("usd-core, trimesh, pygltflib or scipy is not installed (scripts/install-test-deps.sh installs them)")
        }
    }

    override func tearDown() { shell.remove() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    func testPhotosToAValidatedUSDZAndEveryMeshFormat() throws {
        let capture = ReconstructTests.capture
        let result = try shell.run("""
            atl-reconstruct '\(capture)' --detail preview -o m --progress json 2> progress.ndjson \
              | atl-export --format usdz -o Models/ > model.json
            """)
        XCTAssertEqual(result.status, 0, result.err)
        let model = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: shell.dir + "/model.json"))) as? [String: Any])
        XCTAssertEqual(model["detail"] as? String, "preview")
        let faces = try XCTUnwrap(model["faces"] as? Int)
        XCTAssertLessThanOrEqual(faces, 24_000)
        XCTAssertGreaterThan(faces, 5_000)
        let files = try XCTUnwrap(model["files"] as? [String: String])
        let usdz = try XCTUnwrap(files["usdz"])
        XCTAssertTrue(usdz.hasPrefix(shell.dir + "/Models/Garment_") && usdz.hasSuffix(".usdz"), usdz)
        for key in ["mesh", "texture", "densePointCloud", "cameras"] { XCTAssertNotNil(files[key], key) }

        // Progress went through every stage, the mesh stages named as Object Capture names them.
        let stages = try String(contentsOfFile: shell.dir + "/progress.ndjson", encoding: .utf8).split(separator: "\n")
            .compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["stage"] as? String }
        XCTAssertEqual(stages.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } },
                       ["pre-processing", "feature matching", "image alignment", "point cloud generation", "mesh generation",
                        "optimisation", "texture mapping"])

        // Pixar's validators (what usdchecker runs) find nothing.
        let check = try shell.run("python3 '\(Self.repository)/scripts/usdcheck.py' '\(usdz)'")
        XCTAssertEqual(check.status, 0, check.err + check.out)
        XCTAssertTrue(check.out.contains("\(faces) faces, up Y"), check.out)

        // The surface: closed once seams are joined, upright, and within 1 % of the true one.
        let score = try shell.run("python3 '\(Self.repository)/benchmarks/mesh_eval.py' --truth '\(capture)' --model m --record model.json --samples 50000")
        XCTAssertEqual(score.status, 0, score.err)
        let scores = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(score.out.utf8)) as? [String: Any])
        let meshScore = try XCTUnwrap(scores["mesh"] as? [String: Double]), denseScore = try XCTUnwrap(scores["dense"] as? [String: Double])
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(meshScore["fscore"]), 0.9, score.out)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(denseScore["fscore"]), 0.9, score.out)
        let shape = try shell.run("""
            python3 -c '
            import trimesh
            m = trimesh.load("m/mesh/model.ply", process=False)
            m.merge_vertices(merge_tex=True, merge_norm=True)
            lo, hi = m.bounds
            print(m.is_watertight, m.is_winding_consistent, m.volume > 0, round(float(lo[1]), 6), hi[1] - lo[1] > max(hi[0] - lo[0], hi[2] - lo[2]) * 0.8)
            d = trimesh.load("m/dense/points.ply")
            print(len(d.vertices) == \(try XCTUnwrap((model["metrics"] as? [String: Any])?["densePoints"] as? Int)), b"property float nx" in open("m/dense/points.ply", "rb").read(4096))
            '
            """)
        XCTAssertEqual(shape.status, 0, shape.err)
        XCTAssertEqual(shape.out.split(separator: "\n").map(String.init), ["True True True 0.0 True", "True True"], shape.out)

        // The same model as GLB, OBJ and PLY, read back.
        let exports = try shell.run("""
            atl-export --format glb -o out/shirt.glb < model.json > /dev/null && \
            atl-export --format obj -o out/obj/shirt.obj < model.json > /dev/null && \
            atl-export --format ply -o out/ply/shirt.ply < model.json > /dev/null && \
            python3 -c '
            import trimesh, pygltflib, numpy
            from pygltflib.validator import validate
            g = pygltflib.GLTF2().load("out/shirt.glb")
            validate(g)
            # Rules of the Khronos validator that pygltflib does not check.
            blob = g.binary_blob()
            assert g.buffers[0].byteLength <= len(blob) < g.buffers[0].byteLength + 4, "BIN chunk length"
            p = g.meshes[0].primitives[0]
            for a in [p.attributes.POSITION, p.attributes.NORMAL, p.attributes.TEXCOORD_0, p.indices]:
                acc, view = g.accessors[a], g.bufferViews[g.accessors[a].bufferView]
                assert (view.byteOffset + (acc.byteOffset or 0)) % 4 == 0, "accessor alignment"
                assert view.byteOffset + view.byteLength <= g.buffers[0].byteLength, "view inside the buffer"
            pos = g.accessors[p.attributes.POSITION]
            v = g.bufferViews[pos.bufferView]
            xyz = numpy.frombuffer(blob[v.byteOffset:v.byteOffset + v.byteLength], dtype="<f4").reshape(-1, 3)
            assert numpy.allclose(xyz.min(0), pos.min) and numpy.allclose(xyz.max(0), pos.max), "POSITION min/max"
            ind = g.accessors[p.indices]
            v = g.bufferViews[ind.bufferView]
            idx = numpy.frombuffer(blob[v.byteOffset:v.byteOffset + v.byteLength], dtype="<u4" if ind.componentType == 5125 else "<u2")
            assert idx.max() < pos.count, "indices within the vertices"
            assert g.images[0].mimeType == "image/png"
            print(g.asset.version, len(g.images), g.accessors[g.meshes[0].primitives[0].indices].count // 3)
            for path in ["out/shirt.glb", "out/obj/shirt.obj", "out/ply/shirt.ply"]:
                m = trimesh.load(path, force="mesh", process=False)
                print(len(m.faces), m.visual.kind)
            '
            """)
        XCTAssertEqual(exports.status, 0, exports.err)
        XCTAssertEqual(exports.out.split(separator: "\n").map(String.init),
                       ["2.0 1 \(faces)", "\(faces) texture", "\(faces) texture", "\(faces) texture"], exports.out)
    }

    func testCustomBudgetTextureSizeAndRealHeight() throws {
        let result = try shell.run("atl-reconstruct '\(ReconstructTests.capture)' --max-triangles 6000 --texture-size 512 --height 0.66 -o m --progress none")
        XCTAssertEqual(result.status, 0, result.err)
        let model = try XCTUnwrap(Shell.records(result).first)
        XCTAssertEqual(model["detail"] as? String, "custom")
        XCTAssertLessThanOrEqual(try XCTUnwrap(model["faces"] as? Int), 6000)
        let size = try XCTUnwrap((model["metrics"] as? [String: Any])?["size"] as? [Double])
        XCTAssertEqual(size[1], 0.66, accuracy: 0.001)
        let png = try shell.run("python3 -c 'from PIL import Image; print(Image.open(\"m/mesh/texture.png\").size)'")
        XCTAssertEqual(png.out.trimmingCharacters(in: .whitespacesAndNewlines), "(512, 512)", png.err)
        // Another run into the same directory is refused, and leaves the model as it was.
        let before = try Data(contentsOf: URL(fileURLWithPath: shell.dir + "/m/mesh/model.ply"))
        let again = try shell.run("atl-reconstruct '\(ReconstructTests.capture)' --detail preview -o m --progress none")
        XCTAssertEqual(again.status, 73, again.err)
        XCTAssertTrue(again.err.contains("already exists"), again.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: shell.dir + "/m/mesh/model.ply")), before)
    }

    /// Under a memory limit the run downscales the photos and the atlas instead of failing, says
    /// so on stderr and in the record, and still makes a model; a limit it cannot read is a usage error.
    func testMemoryLimitDownscalesAndSaysSo() throws {
        let result = try shell.run("atl-reconstruct '\(ReconstructTests.capture)' --detail medium --memory-limit 64M -o m --progress none")
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.err.contains("point cloud generation: ") && result.err.contains("more than the 64 MB allowed; matching them at 320 px instead"), result.err)
        XCTAssertTrue(result.err.contains("texture mapping: ") && result.err.contains("a 1024×1024 texture instead"), result.err)
        let model = try XCTUnwrap(Shell.records(result).first)
        let memory = try XCTUnwrap((model["metrics"] as? [String: Any])?["memory"] as? [String: Any])
        XCTAssertEqual(memory["downscaled"] as? Bool, true)
        XCTAssertEqual(memory["stereoSide"] as? Int, 320)
        XCTAssertEqual(memory["textureSize"] as? Int, 1024)
        XCTAssertEqual(memory["budgetBytes"] as? Int, 64 << 20)
        let png = try shell.run("python3 -c 'from PIL import Image; print(Image.open(\"m/mesh/texture.png\").size)'")
        XCTAssertEqual(png.out.trimmingCharacters(in: .whitespacesAndNewlines), "(1024, 1024)", png.err)
        // Enough memory: nothing is downscaled and nothing is said.
        let roomy = try shell.run("atl-reconstruct '\(ReconstructTests.capture)' --detail preview --memory-limit 8G -o roomy --progress none")
        XCTAssertEqual(roomy.status, 0, roomy.err)
        XCTAssertFalse(roomy.err.contains("instead"), roomy.err)
        let roomyMemory = try XCTUnwrap((Shell.records(roomy).first?["metrics"] as? [String: Any])?["memory"] as? [String: Any])
        XCTAssertEqual(roomyMemory["downscaled"] as? Bool, false)
        XCTAssertEqual(roomyMemory["stereoSide"] as? Int, 512)
        for bad in ["lots", "0", "-1G"] {
            let refused = try shell.run("atl-reconstruct '\(ReconstructTests.capture)' --memory-limit=\(bad) -o bad")
            XCTAssertEqual(refused.status, 64, refused.err)
            XCTAssertTrue(refused.err.contains("--memory-limit takes a size"), refused.err)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: shell.dir + "/bad"))
    }

    /// Killed after point cloud generation, the same command resumes from the checkpoint: no
    /// camera or stereo work is done again, and the model is the same as an uninterrupted run's.
    func testCheckpointResumesAfterAKill() throws {
        let capture = ReconstructTests.capture
        let killed = try shell.run("""
            atl-reconstruct '\(capture)' --detail preview --checkpoint ck -o m --progress json 2> first.ndjson > /dev/null &
            pid=$!
            for i in $(seq 1 600); do grep -q '"stage":"mesh generation"' first.ndjson 2>/dev/null && break; sleep 0.2; done
            kill -9 $pid; wait $pid; echo "killed $?"
            """)
        XCTAssertEqual(killed.out.trimmingCharacters(in: .whitespacesAndNewlines), "killed 137", killed.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: shell.dir + "/m/mesh"), "a killed run wrote its mesh")
        let resumed = try shell.run("atl-reconstruct '\(capture)' --detail preview --checkpoint ck -o m --progress json 2> second.ndjson")
        XCTAssertEqual(resumed.status, 0, resumed.err)
        let stages = try String(contentsOfFile: shell.dir + "/second.ndjson", encoding: .utf8)
        XCTAssertTrue(stages.contains("resuming from") && stages.contains("image alignment, point cloud generation done"), stages)
        for done in ["pre-processing", "feature matching", "image alignment"] {
            XCTAssertFalse(stages.contains("\"stage\":\"\(done)\""), "\(done) ran again")
        }
        // The photos are read again for texturing, but no depth map is computed.
        XCTAssertTrue(stages.contains("from the checkpoint"), stages)
        XCTAssertFalse(stages.contains("depth map 1/"), stages)
        let uninterrupted = try shell.run("atl-reconstruct '\(capture)' --detail preview -o whole --progress none > /dev/null")
        XCTAssertEqual(uninterrupted.status, 0, uninterrupted.err)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: shell.dir + "/m/mesh/model.ply")),
                       try Data(contentsOf: URL(fileURLWithPath: shell.dir + "/whole/mesh/model.ply")))
        // Another detail level reuses the cameras only.
        let other = try shell.run("atl-reconstruct '\(capture)' --detail reduced --checkpoint ck -o m2 --progress json 2> third.ndjson > /dev/null")
        XCTAssertEqual(other.status, 0, other.err)
        let third = try String(contentsOfFile: shell.dir + "/third.ndjson", encoding: .utf8)
        XCTAssertFalse(third.contains("\"stage\":\"image alignment\""))
        XCTAssertTrue(third.contains("\"stage\":\"point cloud generation\""))
        // Other camera options: the checkpoint is not used, and the run says so.
        let changed = try shell.run("atl-reconstruct '\(capture)' --detail sparse --feature-sensitivity high --checkpoint ck -o m3 --progress json 2> fourth.ndjson > /dev/null")
        XCTAssertEqual(changed.status, 0, changed.err)
        let fourth = try String(contentsOfFile: shell.dir + "/fourth.ndjson", encoding: .utf8)
        XCTAssertTrue(fourth.contains("the checkpoint is of other photos or options; starting again"), fourth)
        XCTAssertTrue(fourth.contains("\"stage\":\"image alignment\""), fourth)
    }

    func testExportRefusesWhatItCannotWrite() throws {
        // A sparse model has no mesh: named with its line, exit 65, no file written.
        try #"{"type":"model","id":"m_1","detail":"sparse","files":{"cameras":"x"}}"#.write(toFile: shell.dir + "/sparse.json", atomically: true, encoding: .utf8)
        let sparse = try shell.run("atl-export --format usdz -o out/ < sparse.json")
        XCTAssertEqual(sparse.status, 65, sparse.err)
        XCTAssertTrue(sparse.err.contains("stdin:1") && sparse.err.contains("no mesh"), sparse.err)
        // A damaged mesh file: exit 65, and nothing left in the output directory.
        let damaged = try shell.run("""
            mkdir -p bad && printf 'ply\\nformat binary_little_endian 1.0\\nelement vertex 1000\\nproperty float x\\nproperty float y\\nproperty float z\\nend_header\\n' > bad/model.ply && \
            echo '{"type":"model","id":"m_2","files":{"mesh":"bad/model.ply"}}' | atl-export --format glb -o out/
            """)
        XCTAssertEqual(damaged.status, 65, damaged.err)
        XCTAssertTrue(damaged.err.contains("bad/model.ply"), damaged.err)
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: shell.dir + "/out")) ?? [], [])
        // A missing mesh file: exit 66. Bad JSON: exit 65 with the line.
        let missing = try shell.run("echo '{\"type\":\"model\",\"files\":{\"mesh\":\"nowhere.ply\"}}' | atl-export --format obj -o out/")
        XCTAssertEqual(missing.status, 66, missing.err)
        // --overwrite means something only for the mesh formats: refused elsewhere as a usage error.
        let stray = try shell.run("echo '{\"type\":\"garment\"}' | atl-export --format csv -o g.csv --overwrite")
        XCTAssertEqual(stray.status, 64, stray.err)
        XCTAssertTrue(stray.err.contains("--overwrite applies to the mesh formats"), stray.err)
        let badJSON = try shell.run("printf '{\"type\":\"garment\"}\\n{oops\\n' | atl-export --format usdz -o out/")
        XCTAssertEqual(badJSON.status, 65, badJSON.err)
        XCTAssertTrue(badJSON.err.contains(":2"), badJSON.err)
    }
}
