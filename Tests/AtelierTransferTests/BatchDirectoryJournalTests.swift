import Crypto
import Foundation
import XCTest
@testable import AtelierTransfer

/// Resuming a batch takes the sha256 of the files it verified before from its journal while
/// they are untouched, and hashes them again once anything about them changed.
final class BatchDirectoryJournalTests: XCTestCase {
    func testJournalVouchesForUntouchedFilesOnly() throws {
        let into = NSTemporaryDirectory() + "atl-journal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: into) }
        let directory = BatchDirectory(into: into, batch: "b_test", overwrite: false)
        let bytes = [UInt8]((0 ..< 100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let sha = Array(SHA256.hash(data: bytes))
        let file = try directory.openPartial(relative: "a/photo.jpg", size: 100_000, offset: 0)
        try bytes.withUnsafeBytes { try file.append($0) }
        try directory.publish(file, relative: "a/photo.jpg", sha256: sha)
        func held() throws -> [UInt8]? {
            guard case .present(let digest) = try directory.holding(relative: "a/photo.jpg", size: 100_000, journal: directory.loadJournal()) else { return nil }
            return digest
        }
        XCTAssertEqual(try held(), sha)

        // Same size, inode and time, other bytes: only the journal can still say the old
        // sha256, which shows it is read (a file the tool wrote is not expected to change under it).
        let path = directory.finalPath("a/photo.jpg")
        var before = stat()
        XCTAssertEqual(stat(path, &before), 0)
        let fd = open(path, O_WRONLY)
        XCTAssertEqual(pwrite(fd, [UInt8(0xFF)], 1, 500), 1)
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(futimens(fd, &times), 0)
        close(fd)
        XCTAssertEqual(try held(), sha)

        // Touched: hashed again, and the new digest offered (the sender compares it with its own).
        XCTAssertEqual(utimes(path, nil), 0)
        let now = Array(try BatchDirectory.digest(of: path, bytes: 100_000))
        XCTAssertNotEqual(now, sha)
        XCTAssertEqual(try held(), now)
        // Without a journal, the same: nothing is trusted unread.
        guard case .present(let unread) = try directory.holding(relative: "a/photo.jpg", size: 100_000) else { return XCTFail() }
        XCTAssertEqual(unread, now)
        // Another size is another file: refused without --overwrite.
        XCTAssertThrowsError(try directory.holding(relative: "a/photo.jpg", size: 99_999)) { error in
            XCTAssertEqual(error as? TransferError, .wouldOverwrite(path: path))
        }
        directory.finishBatch(relativePaths: ["a/photo.jpg"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.journalPath), "the journal goes with the finished batch")
    }

    /// A fileEnd whose sha256 is not what arrived: the partial file is deleted and nothing
    /// takes the final name.
    func testAMismatchedDigestPublishesNothing() throws {
        let into = NSTemporaryDirectory() + "atl-journal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: into) }
        let directory = BatchDirectory(into: into, batch: "b_test", overwrite: false)
        let file = try directory.openPartial(relative: "photo.jpg", size: 5, offset: 0)
        try Array("hello".utf8).withUnsafeBytes { try file.append($0) }
        XCTAssertThrowsError(try directory.publish(file, relative: "photo.jpg", sha256: Array(SHA256.hash(data: Array("jello".utf8))))) { error in
            XCTAssertEqual(error as? TransferError, .checksumMismatch(path: directory.finalPath("photo.jpg")))
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.finalPath("photo.jpg")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.partialPath(relative: "photo.jpg", size: 5)))
    }
}
