import AtelierRecords
import Foundation
import XCTest

/// `RegularFile` opens what must be a regular file without ever blocking on something else.
final class RegularFileTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "regular-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    func testAFIFOWithNoWriterIsRefusedAtOnceNotWaitedOn() throws {
        let fifo = dir + "/photo.jpg"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        let start = Date()
        XCTAssertThrowsError(try RegularFile.read(fifo)) { error in
            XCTAssertEqual(error as? RecordsError, .notARegularFile(path: fifo))
            XCTAssertEqual("\(error)", "\(fifo): not a regular file")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5)
    }

    func testDevicesDirectoriesAndMissingFilesAreRefused() {
        XCTAssertThrowsError(try RegularFile.check("/dev/zero")) { XCTAssertEqual($0 as? RecordsError, .notARegularFile(path: "/dev/zero")) }
        XCTAssertThrowsError(try RegularFile.check(dir)) { XCTAssertEqual($0 as? RecordsError, .notARegularFile(path: dir)) }
        XCTAssertThrowsError(try RegularFile.check(dir + "/none")) {
            XCTAssertEqual($0 as? RecordsError, .cannotOpen(path: dir + "/none", code: ENOENT))
            XCTAssertEqual(($0 as? RecordsError)?.reason, "cannot read: No such file or directory")
        }
    }

    func testARegularFileAndALinkToOneAreReadWholeWithBlockingReads() throws {
        let path = dir + "/a.bin"
        let bytes = (0 ..< 300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        XCTAssertEqual(symlink(path, dir + "/link.bin"), 0)
        XCTAssertEqual(try RegularFile.read(path), bytes)
        XCTAssertEqual(try RegularFile.read(dir + "/link.bin"), bytes)
        let (fd, info) = try RegularFile.open(path)
        defer { close(fd) }
        XCTAssertEqual(fcntl(fd, F_GETFL) & O_NONBLOCK, 0, "back to blocking reads")
        XCTAssertEqual(Int(info.st_size), bytes.count)
    }
}
