@testable import AtelierBackup
import AtelierRecords
import Foundation
import AtelierTestSupport
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
        var random = SplitMix64(seed: Self.seed)
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

    /// Each damaged archive is either refused as a whole with `BackupError.badArchive`, or
    /// opens; then each of its members either extracts to exactly the bytes that were archived,
    /// or is refused with `BackupError.badArchive` that names it. Nothing else is allowed
    /// (another error, a refusal naming another member, different bytes), and each of the four
    /// outcomes must occur.
    /// Whether `error` is the reader's refusal of the archive (not a write failure, nor another error).
    static func isBadArchive(_ error: Error) -> Bool {
        if case BackupError.badArchive? = error as? BackupError { return true }
        return false
    }

    func testDamagedArchivesAreRefusedWithoutACrash() throws {
        let dir = NSTemporaryDirectory() + "backup-fuzz-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try makeArchive(in: dir)
        let archived = ["tables/garment.ndjson": try Data(contentsOf: URL(fileURLWithPath: dir + "/garment.ndjson")),
                        "images/ab/cdef.jpg": try Data(contentsOf: URL(fileURLWithPath: dir + "/image.jpg"))]
        let reader = try BackupArchive.Reader(path: dir + "/backup.atelier")
        XCTAssertEqual(reader.members, ["tables/garment.ndjson", "images/ab/cdef.jpg"])

        var random = SplitMix64(seed: Self.seed &+ 1)
        // Lengths and counts to all ones, to zero, or just below a sign bit.
        let mutator = ByteMutator(tokens: [[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0x7F]])
        var refused = 0, opened = 0, extracted = 0, memberRefused = 0
        let path = dir + "/damaged.atelier"
        for n in 0..<400 {
            let bytes = mutator.mutate(original, &random)
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return XCTFail("cannot write \(path)") }
            let damaged: BackupArchive.Reader
            do { damaged = try BackupArchive.Reader(path: path) } catch {
                XCTAssertTrue(Self.isBadArchive(error), "case \(n): refused with \(type(of: error)) \(error)")
                refused += 1
                continue
            }
            opened += 1
            XCTAssertTrue(Set(damaged.members).isSubset(of: archived.keys), "case \(n): \(damaged.members)")
            for member in damaged.members {
                let out = dir + "/out-\(n)"
                defer { unlink(out) }
                do {
                    try damaged.extract(member, to: out)
                    let written = Array(FileManager.default.contents(atPath: out) ?? Data()), expected = Array(archived[member] ?? Data())
                    XCTAssertTrue(written == expected, "case \(n): \(member) extracted other bytes (\(written.count), the first "
                                  + "different at \(zip(written, expected).enumerated().first { $1.0 != $1.1 }?.offset ?? min(written.count, expected.count)))")
                    extracted += 1
                } catch BackupError.badArchive(let failure) {
                    XCTAssertTrue(failure.hasPrefix(member + " "), "case \(n): refusing \(member): \(failure)")
                    memberRefused += 1
                } catch {
                    XCTFail("case \(n): \(member) refused with \(type(of: error)) \(error)")
                }
            }
        }
        XCTAssertEqual(refused + opened, 400)
        XCTAssertGreaterThan(refused, 20, "most damage refuses the archive")
        XCTAssertGreaterThan(opened, 20, "some damage leaves the archive readable")
        XCTAssertGreaterThan(extracted, 20, "some members are untouched")
        XCTAssertGreaterThan(memberRefused, 20, "some damage is found only when a member is read")
    }

    /// Hostile archives built member by member (issue 21): names from dangerous pieces
    /// (`..`, `/`, backslashes, NULs, combining marks), duplicates, links and directories,
    /// checksums right, wrong, malformed, missing or for members that are not there, sizes that
    /// lie. The reader refuses each with its own error, or lists members that are safe, unique
    /// and checksummed and extracts them exactly; and nothing is ever written outside the
    /// directory they are extracted into. (The same oracle runs under libFuzzer in
    /// fuzz/BackupArchiveFuzz.swift.)
    func testHostileArchivesNeverWriteOutsideTheTarget() throws {
        try assertNoCrash("hostile archives", timeoutSeconds: 120) {
            let parent = NSTemporaryDirectory() + "backup-hostile-\(getpid())"
            let sandbox = parent + "/sandbox"
            try? FileManager.default.removeItem(atPath: parent)
            try FileManager.default.createDirectory(atPath: sandbox, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: parent) }
            let archive = sandbox + "/archive.atelier", target = sandbox + "/target"
            let pieces = ["images/", "tables/", "models/", "ab/", "a", "x.jpg", "garment.ndjson", "../", "..", ".", "/", "\\", "\u{0}",
                          "\u{1F}", "é", "\u{301}", "metadata.json", "//", "thumbs/"]
            var random = SplitMix64(seed: Self.seed &+ 2)
            var opened = 0, extracted = 0
            let safePieces = ["images/", "models/", "ab/", "a", "x.jpg", "é", "\u{301}", "thumbs/", ".x", "..."]
            for n in 0..<600 {
                // Half the archives are hostile throughout; the others are sound but for an
                // odd damage here and there, so that extraction runs too.
                let hostile = random.chance(percent: 50)
                let odds = hostile ? 20 : 3
                var members: [StoredZip.Member] = []
                var sums = JSONObject()
                for _ in 0...random.below(5) {
                    let name = (0...random.below(4)).map { _ in random.pick(random.chance(percent: odds) ? pieces : safePieces) }.joined()
                    let bytes = (0..<random.below(40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    let mode = random.chance(percent: 100 - odds) ? 0o100644 : random.pick([0o40755, 0o120777])
                    members.append(StoredZip.Member(name, bytes, mode: mode, declaredSize: random.chance(percent: odds) ? random.below(100) : nil))
                    if random.chance(percent: odds) {
                        switch random.below(3) {
                        case 0: break
                        case 1: sums[name] = .string(StoredZip.checksum(bytes + [0]))
                        default: sums[name] = "sha256:xyz"
                        }
                    } else {
                        sums[name] = .string(StoredZip.checksum(bytes))
                    }
                }
                if random.chance(percent: odds) { sums["images/gone.jpg"] = .string(StoredZip.checksum([])) }
                let version = random.chance(percent: odds) ? random.below(3) : 1
                let meta: JSONObject = ["format": "atelier-backup", "formatVersion": .int(Int64(version)), "checksums": .object(sums)]
                let bytes = StoredZip.make(members + [StoredZip.Member("metadata.json", Array(JSONWriter.string(.object(meta)).utf8))])
                guard FileManager.default.createFile(atPath: archive, contents: Data(bytes)) else { return XCTFail("cannot write \(archive)") }
                defer { try? FileManager.default.removeItem(atPath: target) }
                let reader: BackupArchive.Reader
                do { reader = try BackupArchive.Reader(path: archive) } catch {
                    XCTAssertTrue(Self.isBadArchive(error), "case \(n): \(error)")
                    continue
                }
                opened += 1
                XCTAssertEqual(Set(reader.members).count, reader.members.count, "case \(n): a member listed twice")
                for name in reader.members {
                    XCTAssertTrue(BackupArchive.Reader.isSafeMemberName(name), "case \(n): \(name.debugDescription)")
                    guard let sum = reader.checksum(of: name) else { return XCTFail("case \(n): \(name.debugDescription) has no checksum") }
                    do {
                        try reader.extract(name, under: target)
                        let written = try XCTUnwrap(FileManager.default.contents(atPath: target + "/" + name), "case \(n)")
                        XCTAssertEqual(StoredZip.checksum(Array(written)), sum, "case \(n): \(name.debugDescription) extracted other bytes")
                        extracted += 1
                    } catch {
                        XCTAssertTrue(Self.isBadArchive(error), "case \(n): \(name.debugDescription): \(error)")
                    }
                }
                // On bytes: a name may begin with a combining mark, which String's hasPrefix joins to the `/`.
                let outside = (FileManager.default.enumerator(atPath: sandbox)?.allObjects as? [String] ?? [])
                    .filter { $0 != "archive.atelier" && $0 != "target" && !$0.utf8.starts(with: "target/".utf8) }
                XCTAssertEqual(outside, [], "case \(n): written outside the target")
                XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parent), ["sandbox"], "case \(n): written beside the sandbox")
            }
            XCTAssertGreaterThan(opened, 30, "enough archives open to exercise extraction")
            XCTAssertGreaterThan(extracted, 30)
        }
    }
}
