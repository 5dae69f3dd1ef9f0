import AtelierRecords
import Foundation
import XCTest
@testable import AtelierFormats

/// Seeded fuzzing of the backup container: member names are judged safe exactly when their
/// path components are, and damaged archives are refused with a message, never a crash.
/// (Named `BackupArchiveParserFuzzTests` so that `--filter ParserFuzz` selects it.)
final class BackupArchiveParserFuzzTests: XCTestCase {
    static let seed: UInt64 = 0xB4C_0A2C_2026

    /// The contract on raw bytes: relative, under 1024 bytes, no backslash, no control byte
    /// (C0 or DEL), and no component (between `/` bytes) that is empty, `.` or `..`.
    static func referenceIsSafe(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count < 1024, bytes.first != 0x2F, !bytes.contains(0x5C), !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return false }
        return !bytes.split(separator: 0x2F, omittingEmptySubsequences: false).contains { $0.isEmpty || $0.elementsEqual([0x2E]) || $0.elementsEqual([0x2E, 0x2E]) }
    }

    func testMemberNamesAreSafeExactlyWhenTheirBytesAre() {
        var random = FuzzRandom(seed: Self.seed)
        let pieces = ["images", "a", "x.jpg", "/", "/", "//", ".", "..", "...", "\\", "\u{301}", "\u{600}", "\u{0}", "\u{1F}", "\u{7F}", "é", " ", "~", ":", "\u{2215}", "%2e%2e"]
        var safe = 0
        for n in 0..<5000 {
            let name = (0..<(1 + random.below(6))).map { _ in random.pick(pieces) }.joined()
            let want = Self.referenceIsSafe(name)
            if BackupArchive.Reader.isSafeMemberName(name) != want {
                return XCTFail("seed \(Self.seed), case \(n): \(name.debugDescription) judged \(want ? "unsafe" : "safe")")
            }
            if want { safe += 1 }
        }
        XCTAssertGreaterThan(safe, 500)
        XCTAssertFalse(BackupArchive.Reader.isSafeMemberName(String(repeating: "a/", count: 600) + "b"), "names of 1024 bytes or more")
    }

    /// A small genuine backup: metadata, a table, an image.
    func makeArchive(in dir: String) throws -> [UInt8] {
        let table = dir + "/garment.ndjson"
        try #"{"type":"garment","id":"g_1","name":"Coat"}"#.appending("\n").write(toFile: table, atomically: true, encoding: .utf8)
        let image = dir + "/image.jpg"
        try Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }).write(to: URL(fileURLWithPath: image))
        let writer = try BackupArchive.Writer(destination: dir + "/backup.atelier")
        try writer.addFile("tables/garment.ndjson", from: table)
        try writer.addFile("images/ab/cdef.jpg", from: image, compress: false)
        try writer.finish(metadata: ["counts": ["garment": 1]])
        return Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/backup.atelier")))
    }

    func testDamagedArchivesAreRefusedWithoutACrash() throws {
        let dir = NSTemporaryDirectory() + "backup-fuzz-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try makeArchive(in: dir)
        let reader = try BackupArchive.Reader(path: dir + "/backup.atelier")
        XCTAssertEqual(reader.members, ["tables/garment.ndjson", "images/ab/cdef.jpg"])

        var random = FuzzRandom(seed: Self.seed &+ 1)
        var opened = 0
        var extracted = 0
        let path = dir + "/damaged.atelier"
        for n in 0..<400 {
            var bytes = original
            for _ in 0...random.below(3) {
                let at = random.below(bytes.count)
                switch random.below(5) {
                case 0: bytes.removeSubrange(at...)
                case 1: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 2: bytes[at] ^= 1 << random.below(8)
                case 3: bytes.replaceSubrange(at..<min(bytes.count, at + 4), with: random.pick([[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0x7F]]))
                default: bytes.insert(contentsOf: (0..<(1 + random.below(8))).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
                }
            }
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return XCTFail("cannot write \(path)") }
            guard let damaged = try? BackupArchive.Reader(path: path) else { continue }
            opened += 1
            for member in damaged.members {
                do {
                    try damaged.extract(member, to: dir + "/out-\(n)")
                    extracted += 1
                } catch {
                    XCTAssertFalse("\(error)".isEmpty)
                }
                unlink(dir + "/out-\(n)")
            }
        }
        XCTAssertGreaterThan(opened, 20, "some damage leaves the archive readable")
        XCTAssertGreaterThan(extracted, 0)
    }
}
