@testable import AtelierBackup
import AtelierRecords
import Foundation
import AtelierTestSupport
import XCTest
import ZIPFoundation
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
    func archive(_ members: [(String, Int)]) throws -> String {
        let path = dir + "/backup.atelier"
        let writer = try BackupArchive.Writer(destination: path)
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

    /// The reader, not its caller, makes a member's directories, and only for a member: an
    /// archive with an unsafe name is refused as it opens, before anything is made (see
    /// CatalogBackupTests' restore regression).
    func testExtractingUnderADirectoryCreatesNothingForAnUnsafeName() throws {
        let evil = "images/../../escaped/x.jpg"
        let path = try archive([("images/ab/c.jpg", 10), (evil, 10)])
        XCTAssertThrowsError(try BackupArchive.Reader(path: path)) { XCTAssertTrue("\($0)".contains("is not allowed"), "\($0)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/escaped"))
        let reader = try BackupArchive.Reader(path: try archive([("images/ab/c.jpg", 10)]))
        let under = dir + "/out/stores"
        XCTAssertThrowsError(try reader.extract(evil, under: under)) { XCTAssertTrue("\($0)".contains("is not a member"), "\($0)") }
        XCTAssertFalse(FileManager.default.fileExists(atPath: under))
        try reader.extract("images/ab/c.jpg", under: under)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: under + "/images/ab/c.jpg")), Data(repeating: 0x61, count: 10))
    }

    /// Regression: `BackupArchive.Reader.init` inflated all of `metadata.json` into memory
    /// before its 16 MiB check, and other members were extracted without any bound: a small
    /// archive could fill the memory or the disk (a zip bomb). Members are now inflated through
    /// `Limits`, stopped at the limit or the declared size, whichever comes first.
    func testAMetadataBombIsRefusedBeforeItInflates() throws {
        // 64 MiB of spaces, deflated to some 64 kB, as the archive's metadata.json.
        let path = dir + "/bomb.atelier"
        let zip = try Archive(url: URL(fileURLWithPath: path), accessMode: .create, pathEncoding: nil)
        try zip.addEntry(with: "metadata.json", fileURL: URL(fileURLWithPath: try file("bomb.json", 64 << 20)), compressionMethod: .deflate)
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

    /// Regression (issue 21, 3): the reader looked only at members listed in metadata.json, so a
    /// duplicate, an unlisted member or an unsafe name was skipped rather than refused, and a
    /// listed member missing from the zip went unnoticed until (or unless) it was extracted.
    /// Whatever a writer never makes now refuses the whole archive as it opens.
    func testTheReaderRefusesAnythingAWriterNeverMakes() throws {
        let table = StoredZip.Member("tables/garment.ndjson", Array("{}\n".utf8))
        let photo = StoredZip.Member("images/ab/cd.jpg", Array("jpeg".utf8))
        func open(_ bytes: [UInt8]) throws -> BackupArchive.Reader {
            let path = dir + "/made-\(UUID().uuidString).atelier"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return try BackupArchive.Reader(path: path)
        }
        func refused(_ bytes: [UInt8], _ expected: String, line: UInt = #line) {
            XCTAssertThrowsError(try open(bytes), line: line) { XCTAssertTrue("\($0)".contains(expected), "\($0)", line: line) }
        }
        XCTAssertEqual(try open(StoredZip.backup([table, photo])).members, ["tables/garment.ndjson", "images/ab/cd.jpg"])
        // A directory entry, as `zip -r` writes: nothing to extract, so it is passed over.
        XCTAssertEqual(try open(StoredZip.backup([photo], extra: [StoredZip.Member("images/", [], mode: 0o40755)])).members, ["images/ab/cd.jpg"])

        for name in ["../x", "/abs", "tables/../../x", "a\\b", "x\u{0}y", "a//b", "a/", "./a", ""] {
            refused(StoredZip.backup([table, StoredZip.Member(name, [1])]), "is not allowed")
            // Unlisted too: refused for its name, not passed over for want of a checksum.
            refused(StoredZip.backup([table], extra: [StoredZip.Member(name, [1])]), "is not allowed")
        }
        refused(StoredZip.backup([table, table]), "it holds two members named \"tables/garment.ndjson\"")
        refused(StoredZip.backup([table], extra: [StoredZip.Member("tables/garment.ndjson", Array("{\"evil\":1}\n".utf8))]), "two members")
        refused(StoredZip.backup([table, StoredZip.Member("images/link.jpg", Array("/etc/passwd".utf8), mode: 0o120777)]), "is a symbolic link")
        refused(StoredZip.backup([table], edit: { if case .object(var sums)? = $0["checksums"] { sums["images/gone.jpg"] = .string(StoredZip.checksum([])); $0["checksums"] = .object(sums) } }),
                "\"images/gone.jpg\" is listed in metadata.json but missing from the archive")
        refused(StoredZip.backup([table], edit: { $0["checksums"] = .object([:]) }), "member \"tables/garment.ndjson\" has no checksum in metadata.json")
        refused(StoredZip.backup([table], edit: { if case .object(var sums)? = $0["checksums"] { sums["tables/garment.ndjson"] = "sha256:ABC"; $0["checksums"] = .object(sums) } }),
                "is not \"sha256:\" and 64 hex digits")
        refused(StoredZip.backup([table], edit: { if case .object(var sums)? = $0["checksums"] { sums["metadata.json"] = .string(StoredZip.checksum([])); $0["checksums"] = .object(sums) } }),
                "metadata.json lists a checksum for itself")
        refused(StoredZip.backup([table], edit: { $0["formatVersion"] = 2 }), "made by a newer Atelier (backup format 2)")
        refused(StoredZip.backup([table], edit: { $0["checksums"] = nil }), "metadata.json has no checksums")
        refused(StoredZip.backup([table, StoredZip.Member("metadata.json", [])]), "two members named \"metadata.json\"")

        let sized = dir + "/sized.atelier"
        try Data(StoredZip.backup([table, StoredZip.Member("images/big.jpg", Array(repeating: 7, count: 100))])).write(to: URL(fileURLWithPath: sized))
        XCTAssertEqual(try BackupArchive.Reader(path: sized).declaredBytes, 103)
        XCTAssertThrowsError(try BackupArchive.Reader(path: sized, limits: BackupArchive.Limits(totalBytes: 50))) {
            XCTAssertTrue("\($0)".contains("more than the 50-byte limit for a backup"), "\($0)")
        }
        XCTAssertThrowsError(try BackupArchive.Reader(path: sized, limits: BackupArchive.Limits(memberCount: 1))) {
            XCTAssertEqual("\($0)", "it has more than 1 members")
        }
    }

    /// `extract(_:to: nil)` verifies a member without writing it (restore does this for photos
    /// the store already has), and `extract(_:into:)` streams it; both check the sha256.
    func testMembersCanBeVerifiedWithoutWritingThem() throws {
        let good = StoredZip.Member("images/a.jpg", Array("jpeg".utf8))
        var bytes = StoredZip.backup([good])
        let path = dir + "/v.atelier"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try BackupArchive.Reader(path: path).extract("images/a.jpg", to: nil)
        var streamed: [UInt8] = []
        try BackupArchive.Reader(path: path).extract("images/a.jpg") { streamed += $0 }
        XCTAssertEqual(streamed, good.bytes)
        // The same member with other bytes (its CRC matches them): the checksum catches it.
        bytes = StoredZip.backup([StoredZip.Member("images/a.jpg", Array("JPEG".utf8))], edit: { $0["checksums"] = ["images/a.jpg": .string(StoredZip.checksum(good.bytes))] })
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try BackupArchive.Reader(path: path).extract("images/a.jpg", to: nil)) { XCTAssertEqual("\($0)", "images/a.jpg does not match its checksum") }
    }
}
