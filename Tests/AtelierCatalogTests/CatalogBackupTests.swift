@testable import AtelierBackup
import AtelierFormats
import AtelierRecords
import Crypto
import Foundation
import AtelierTestSupport
import XCTest
@testable import AtelierCatalog

final class CatalogBackupTests: XCTestCase {
    var dir = ""
    /// A live catalog (one garment, `Coat`) that every refused restore must leave exactly as it was.
    var home: String { dir + "/home" }
    var catalogPath: String { home + "/catalog.sqlite" }

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "atelier-backup-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Catalog(path: catalogPath, create: true).write { writer in
            _ = try writer.apply(["type": "garment", "name": "Coat", "category": "outerwear"])
            return true
        }
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    /// Every file under `home`, with its bytes: what "the catalog was not changed" means.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: home)! {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: home + "/" + relative, isDirectory: &isDir), !isDir.boolValue {
                files[relative] = try Data(contentsOf: URL(fileURLWithPath: home + "/" + relative))
            }
        }
        return files
    }

    /// Restores `archive` into the live catalog, expects a refusal as an unusable archive whose
    /// message contains `expected`, and checks that nothing beside the catalog changed.
    func assertRefused(_ archive: String, _ expected: String, _ what: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try snapshot()
        XCTAssertThrowsError(try CatalogBackup.restore(archive: archive, into: catalogPath), what, file: file, line: line) { error in
            guard case .badArchive? = error as? CatalogError else { return XCTFail("\(what): not a bad archive: \(error)", file: file, line: line) }
            XCTAssertTrue("\(error)".contains(expected), "\(what): \(error)", file: file, line: line)
            XCTAssertTrue("\(error)".hasSuffix("; the catalog was not changed"), "\(error)", file: file, line: line)
        }
        XCTAssertEqual(try snapshot(), before, "\(what): the catalog and its stores are as they were", file: file, line: line)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix(".atelier-tmp-") }, [], "\(what): no scratch directory left", file: file, line: line)
    }

    func restoredNames() throws -> [String] {
        try Catalog(path: catalogPath, create: false).read { reader in
            var names: [String] = []
            try reader.forEach(type: "garment") { names.append($0["name"]?.string ?? "?") }
            return names
        }
    }

    // MARK: - Refusals (issue 21)

    /// Sanity: the hand-made archive the refusals below damage restores as it is.
    func testAHandMadeBackupRestores() throws {
        let backup = HandMadeBackup.withPhoto()
        try CatalogBackup.restore(archive: try backup.write(in: dir), into: catalogPath)
        XCTAssertEqual(try restoredNames(), ["Scarf"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: home + "/" + backup.photoName)), Data(HandMadeBackup.photo))
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/" + backup.thumbnailName))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix(".") }, [], "no scratch left")
    }

    /// Regression (issue 21, 1): a member `metadata.json` lists but the zip lacks was skipped,
    /// so the restore succeeded with an image record whose file did not exist.
    func testRestoreRefusesAnArchiveMissingAMemberItsMetadataLists() throws {
        var backup = HandMadeBackup.withPhoto()
        backup.leftOut = [backup.photoName]
        try assertRefused(try backup.write(in: dir), "\"\(backup.photoName)\" is listed in metadata.json but missing from the archive")
    }

    /// Regression (issue 21, 1): an image record whose file is in neither the archive nor the
    /// store was restored. It is refused; the same record restores when the store has the file.
    func testRestoreRefusesARecordWhoseStoreFileIsNowhere() throws {
        var backup = HandMadeBackup.withPhoto()
        let photoName = backup.photoName, thumbnailName = backup.thumbnailName
        backup.files.removeAll { $0.name == photoName }
        let archive = try backup.write(in: dir)
        try assertRefused(archive, "tables/image.ndjson:1: field \"path\" names \(backup.photoName), which is neither in the backup nor beside the catalog")
        backup.files.removeAll { $0.name == thumbnailName }
        try assertRefused(try backup.write(in: dir), "field \"path\"", "without the thumbnail either")

        try FileManager.default.createDirectory(atPath: home + "/" + (backup.photoName as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: home + "/" + backup.photoName, contents: Data(HandMadeBackup.photo)))
        try CatalogBackup.restore(archive: archive, into: catalogPath)
        XCTAssertEqual(try restoredNames(), ["Scarf"], "the photo already in the store is enough")
    }

    /// Regression (issue 21, 1): a model record naming a file under `models/` that is nowhere.
    func testRestoreRefusesAModelWhoseFilesAreNowhere() throws {
        var backup = HandMadeBackup()
        backup.tables["model"] = [#"{"type":"model","id":"m_01HZZZZZZZZZZZZZZZZZZZZZZZ","dir":"models/m1","files":{"mesh":"models/m1/mesh.ply"}}"#]
        backup.files = [(name: "models/m1/mesh.ply", bytes: Array("ply\n".utf8))]
        try CatalogBackup.restore(archive: try backup.write(in: dir), into: catalogPath)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/models/m1/mesh.ply"))
        try FileManager.default.removeItem(atPath: home + "/models")
        backup.files = [(name: "models/m1/texture.png", bytes: Array("png".utf8))]
        try assertRefused(try backup.write(in: dir), "field \"files.mesh\" names models/m1/mesh.ply, which is neither in the backup nor beside the catalog")
        backup.files = []
        backup.tables["model"] = [#"{"type":"model","id":"m_01HZZZZZZZZZZZZZZZZZZZZZZZ","dir":"models/m1","files":{}}"#]
        try assertRefused(try backup.write(in: dir), "field \"dir\" names models/m1, which is neither")
    }

    /// Regression (issue 21, 2): a photo member holding other bytes than its name's sha256
    /// (with a checksum in metadata.json that matches those bytes) was restored, and a later
    /// import of the real photo found it "already in the catalog".
    func testRestoreRefusesAPhotoWhoseBytesAreNotItsName() throws {
        var backup = HandMadeBackup.withPhoto()
        backup.files[0].bytes = Array("not the photo".utf8)
        try assertRefused(try backup.write(in: dir), "\(backup.photoName) is not the photo its name says")
        // And an image record naming another photo's address.
        backup = HandMadeBackup.withPhoto()
        let other = String(repeating: "0", count: 64)
        backup.tables["image"] = [#"{"type":"image","id":"sha256:\#(other)","path":"\#(backup.photoName)"}"#]
        try assertRefused(try backup.write(in: dir), "field \"path\" names \(backup.photoName), the photo whose sha256 is")
    }

    /// Regression (issue 21, 3): members with unsafe names, duplicate members, members not in
    /// the checksums and a newer catalog schema were skipped, and the restore exited 0.
    func testRestoreRefusesUnsafeNamesDuplicatesUnlistedMembersAndNewerSchemas() throws {
        let nameCases: [(String, [UInt8], String)] = [
            ("parent", Array("../x".utf8), #"member name "../x" is not allowed"#),
            ("absolute", Array("/abs".utf8), #"member name "/abs" is not allowed"#),
            ("through tables", Array("tables/../../x".utf8), #"member name "tables/../../x" is not allowed"#),
            ("backslash", Array(#"images\x.jpg"#.utf8), #"member name "images\\x.jpg" is not allowed"#),
            ("NUL", Array("x\u{0}y".utf8), #"member name "x\u0000y" is not allowed"#),
            ("NUL in a table's name", Array("tables/garment.ndjson\u{0}.jpg".utf8), "is not allowed"),
        ]
        for (what, name, expected) in nameCases {
            for listed in [true, false] {
                var backup = HandMadeBackup()
                backup.extra = [(name: name, bytes: Array("x".utf8), listed: listed)]
                try assertRefused(try backup.write(in: dir), expected, "\(what), \(listed ? "listed" : "unlisted")")
            }
        }
        var duplicate = HandMadeBackup()
        duplicate.extra = [(name: Array("tables/garment.ndjson".utf8), bytes: Array(#"{"type":"garment","name":"Evil","category":"top"}"#.utf8), listed: false)]
        try assertRefused(try duplicate.write(in: dir), #"it holds two members named "tables/garment.ndjson""#, "duplicate table")
        var twice = HandMadeBackup.withPhoto()
        twice.extra = [(name: Array(twice.photoName.utf8), bytes: HandMadeBackup.photo, listed: false)]
        try assertRefused(try twice.write(in: dir), "it holds two members named", "the same photo twice")

        var unlisted = HandMadeBackup()
        unlisted.extra = [(name: Array("images/extra.jpg".utf8), bytes: Array("x".utf8), listed: false)]
        try assertRefused(try unlisted.write(in: dir), #"member "images/extra.jpg" has no checksum in metadata.json"#)
        var foreign = HandMadeBackup()
        foreign.extra = [(name: Array("notes.txt".utf8), bytes: Array("x".utf8), listed: true)]
        try assertRefused(try foreign.write(in: dir), #"member "notes.txt" is not part of an Atelier backup"#)
        var unknownTable = HandMadeBackup()
        unknownTable.extra = [(name: Array("tables/closet.ndjson".utf8), bytes: [], listed: true)]
        try assertRefused(try unknownTable.write(in: dir), "is not a table this version knows")

        for (value, expected) in [(JSONValue.int(Int64(CatalogSchema.latestVersion + 1)), "made by a newer Atelier (catalog schema \(CatalogSchema.latestVersion + 1)"),
                                  (.string("2"), "has no schemaVersion"), (.int(0), "unknown schemaVersion")] {
            var newer = HandMadeBackup()
            newer.metadata = { $0["schemaVersion"] = value }
            try assertRefused(try newer.write(in: dir), expected, "schemaVersion \(value)")
        }
        var badCounts = HandMadeBackup()
        badCounts.metadata = { if case .object(var counts)? = $0["counts"] { counts["closet"] = 0; $0["counts"] = .object(counts) } }
        try assertRefused(try badCounts.write(in: dir), #"metadata.json counts "closet" records"#)
        var badSum = HandMadeBackup()
        badSum.metadata = { if case .object(var sums)? = $0["checksums"] { sums["tables/wear.ndjson"] = "md5:x"; $0["checksums"] = .object(sums) } }
        try assertRefused(try badSum.write(in: dir), "checksum for \"tables/wear.ndjson\" is not")
    }

    /// Regression (issue 21, 6): a record the catalog refused came out as
    /// `RecordsError.field(message: "expected a garment record")`.
    func testRestoreMessagesCarryNoSwiftDebugText() throws {
        var backup = HandMadeBackup()
        backup.tables["garment"] = [#"{"type":"outfit","name":"Mixed up"}"#]
        try assertRefused(try backup.write(in: dir), "tables/garment.ndjson:1: expected a garment record")
        backup.tables["garment"] = [#"{"type":"garment","name":"Coat","category":"spacesuit"}"#]
        let before = try snapshot()
        XCTAssertThrowsError(try CatalogBackup.restore(archive: try backup.write(in: dir), into: catalogPath)) { error in
            XCTAssertFalse("\(error)".contains("Error("), "\(error)")
            XCTAssertFalse("\(error)".contains("message:"), "\(error)")
            XCTAssertTrue("\(error)".contains("tables/garment.ndjson:1: "), "\(error)")
        }
        XCTAssertEqual(try snapshot(), before)
    }

    /// Regression: `CatalogBackup.restore` created a store member's parent directories before
    /// the reader checked the member's name, so an archive listing
    /// `images/../../../../escaped/x.jpg` made a directory outside the catalog's (the restore
    /// then failed, but the directory stayed).
    func testRestoreCreatesNothingOutsideTheCatalogForAnUnsafeMemberName() throws {
        let empty = dir + "/empty"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        let archive = dir + "/evil.atelier"
        let writer = try BackupArchive.Writer(destination: archive)
        for type in CatalogBackup.order { try writer.addFile(CatalogBackup.member(type), from: empty) }
        try writer.addFile("images/../../../../escaped/x.jpg", from: empty)
        try writer.finish(metadata: ["counts": .object(JSONObject(CatalogBackup.order.map { ($0, JSONValue.int(0)) })), "schemaVersion": 1])
        try assertRefused(archive, "is not allowed")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["empty", "evil.atelier", "home"])
    }

    // MARK: - Leftovers of killed runs (issue 21, 5)

    /// A pid no process has: a child that has exited.
    func deadPid() throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    /// Regression: a killed restore or backup left its `.atelier-tmp-*` scratch directory
    /// (113 MB for a 1.3 MB archive) for ever. The next one removes those of dead runs, and
    /// never one whose run is alive (its lock is held, or its pid runs).
    func testScratchDirectoriesOfDeadRunsAreRemovedAndLiveOnesKept() throws {
        let dead = try deadPid()
        let fm = FileManager.default
        func scratch(_ name: String) throws -> String {
            let path = home + "/" + name
            try fm.createDirectory(atPath: path + "/stores/images/ab", withIntermediateDirectories: true)
            XCTAssertTrue(fm.createFile(atPath: path + "/catalog.sqlite", contents: Data(count: 4096)))
            return path
        }
        let abandoned = try scratch(".atelier-tmp-\(dead)-1a2b3c")
        let running = try scratch(".atelier-tmp-\(getpid())-4d5e6f")  // a live pid, not locked yet
        let locked = try scratch(".atelier-tmp-\(dead)-777")            // a dead pid, but its lock is held
        let lock = open(locked, O_RDONLY | O_DIRECTORY)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        defer { close(lock) }
        let stranger = try scratch(".atelier-tmp-notours")

        try CatalogBackup.restore(archive: try HandMadeBackup().write(in: dir), into: catalogPath)
        XCTAssertFalse(fm.fileExists(atPath: abandoned), "a dead restore's scratch is removed")
        XCTAssertTrue(fm.fileExists(atPath: running + "/catalog.sqlite"), "a live run's is kept")
        XCTAssertTrue(fm.fileExists(atPath: locked + "/catalog.sqlite"), "a locked one is kept")
        XCTAssertTrue(fm.fileExists(atPath: stranger), "a name not of this version's form, and new, is kept")

        let exportDir = dir + "/out"
        try fm.createDirectory(atPath: exportDir, withIntermediateDirectories: true)
        let deadScratch = exportDir + "/.atelier-tmp-\(dead)-99"
        try fm.createDirectory(atPath: deadScratch, withIntermediateDirectories: true)
        let deadArchive = exportDir + "/.w.atelier.tmp-\(dead)"
        let liveArchive = exportDir + "/.w.atelier.tmp-\(getpid() == 1 ? 2 : 1)"  // pid 1 always runs
        let otherArchive = exportDir + "/.other.atelier.tmp-\(dead)"
        for path in [deadArchive, liveArchive, otherArchive] { XCTAssertTrue(fm.createFile(atPath: path, contents: Data(count: 100))) }
        try CatalogBackup.export(catalogPath: catalogPath, to: exportDir + "/w.atelier", toolVersion: "test")
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: exportDir).sorted(),
                       [(liveArchive as NSString).lastPathComponent, (otherArchive as NSString).lastPathComponent, "w.atelier"].sorted(),
                       "a dead export's scratch and temporary archive go; a live one's, and another destination's, stay")
    }

    /// The new catalog is now built with a rollback journal (a WAL held a second copy of the
    /// whole catalog in the scratch directory); the catalog that comes out is in WAL mode still.
    func testRestoredCatalogIsInWALMode() throws {
        try CatalogBackup.restore(archive: try HandMadeBackup.withPhoto().write(in: dir), into: catalogPath)
        let mode = try Catalog(path: catalogPath, create: false).queue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "wal")
    }
}

/// A backup archive made byte by byte, so that tests can damage it in every way a hostile
/// archive could: members left out, extra, duplicated or misnamed, metadata changed.
struct HandMadeBackup {
    /// The NDJSON lines of each table (the others are empty).
    var tables: [String: [String]] = ["garment": [#"{"type":"garment","id":"g_01HZZZZZZZZZZZZZZZZZZZZZZZ","name":"Scarf","category":"accessory"}"#]]
    /// Store files, listed in the checksums.
    var files: [(name: String, bytes: [UInt8])] = []
    /// Listed in metadata.json but not in the zip.
    var leftOut: Set<String> = []
    /// Raw members added after the rest (listed with their own sha256 when `listed`).
    var extra: [(name: [UInt8], bytes: [UInt8], listed: Bool)] = []
    /// A last change to metadata.json.
    var metadata: (inout JSONObject) -> Void = { _ in }

    static let photo: [UInt8] = Array("a photo, byte for byte".utf8)
    static var photoHex: String { SHA256.hash(data: photo).map { String(format: "%02x", $0) }.joined() }
    var photoName: String { "images/\(Self.photoHex.prefix(2))/\(Self.photoHex.dropFirst(2)).jpg" }
    var thumbnailName: String { "images/thumbs/\(Self.photoHex.prefix(2))/\(Self.photoHex.dropFirst(2))-256.jpg" }

    /// A garment and an image record, with the photo and its thumbnail.
    static func withPhoto() -> HandMadeBackup {
        var backup = HandMadeBackup()
        backup.tables["image"] = [#"{"type":"image","id":"sha256:\#(photoHex)","path":"\#(backup.photoName)","thumbnail":"\#(backup.thumbnailName)","width":4,"height":3}"#]
        backup.files = [(name: backup.photoName, bytes: photo), (name: backup.thumbnailName, bytes: Array("thumb".utf8))]
        return backup
    }

    static func checksum(_ bytes: [UInt8]) -> String { "sha256:" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    func write(in dir: String) throws -> String {
        var members: [(name: [UInt8], bytes: [UInt8])] = []
        var sums = JSONObject()
        var counts = JSONObject()
        for type in CatalogBackup.order {
            let lines = tables[type] ?? []
            let bytes = Array(lines.map { $0 + "\n" }.joined().utf8)
            members.append((Array(CatalogBackup.member(type).utf8), bytes))
            sums[CatalogBackup.member(type)] = .string(Self.checksum(bytes))
            counts[type] = .int(Int64(lines.count))
        }
        for file in files {
            members.append((Array(file.name.utf8), file.bytes))
            sums[file.name] = .string(Self.checksum(file.bytes))
        }
        members.removeAll { leftOut.contains(String(decoding: $0.name, as: UTF8.self)) }
        for member in extra {
            members.append((member.name, member.bytes))
            if member.listed { sums[String(decoding: member.name, as: UTF8.self)] = .string(Self.checksum(member.bytes)) }
        }
        var meta: JSONObject = ["format": "atelier-backup", "formatVersion": 1, "toolVersion": "test",
                                "schemaVersion": .int(Int64(CatalogSchema.latestVersion)), "exportedAt": "2026-11-21T10:00:00Z",
                                "counts": .object(counts), "checksums": .object(sums)]
        metadata(&meta)
        members.append((Array("metadata.json".utf8), Array(JSONWriter.string(.object(meta)).utf8)))
        let path = dir + "/hand-made-\(UUID().uuidString).atelier"
        try Data(StoredZip.make(members.map { StoredZip.Member(rawName: $0.0, $0.1) })).write(to: URL(fileURLWithPath: path))
        return path
    }
}
