import Crypto
import Foundation
import XCTest
@testable import AtelierTransfer

/// Resuming a batch trusts the files it verified before from its journal while they are
/// untouched, and hashes them again once anything about them changed.
final class BatchDirectoryJournalTests: XCTestCase {
    func testJournalVouchesForUntouchedFilesOnly() throws {
        let into = NSTemporaryDirectory() + "atl-journal-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: into) }
        let directory = BatchDirectory(into: into, batch: "b_test", overwrite: false)
        let bytes = [UInt8]((0 ..< 100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let sha = SHA256.hash(data: bytes).hex
        let file = try directory.openPartial(relative: "a/photo.jpg", sha256Hex: sha, offset: 0)
        try bytes.withUnsafeBytes { try file.append($0) }
        try directory.publish(file, relative: "a/photo.jpg", sha256Hex: sha)
        XCTAssertEqual(try directory.holding(relative: "a/photo.jpg", size: 100_000, sha256Hex: sha, journal: directory.loadJournal()), .complete)

        // Same size, inode and time, other bytes: only the journal can call this complete,
        // which shows it is read (a file the tool wrote is not expected to change under it).
        let path = directory.finalPath("a/photo.jpg")
        var before = stat()
        XCTAssertEqual(stat(path, &before), 0)
        let fd = open(path, O_WRONLY)
        XCTAssertEqual(pwrite(fd, [UInt8(0xFF)], 1, 500), 1)
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(futimens(fd, &times), 0)
        close(fd)
        XCTAssertEqual(try directory.holding(relative: "a/photo.jpg", size: 100_000, sha256Hex: sha, journal: directory.loadJournal()), .complete)

        // Touched: hashed again, and found to differ.
        XCTAssertEqual(utimes(path, nil), 0)
        XCTAssertThrowsError(try directory.holding(relative: "a/photo.jpg", size: 100_000, sha256Hex: sha, journal: directory.loadJournal())) { error in
            XCTAssertEqual(error as? TransferError, .wouldOverwrite(path: path))
        }
        // Without a journal, the same: nothing is trusted unread.
        XCTAssertThrowsError(try directory.holding(relative: "a/photo.jpg", size: 100_000, sha256Hex: sha))
        directory.finishBatch(relativePaths: ["a/photo.jpg"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.journalPath), "the journal goes with the finished batch")
    }
}
