import Foundation
import XCTest

/// An export killed with SIGKILL leaves its `.NAME.tmp-PID` beside the output (nothing can
/// stop that); the next export to the same file removes it, but never the temporary of an
/// export that is still running. A failed export removes its own.
final class TempCleanupTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws {
        sh = try Shell()
        XCTAssertEqual(try sh.run("atl-import --sample > /dev/null && atl-query garments > g.ndjson").status, 0)
    }

    override func tearDown() { sh.remove() }

    /// Starts `atl-export --format FORMAT -o out.FORMAT` reading from the FIFO `feed-NAME`, held
    /// open by file descriptor `fd` of the script so the export blocks with its temporary open.
    func blockedExport(_ format: String, name: String, fd: Int) -> String {
        """
        mkfifo feed-\(name)
        atl-export --format \(format) -o out.\(format) < feed-\(name) & \(name)=$!
        exec \(fd)> feed-\(name)
        cat g.ndjson >&\(fd)
        for i in $(seq 200); do [ -e .out.\(format).tmp-$\(name) ] && break; sleep 0.05; done
        [ -e .out.\(format).tmp-$\(name) ] || { echo "no temporary for \(name)"; exit 3; }
        """
    }

    func testAKilledExportsTemporaryIsRemovedByTheNextExportButALiveOnesIsKept() throws {
        for format in ["csv", "json", "ndjson"] {
            let run = try sh.run("""
                \(blockedExport(format, name: "killed", fd: 3))
                kill -9 $killed; wait $killed 2> /dev/null; exec 3>&-
                [ -e .out.\(format).tmp-$killed ] || { echo "SIGKILL left nothing?"; exit 4; }
                \(blockedExport(format, name: "live", fd: 4))
                atl-export --format \(format) -o out.\(format) < g.ndjson || exit 5
                ls -A | grep '^\\.out\\.' | sed "s/$killed/KILLED/; s/$live/LIVE/"
                exec 4>&-; wait $live || exit 6
                find . -maxdepth 1 -name '.out.*' | wc -l
                """)
            XCTAssertEqual(run.status, 0, "\(format): \(run.out)\(run.err)")
            XCTAssertEqual(run.lines, [".out.\(format).tmp-LIVE", "0"], "\(format): the dead one's went, the live one's stayed until it finished")
        }
        XCTAssertEqual(try sh.run("wc -l < out.ndjson").out, "44\n", "the live export finished whole")
        XCTAssertEqual(try sh.run("python3 -c \"import json; print(len(json.load(open('out.json'))))\"").out, "44\n")
    }

    func testAFailedExportLeavesNoTemporaryAndTheOldFileUntouched() throws {
        for format in ["csv", "json", "ndjson"] {
            try sh.run("echo old > out.\(format)")
            let failed = try sh.run("printf '{\"type\":\"garment\"}\\n{oops\\n' | atl-export --format \(format) -o out.\(format)")
            XCTAssertEqual(failed.status, 65, failed.err)
            XCTAssertTrue(failed.err.hasPrefix("atl-export: stdin:2:"), failed.err)
            XCTAssertEqual(try sh.run("cat out.\(format)").out, "old\n", format)
        }
        XCTAssertEqual(try sh.run("ls -A | grep -c tmp").out, "0\n", "no temporary left")
    }

    /// The mesh formats write through `AtomicFile.write`, which removes a dead writer's
    /// temporaries of the same file first (a pid that has exited) and leaves a live one's.
    func testAMeshExportRemovesADeadExportsTemporaryOfTheSameFile() throws {
        let capture = FullDiskTests.capture
        let run = try sh.run("""
            sleep 60 & live=$!
            dead=$(sh -c 'echo $$')
            touch .shirt.glb.tmp-$dead .shirt.glb.tmp-$live .other.glb.tmp-$dead
            echo '{"type":"model","id":"m_1","files":{"mesh":"\(capture)/truth/mesh.ply"}}' | atl-export --format glb -o shirt.glb > /dev/null || exit 5
            ls -A | grep glb | sed "s/$dead/DEAD/; s/$live/LIVE/"
            kill $live
            """)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(run.lines, [".other.glb.tmp-DEAD", ".shirt.glb.tmp-LIVE", "shirt.glb"])
    }
}
