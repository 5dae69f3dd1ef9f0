import Foundation
import XCTest

/// Out of space is exit 73 with one plain line, `tool: no space left on device writing PATH`,
/// for every tool that writes files, and nothing half-written is left behind. The full disks
/// are small tmpfs mounts in a mount namespace of their own (`unshare -m`, root only, as in
/// CI); where that is not allowed the tests are skipped and say why.
final class FullDiskTests: XCTestCase {
    var sh: Shell!

    override func setUpWithError() throws { sh = try Shell() }
    override func tearDown() { sh.remove() }

    /// Photos and a true mesh from `synth-capture`, made once for the test run.
    static var capture: String { SmallCapture.path }

    /// Runs `script` with `small/` a tmpfs of `megabytes` in a private mount namespace.
    func onSmallDisk(megabytes: Int, _ script: String) throws -> Shell.Result {
        guard getuid() == 0 else { throw XCTSkip("making a full disk needs root (mount -t tmpfs in unshare -m)") }
        guard try sh.run("unshare -m sh -c 'mkdir -p probe && mount -t tmpfs -o size=64k none probe'").status == 0 else {
            throw XCTSkip("this sandbox does not allow mount -t tmpfs in unshare -m, so no full disk can be made")
        }
        try """
            set -u
            mkdir -p small && mount -t tmpfs -o size=\(megabytes)m none small || exit 90
            \(script)
            """.write(toFile: sh.dir + "/small-disk.sh", atomically: true, encoding: .utf8)
        return try sh.run("unshare -m bash small-disk.sh")
    }

    /// What `command` printed on stderr and its exit status, as the script saved them.
    func outcome(_ name: String) throws -> (status: Int32, err: String) {
        let status = try String(contentsOfFile: "\(sh.dir)/\(name).status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return (Int32(status) ?? -1, try String(contentsOfFile: "\(sh.dir)/\(name).err", encoding: .utf8))
    }

    func testImportImagesOntoAFullDiskIs73AndStoresNothing() throws {
        let run = try onSmallDisk(megabytes: 4, """
            export ATELIER_DB=$PWD/small/catalog.sqlite
            atl-import --sample > /dev/null || exit 91
            dd if=/dev/zero of=small/fill bs=64k 2> /dev/null; truncate -s -128k small/fill
            find small -mindepth 1 -not -name 'catalog.sqlite*' | sort > before.list
            timeout 60 atl-import --images '\(Self.capture)' > import.out 2> import.err; echo $? > import.status
            find small -mindepth 1 -not -name 'catalog.sqlite*' | sort > after.list
            rm small/fill && atl-query images | wc -l > images.count
            """)
        XCTAssertEqual(run.status, 0, run.err)
        let (status, err) = try outcome("import")
        XCTAssertEqual(status, 73, err)
        XCTAssertTrue(err.hasPrefix("atl-import: no space left on device writing \(sh.dir)/small/images/"), err)
        XCTAssertEqual(err.filter { $0 == "\n" }.count, 1, err)
        XCTAssertEqual(try sh.run("cat import.out").out, "")
        XCTAssertEqual(try sh.run("cat before.list").lines, ["small/fill"])
        XCTAssertEqual(try sh.run("cat after.list").lines, ["small/fill", "small/images"], "no staging left, nothing stored")
        XCTAssertEqual(try sh.run("cat images.count").out, "0\n", "the catalog was not changed")
    }

    func testEveryExportFormatOntoAFullDiskIs73AndLeavesNothing() throws {
        try sh.run("atl-import --sample > /dev/null && atl-query garments > records.ndjson")
        try "{\"type\":\"model\",\"id\":\"m_1\",\"files\":{\"mesh\":\"\(Self.capture)/truth/mesh.ply\"}}\n".write(toFile: sh.dir + "/model.ndjson", atomically: true, encoding: .utf8)
        let records = ["csv", "json", "ndjson"], meshes = ["usdz", "glb", "obj", "ply"]
        let run = try onSmallDisk(megabytes: 1, """
            dd if=/dev/zero of=small/fill bs=64k 2> /dev/null
            for format in \(records.joined(separator: " ")); do
              timeout 60 atl-export --format $format -o small/out.$format < records.ndjson 2> $format.err; echo $? > $format.status
            done
            for format in \(meshes.joined(separator: " ")); do
              timeout 60 atl-export --format $format -o small/model.$format < model.ndjson > /dev/null 2> $format.err; echo $? > $format.status
            done
            find small -mindepth 1 > small.list
            """)
        XCTAssertEqual(run.status, 0, run.err)
        for format in records {
            let (status, err) = try outcome(format)
            XCTAssertEqual(status, 73, "\(format): \(err)")
            XCTAssertEqual(err, "atl-export: no space left on device writing small/out.\(format)\n", format)
        }
        for format in meshes {
            let (status, err) = try outcome(format)
            XCTAssertEqual(status, 73, "\(format): \(err)")
            XCTAssertTrue(err.hasPrefix("atl-export: no space left on device writing small/model."), "\(format): \(err)")
            XCTAssertEqual(err.filter { $0 == "\n" }.count, 1, err)
        }
        XCTAssertEqual(try sh.run("cat small.list").lines, ["small/fill"], "no temporary or partial file left")
    }

    func testReconstructOntoAFullDiskIs73AndLeavesNothing() throws {
        let run = try onSmallDisk(megabytes: 1, """
            dd if=/dev/zero of=small/fill bs=64k 2> /dev/null
            timeout 120 atl-reconstruct --detail sparse '\(Self.capture)' -o small/model > model.out 2> model.err; echo $? > model.status
            find small -mindepth 1 > small.list
            """)
        XCTAssertEqual(run.status, 0, run.err)
        let (status, err) = try outcome("model")
        XCTAssertEqual(status, 73, err)
        XCTAssertEqual(err, "atl-reconstruct: no space left on device writing \(sh.dir)/small/model\n")
        XCTAssertEqual(try sh.run("cat model.out").out, "")
        XCTAssertEqual(try sh.run("cat small.list").lines, ["small/fill"], "no staging directory, no empty model directory")
    }

    /// Standard output on a full device (no root needed: /dev/full fails every write).
    func testStandardOutputOnAFullDeviceIs73AndSaysSoPlainly() throws {
        try sh.run("atl-import --sample > /dev/null")
        let query = try sh.run("atl-query garments > /dev/full")
        XCTAssertEqual(query.status, 73, query.err)
        XCTAssertEqual(query.err, "atl-query: no space left on device writing standard output\n")
        let export = try sh.run("atl-query garments | atl-export --format csv -o /dev/full")
        XCTAssertEqual(export.status, 73, export.err)
        XCTAssertEqual(export.err, "atl-export: no space left on device writing /dev/full\n")
        XCTAssertEqual(try sh.run("stat -c %F /dev/full").out, "character special file\n", "a device is written into, never replaced")
    }
}
