import AtelierFormats
import Foundation
import XCTest

/// `AtomicFile` puts files in place whole, and the next writer of a file removes what a writer
/// that died left beside it, never what a live one is still writing.
final class AtomicFileTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atomic-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    /// The pid of a process that has exited (and been reaped).
    func deadPID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let pid = process.processIdentifier
        XCTAssertFalse(AtomicFile.isRunning(pid))
        return pid
    }

    func names() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: dir).sorted() }

    func testStaleTemporariesOfDeadWritersGoAndLiveOnesStay() throws {
        let dead = try deadPID()
        let live = getppid()
        for name in [".out.csv.tmp-\(dead)", ".out.csv.tmp-\(live)", ".out.csv.tmp-\(getpid())", ".out.csv.tmp-XyZ123", ".other.csv.tmp-\(dead)", "out.csv"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/" + name, contents: Data()))
        }
        try FileManager.default.createDirectory(atPath: dir + "/.model.tmp-\(dead)/inner", withIntermediateDirectories: true)
        AtomicFile.removeStaleTemporaries(for: dir + "/out.csv")
        AtomicFile.removeStaleTemporaries(for: dir + "/model")
        XCTAssertEqual(try names(), [".other.csv.tmp-\(dead)", ".out.csv.tmp-\(getpid())", ".out.csv.tmp-\(live)", ".out.csv.tmp-XyZ123", "out.csv"].sorted())
    }

    /// The staging and work directories of a killed export: a dead run's go, with what is in
    /// them; a live run's stay; this process's own goes only when asked (it has not made one yet,
    /// so one of that name is an earlier process's that had the same id).
    func testLeftoversOfDeadRunsGoAndOwnOnlyWhenAsked() throws {
        let dead = try deadPID()
        let live = getppid()
        for name in [".site.new-\(dead)", ".site.new-\(live)", ".site.new-\(getpid())", ".site.new-0", ".site.new-x1", ".sites.new", "site"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + name + "/pages", withIntermediateDirectories: true)
        }
        AtomicFile.removeLeftovers(in: dir, prefix: ".site.new-")
        XCTAssertEqual(try names(), [".site.new-\(live)", ".site.new-\(getpid())", ".site.new-0", ".site.new-x1", ".sites.new", "site"].sorted())
        AtomicFile.removeLeftovers(in: dir, prefix: ".site.new-", ownToo: true)
        XCTAssertEqual(try names(), [".site.new-\(live)", ".site.new-0", ".site.new-x1", ".sites.new", "site"].sorted())
        AtomicFile.removeLeftovers(in: dir + "/missing", prefix: ".site.new-")  // no directory: nothing to do
    }

    func testWriteRemovesWhatADeadWriterOfTheSameFileLeft() throws {
        let dead = try deadPID()
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/.a.glb.tmp-\(dead)", contents: Data(count: 1000)))
        try AtomicFile.write([(dir + "/a.glb", [1, 2, 3])])
        XCTAssertEqual(try names(), ["a.glb"])
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/a.glb"), Data([1, 2, 3]))
    }

    func testAFailedWriteLeavesNoTemporary() throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/a.txt", contents: Data("old".utf8)))
        try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
        // The rename onto a directory fails after both temporaries were written.
        XCTAssertThrowsError(try AtomicFile.write([(dir + "/a.txt", Array("new".utf8)), (dir + "/b", [1])])) { error in
            guard case .cannotWrite(_, let step, _)? = error as? FormatError else { return XCTFail("\(error)") }
            XCTAssertEqual(step, .renaming)
        }
        XCTAssertEqual(try names(), ["a.txt", "b"])
    }
}
