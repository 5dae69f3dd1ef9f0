import AtelierRecords
import Foundation
import XCTest
@testable import AtelierFormats

final class BackupArchiveTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "backup-archive-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// A file of `count` bytes of `byte` (which deflate shrinks a thousandfold).
    func file(_ name: String, _ count: Int, of byte: UInt8 = 0x20) throws -> String {
        let path = dir + "/" + name
        try Data(repeating: byte, count: count).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An archive holding `members` (name and size, compressed), written by the Writer.
    func archive(_ members: [(String, Int)], leadingMetadataBytes: Int? = nil) throws -> String {
        let path = dir + "/backup.atelier"
        let writer = try BackupArchive.Writer(destination: path)
        if let leadingMetadataBytes {
            // A metadata.json before the real one: the reader reads the first.
            try writer.addFile("metadata.json", from: try file("bomb.json", leadingMetadataBytes), compress: true)
        }
        for (name, size) in members { try writer.addFile(name, from: try file("member", size, of: 0x61), compress: true) }
        try writer.finish(metadata: ["counts": ["garment": 1]])
        return path
    }

    /// The archive at `path` with the uncompressed size its headers (local and central) declare
    /// for the first member called `name` set to `size`: a lying header, as a zip bomb has.
    func declare(_ size: UInt32, for name: String, in path: String) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let nameBytes = Array(name.utf8)
        // (signature, offset of the uncompressed size, of the name's length, of the name)
        for (signature, sizeAt, lengthAt, nameAt) in [([0x50, 0x4B, 0x03, 0x04] as [UInt8], 22, 26, 30), ([0x50, 0x4B, 0x01, 0x02], 24, 28, 46)] {
            let at = (0..<(bytes.count - nameAt - nameBytes.count)).first { i in
                bytes[i..<(i + 4)].elementsEqual(signature) && Int(bytes[i + lengthAt]) | Int(bytes[i + lengthAt + 1]) << 8 == nameBytes.count
                    && bytes[(i + nameAt)..<(i + nameAt + nameBytes.count)].elementsEqual(nameBytes)
            }
            guard let at else { return XCTFail("no header for \(name)") }
            for k in 0..<4 { bytes[at + sizeAt + k] = UInt8(truncatingIfNeeded: size >> (8 * k)) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func testArchiveMemberNamesCannotEscape() {
        for bad in ["../x", "/etc/passwd", "a/../../b", "a//b", "a\\b", "", "a/./b", "x\u{1}", "a/", ".", "x\u{7F}", "a/\u{0}/b"] {
            XCTAssertFalse(BackupArchive.Reader.isSafeMemberName(bad), bad.debugDescription)
        }
        XCTAssertTrue(BackupArchive.Reader.isSafeMemberName("images/ab/cdef.jpg"))
        XCTAssertTrue(BackupArchive.Reader.isSafeMemberName("models/m_1/é…/a..b/.x"))
    }

    /// Regression: `isSafeMemberName` checked `/`, `..` and the leading `/` on Characters; a
    /// combining mark after a `/` made it part of another Character, so `../\u{301}x` (which the
    /// file system reads as `..` then `\u{301}x`) and `/\u{301}etc` passed as safe.
    func testMemberNamesWithACombiningMarkAfterASlashAreUnsafe() {
        XCTAssertFalse(BackupArchive.Reader.isSafeMemberName("../\u{301}x"))
        XCTAssertFalse(BackupArchive.Reader.isSafeMemberName("/\u{301}etc/passwd"))
        XCTAssertFalse(BackupArchive.Reader.isSafeMemberName("a\u{600}/../x"), "a prepended mark joins the `/` after it")
        XCTAssertTrue(BackupArchive.Reader.isSafeMemberName("images/..\u{600}/x"), "`..` and a mark is a name like any other")
        XCTAssertFalse(BackupArchive.Reader.isSafeMemberName("a\\\u{301}b"))
    }

    /// The reader, not its caller, makes a member's directories, and only once the name is
    /// known to be safe (see CatalogBackupTests' restore regression).
    func testExtractingUnderADirectoryCreatesNothingForAnUnsafeName() throws {
        let evil = "images/../../escaped/x.jpg"
        let path = try archive([("images/ab/c.jpg", 10), (evil, 10)])
        let reader = try BackupArchive.Reader(path: path)
        let under = dir + "/out/stores"
        XCTAssertThrowsError(try reader.extract(evil, under: under)) { XCTAssertTrue("\($0)".contains("is not allowed"), "\($0)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out/escaped"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: under))
        try reader.extract("images/ab/c.jpg", under: under)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: under + "/images/ab/c.jpg")), Data(repeating: 0x61, count: 10))
    }

    /// Regression: `BackupArchive.Reader.init` inflated all of `metadata.json` into memory
    /// before its 16 MiB check, and other members were extracted without any bound: a small
    /// archive could fill the memory or the disk (a zip bomb). Members are now inflated through
    /// `Limits`, stopped at the limit or the declared size, whichever comes first.
    func testAMetadataBombIsRefusedBeforeItInflates() throws {
        // 64 MiB of spaces, deflated to some 64 kB, before the real metadata.json.
        let path = try archive([], leadingMetadataBytes: 64 << 20)
        XCTAssertLessThan(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? .max, 1 << 20)
        XCTAssertThrowsError(try BackupArchive.Reader(path: path)) { error in
            XCTAssertEqual("\(error)", "metadata.json would inflate to 67108864 bytes, over the 16777216-byte limit for a backup member")
        }
        // The same bomb with a header that claims 100 bytes: stopped there, not at 64 MiB.
        try declare(100, for: "metadata.json", in: path)
        XCTAssertThrowsError(try BackupArchive.Reader(path: path)) { error in
            XCTAssertEqual("\(error)", "metadata.json inflates past the 100 bytes its header declares")
        }
    }

    func testAMemberIsStoppedAtItsDeclaredSize() throws {
        let name = "tables/garment.ndjson"
        let path = try archive([(name, 32 << 20)])
        try declare(1000, for: name, in: path)
        let out = dir + "/garment.ndjson"
        XCTAssertThrowsError(try BackupArchive.Reader(path: path).extract(name, to: out)) { error in
            XCTAssertEqual("\(error)", "\(name) inflates past the 1000 bytes its header declares")
        }
        XCTAssertLessThanOrEqual(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int ?? .max, 1000, "nothing past the declared size was written")
        // A header that claims more than there is.
        try declare(40 << 20, for: name, in: path)
        XCTAssertThrowsError(try BackupArchive.Reader(path: path).extract(name, to: out)) { error in
            XCTAssertEqual("\(error)", "\(name) inflates to 33554432 bytes, not the 41943040 its header declares")
        }
    }

    func testAMemberOverTheLimitIsRefusedBeforeItInflates() throws {
        let path = try archive([("tables/garment.ndjson", 2 << 20), ("images/a.jpg", 1000)])
        let reader = try BackupArchive.Reader(path: path, limits: BackupArchive.Limits(memberBytes: 1 << 20))
        let out = dir + "/garment.ndjson"
        XCTAssertThrowsError(try reader.extract("tables/garment.ndjson", to: out)) { error in
            XCTAssertTrue("\(error)".hasSuffix("over the 1048576-byte limit for a backup member"), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int, 0)
        XCTAssertNoThrow(try reader.extract("images/a.jpg", to: out), "members within the limit still extract")
    }
}
