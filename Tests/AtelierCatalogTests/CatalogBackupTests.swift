import AtelierFormats
import AtelierRecords
import Foundation
import XCTest
@testable import AtelierCatalog

final class CatalogBackupTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-backup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Regression: `CatalogBackup.restore` created a store member's parent directories before
    /// the reader checked the member's name, so an archive listing
    /// `images/../../../../escaped/x.jpg` made a directory outside the catalog's (the restore
    /// then failed, but the directory stayed).
    func testRestoreCreatesNothingOutsideTheCatalogForAnUnsafeMemberName() throws {
        let home = dir + "/home/wardrobe"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let empty = dir + "/empty"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        let archive = dir + "/evil.atelier"
        let writer = try BackupArchive.Writer(destination: archive)
        for type in CatalogBackup.order { try writer.addFile(CatalogBackup.member(type), from: empty) }
        // Under the scratch directory beside the catalog: stores/images/../../../../ is the
        // directory above the catalog's.
        try writer.addFile("images/../../../../escaped/x.jpg", from: empty)
        try writer.finish(metadata: ["counts": .object(JSONObject(CatalogBackup.order.map { ($0, JSONValue.int(0)) }))])

        XCTAssertThrowsError(try CatalogBackup.restore(archive: archive, into: home + "/catalog.sqlite")) { error in
            XCTAssertTrue("\(error)".contains("is not allowed"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/home"), ["wardrobe"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/escaped"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home), [], "the scratch directory is gone too")
    }
}
