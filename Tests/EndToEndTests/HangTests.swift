import Foundation
import XCTest

/// A FIFO (or a device) named where a photo, a file to send or a mesh belongs is refused at
/// once as "not a regular file" (exit 65), as /dev/zero always was, instead of waiting forever
/// for a writer. Every command runs under `timeout 20`, so a regression fails (exit 124)
/// rather than hanging the suite. A FIFO as a record stream stays a legitimate input.
final class HangTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws {
        sh = try Shell()
        XCTAssertEqual(try sh.run("mkfifo fifo.jpg").status, 0)
    }

    override func tearDown() { sh.remove() }

    /// Runs `command` (under `timeout 20`) and checks its exit code and its whole stderr.
    func assertRefused(_ command: String, stdin: String? = nil, status: Int32 = 65, err: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try sh.run("timeout 20 \(command)", stdin: stdin.map { Data($0.utf8) })
        XCTAssertNotEqual(result.status, 124, "\(command) hung", file: file, line: line)
        XCTAssertEqual(result.status, status, "\(command): \(result.err)", file: file, line: line)
        XCTAssertEqual(result.err, err, command, file: file, line: line)
        XCTAssertEqual(result.out, "", command, file: file, line: line)
    }

    func testImportImagesOfAFIFOIsRefusedNotWaitedOn() throws {
        try assertRefused("atl-import --images fifo.jpg", err: "atl-import: fifo.jpg: not a regular file; nothing was imported\n")
        try assertRefused("atl-import --images /dev/zero", err: "atl-import: /dev/zero: not a regular file; nothing was imported\n")
        XCTAssertEqual(try sh.run("find images -mindepth 1").out, "", "nothing stored, no staging left")
    }

    func testClassifyOfAFIFONamedOrInARecordIsRefused() throws {
        try assertRefused("atl-classify --task hash fifo.jpg", err: "atl-classify: fifo.jpg: not a regular file\n")
        try assertRefused("atl-classify --task care fifo.jpg", err: "atl-classify: fifo.jpg: not a regular file\n")
        try assertRefused("atl-classify --task hash", stdin: #"{"type":"image","id":"sha256:00","path":"fifo.jpg"}"# + "\n",
                          err: "atl-classify: fifo.jpg: not a regular file\n")
    }

    func testSendOfAFIFONamedOrInARecordIsRefused() throws {
        let send = "atl-send --to 127.0.0.1:9 --code 7-crane-orbit --wait 1"
        try assertRefused("\(send) fifo.jpg", err: "atl-send: fifo.jpg: not a regular file or directory\n")
        try assertRefused(send, stdin: #"{"type":"image","path":"fifo.jpg"}"# + "\n", err: "atl-send: fifo.jpg: not a regular file\n")
    }

    func testReconstructOfAFIFONamedOrInARecordIsRefused() throws {
        try assertRefused("atl-reconstruct --detail sparse fifo.jpg fifo.jpg fifo.jpg -o m", err: "atl-reconstruct: fifo.jpg: not a regular file\n")
        try assertRefused("atl-reconstruct --detail sparse -o m", stdin: #"{"type":"capture","path":"fifo.jpg"}"# + "\n",
                          err: "atl-reconstruct: fifo.jpg: not a regular file\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: sh.dir + "/m"))
    }

    func testMeshExportOfAModelWhoseMeshIsAFIFOIsRefused() throws {
        try assertRefused("atl-export --format glb -o out/", stdin: #"{"type":"model","files":{"mesh":"fifo.jpg"}}"# + "\n",
                          err: "atl-export: stdin:1: fifo.jpg: not a regular file\n")
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: sh.dir + "/out")) ?? [], [])
    }

    func testRecordStreamsFromAFIFOStillWork() throws {
        // A named pipe, process substitution and /dev/stdin are ordinary ways to feed records.
        let result = try sh.run("""
            mkfifo in.ndjson
            ( echo '{"type":"garment","name":"a","category":"top"}' > in.ndjson & )
            timeout 20 atl-import in.ndjson > /dev/null &&
            timeout 20 atl-import <(echo '{"type":"garment","name":"b","category":"top"}') > /dev/null &&
            echo '{"type":"garment","name":"c","category":"top"}' | timeout 20 atl-import /dev/stdin > /dev/null &&
            atl-query garments | jq -r .name | sort
            """)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.lines, ["a", "b", "c"])
    }
}
