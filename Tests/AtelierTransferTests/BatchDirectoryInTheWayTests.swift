import Crypto
import Foundation
import XCTest
@testable import AtelierTransfer

/// What is in the way of a received file is named for what it is: a directory where a file
/// goes, a file where a directory goes, a link or device never written through. A full disk
/// while writing is `diskFull`, which the receiver tells the sender as "disk full".
final class BatchDirectoryInTheWayTests: XCTestCase {
    var into: String!

    override func setUp() { into = NSTemporaryDirectory() + "atl-in-the-way-\(UUID().uuidString)" }
    override func tearDown() { try? FileManager.default.removeItem(atPath: into) }

    func testADirectoryWhereAFileGoesIsCalledADirectory() throws {
        let directory = BatchDirectory(into: into, batch: "b", overwrite: true)
        try FileManager.default.createDirectory(atPath: directory.finalPath("scans/a.jpg"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try directory.holding(relative: "scans/a.jpg", size: 1)) { error in
            let path = directory.finalPath("scans/a.jpg")
            XCTAssertEqual(error as? TransferError, .isADirectory(path: path))
            XCTAssertEqual("\(error)", "\(path) is a directory, where the batch has a file; move it away or receive --into another directory")
        }
    }

    func testAFileWhereADirectoryGoesIsCalledNotADirectory() throws {
        let directory = BatchDirectory(into: into, batch: "b", overwrite: true)
        try FileManager.default.createDirectory(atPath: directory.root, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: directory.finalPath("scans"), contents: Data("x".utf8)))
        XCTAssertThrowsError(try directory.holding(relative: "scans/a.jpg", size: 1)) { error in
            let path = directory.finalPath("scans")
            XCTAssertEqual(error as? TransferError, .notADirectory(path: path))
            XCTAssertEqual("\(error)", "\(path) exists and is not a directory, where the batch needs one; move it away or receive --into another directory")
        }
    }

    func testALinkWhereAFileGoesIsNeverWrittenThrough() throws {
        let directory = BatchDirectory(into: into, batch: "b", overwrite: true)
        try FileManager.default.createDirectory(atPath: directory.root, withIntermediateDirectories: true)
        XCTAssertEqual(symlink("/etc/hostname", directory.finalPath("a.jpg")), 0)
        XCTAssertThrowsError(try directory.holding(relative: "a.jpg", size: 1)) { error in
            XCTAssertEqual(error as? TransferError, .notARegularFileInTheWay(path: directory.finalPath("a.jpg")))
        }
    }

    func testOutOfSpaceWhileWritingIsDiskFullAndTheSenderIsToldSo() {
        XCTAssertEqual(TransferError.writing("/x/a.part", code: ENOSPC), .diskFull(path: "/x/a.part"))
        XCTAssertEqual(TransferError.writing("/x/a.part", code: EDQUOT), .diskFull(path: "/x/a.part"))
        XCTAssertEqual("\(TransferError.diskFull(path: "/x/a.part"))", "no space left on device writing /x/a.part")
        XCTAssertEqual(TransferError.writing("/x/a.part", code: EACCES), .cannotWrite(path: "/x/a.part", reason: "Permission denied"))
        XCTAssertEqual(BatchReceiver.abortReason(for: .diskFull(path: "/x/a.part")), .diskFull)
    }

    func testPartialFileWritesOnAFullDeviceAreDiskFull() throws {
        // /dev/full takes the open and fails every write with ENOSPC.
        let file = PartialFile(fd: open("/dev/full", O_WRONLY), path: "/dev/full", written: 0, hasher: SHA256())
        XCTAssertThrowsError(try [UInt8](repeating: 1, count: 10).withUnsafeBytes { try file.append($0) }) { error in
            XCTAssertEqual(error as? TransferError, .diskFull(path: "/dev/full"))
        }
    }
}
