import XCTest
@testable import AtelierTransfer

/// Manifest paths, manifest rules, splitting into parts, and the message encoding.
final class ManifestTests: XCTestCase {
    func entry(_ path: String, size: UInt64 = 10) throws -> ManifestEntry {
        ManifestEntry(path: try ManifestPath(validating: path), size: size)
    }

    func reason(_ path: String) -> String? {
        do { _ = try ManifestPath(validating: path); return nil } catch TransferError.unsafePath(_, let reason) { return reason } catch { return "\(error)" }
    }

    func testSafePathsPass() throws {
        for path in ["a.jpg", "scans/shoe/IMG_0001.JPG", "é/ü.png", "a..b", ".hidden", "con-tent.txt", "console", "日本/写真.jpg", "x y/z"] {
            XCTAssertNil(reason(path), path)
        }
        XCTAssertEqual(try ManifestPath(validating: "a/b/c.jpg").components, ["a", "b", "c.jpg"])
    }

    func testHostilePathsAreRefusedWithTheRule() {
        XCTAssertEqual(reason("../../etc/passwd"), "'.' and '..' components are not allowed")
        XCTAssertEqual(reason("a/../../b"), "'.' and '..' components are not allowed")
        XCTAssertEqual(reason("./a"), "'.' and '..' components are not allowed")
        XCTAssertEqual(reason("/etc/passwd"), "absolute paths are not allowed")
        XCTAssertEqual(reason("a//b"), "empty path component")
        XCTAssertEqual(reason("a/"), "empty path component")
        XCTAssertEqual(reason(""), "it is empty")
        XCTAssertEqual(reason("a\\..\\b"), "backslashes are not allowed")
        XCTAssertEqual(reason("a\u{0}b"), "it contains a NUL byte")
        XCTAssertEqual(reason("a\nb"), "it contains a control character")
        XCTAssertEqual(reason("a\u{7F}"), "it contains a control character")
        XCTAssertEqual(reason("a\u{85}"), "it contains a control character")
        XCTAssertEqual(reason("gpj.\u{202E}exe"), "it contains an invisible formatting character (U+202E)")
        XCTAssertEqual(reason("e\u{301}.jpg"), "not in Unicode normalization form C")
        XCTAssertEqual(reason("NUL"), "'nul' is a device name")
        XCTAssertEqual(reason("dir/com1.txt"), "'com1.txt' is a device name")
        XCTAssertEqual(reason("Lpt9"), "'lpt9' is a device name")
        XCTAssertEqual(reason("a./b"), "a component ends in a space or a dot")
        XCTAssertEqual(reason("a "), "a component ends in a space or a dot")
        XCTAssertEqual(reason("..."), "a component ends in a space or a dot")
        XCTAssertEqual(reason(String(repeating: "a", count: 256)), "a component is longer than 255 bytes")
        XCTAssertEqual(reason(String(repeating: "a/", count: 64) + "b"), "deeper than 64 directories")
        XCTAssertEqual(reason(String(repeating: "abcdefgh/", count: 120)), "longer than 1024 bytes")
        XCTAssertEqual(try ManifestPath(normalizing: "e\u{301}.jpg").string.unicodeScalars.count, 5, "the sender composes")
        XCTAssertThrowsError(try ManifestPath(bytes: [0x61, 0xFF, 0x62][...])) {
            XCTAssertEqual($0 as? TransferError, .unsafePath("a\u{FFFD}b", reason: "not valid UTF-8"))
        }
    }

    func testManifestRules() throws {
        let manifest = try Manifest(batchID: "b_01J9", entries: [entry("a/1.jpg", size: 5), entry("a/2.jpg", size: 7), entry("b.jpg", size: 0)])
        XCTAssertEqual(manifest.totalBytes, 12)
        func error(_ build: () throws -> Manifest) -> TransferError? {
            do { _ = try build(); return nil } catch { return error as? TransferError }
        }
        XCTAssertEqual(error { try Manifest(batchID: "b", entries: [self.entry("x"), self.entry("x")]) }, .invalidManifest("x is listed twice"))
        XCTAssertEqual(error { try Manifest(batchID: "b", entries: [self.entry("x"), self.entry("x/y")]) }, .invalidManifest("x is both a file and the directory of x/y"))
        XCTAssertEqual(error { try Manifest(batchID: "../b", entries: []) }, .invalidManifest("batch id \"../b\" must be 1 to 64 of A-Z a-z 0-9 _ -"))
        XCTAssertEqual(error { try Manifest(batchID: "b", entries: [self.entry("x", size: .max), self.entry("y", size: 2)]) },
                       .invalidManifest("the files add up to more than the limit of \(ManifestLimits.standard.maxTotalBytes) bytes"))
        XCTAssertEqual(error { try Manifest(batchID: "b", entries: [self.entry("x"), self.entry("y")], limits: ManifestLimits(maxEntries: 1)) },
                       .invalidManifest("2 files, more than the limit of 1"))
    }

    func testLargeManifestsTravelInPartsAndReassemble() throws {
        let entries = try (0..<5000).map { try entry("scans/\($0 / 100)/img-\($0)-" + String(repeating: "x", count: 200) + ".jpg", size: UInt64($0)) }
        let manifest = try Manifest(batchID: "b_big", entries: entries)
        let parts = manifest.parts()
        XCTAssertGreaterThan(parts.count, 1)
        var assembler = ManifestAssembler()
        var result: Manifest?
        for (i, part) in parts.enumerated() {
            let encoded = TransferMessage.manifest(part).encoded
            XCTAssertLessThanOrEqual(encoded.count, FrameLimits.maxPlaintextBytes)
            guard case .manifest(let decoded) = try TransferMessage.decode(encoded[...]) else { return XCTFail("part \(i)") }
            result = try assembler.add(decoded)
            XCTAssertEqual(result == nil, i < parts.count - 1)
        }
        XCTAssertEqual(result, manifest)
        var skipping = ManifestAssembler()
        XCTAssertNil(try skipping.add(parts[0]))
        XCTAssertThrowsError(try skipping.add(parts[0])) {
            XCTAssertEqual($0 as? TransferError, .invalidManifest("manifest part starts at entry 0, expected \(parts[1].firstIndex)"))
        }
        var empty = ManifestAssembler()
        XCTAssertEqual(try empty.add(try Manifest(batchID: "b_0", entries: []).parts()[0])?.entries.count, 0)
    }

    func testEveryMessageRoundTripsExactly() throws {
        let part = try Manifest(batchID: "b_1", entries: [entry("a.jpg", size: 3)]).parts()[0]
        let messages: [TransferMessage] = [
            .hello(Hello(role: .receiver, software: "atl-recv 0.1")), .manifest(part), .resume([.need, .have(1 << 40, prefixSHA256: [UInt8](repeating: 7, count: 32)), .present(sha256: [UInt8](repeating: 8, count: 32))]),
            .data(entry: 7, offset: 1 << 33, bytes: [1, 2, 3][...]), .data(entry: 0, offset: 0, bytes: [][...]),
            .fileEnd(entry: 1, sha256: [UInt8](repeating: 9, count: 32)), .fileVerified(entry: 4), .endBatch(files: 30, bytes: 1 << 30),
            .batchVerified, .abort(.diskFull, message: "need 12 GB, 3 GB free"), .abort(AbortReason(rawValue: 200), message: ""), .close,
        ]
        for message in messages {
            let bytes = message.encoded
            XCTAssertEqual(bytes.first, message.type)
            XCTAssertEqual(try TransferMessage.decode(bytes[...]), message, message.name)
            // A data message's bytes run to the end of the frame; every other message has one length.
            guard case .data = message else {
                XCTAssertThrowsError(try TransferMessage.decode((bytes + [0])[...]), "\(message.name) with a trailing byte")
                if bytes.count > 1 { XCTAssertThrowsError(try TransferMessage.decode(bytes.dropLast()), "\(message.name) cut short") }
                continue
            }
        }
        XCTAssertEqual(hex(TransferMessage.resume([.need, .have(5, prefixSHA256: [UInt8](repeating: 0xAA, count: 32)), .present(sha256: [UInt8](repeating: 0xBB, count: 32))]).encoded),
                       "030000000300010000000000000005" + String(repeating: "aa", count: 32) + "02" + String(repeating: "bb", count: 32))
        // Version 2's manifest entry: path and size, no digest.
        XCTAssertEqual(hex(TransferMessage.manifest(part).encoded), "02" + "0003625f31" + "00000001" + "0000000000000003" + "00000000" + "00000001" + "0005612e6a7067" + "0000000000000003")
        XCTAssertEqual(AbortReason(rawValue: 200).description, "reason 200")
        let long = String(repeating: "é", count: 600)
        guard case .abort(_, let text) = try TransferMessage.decode(TransferMessage.abort(.cancelled, message: long).encoded[...]) else { return XCTFail() }
        XCTAssertEqual(text.utf8.count, 1024, "cut at a character boundary")
        XCTAssertThrowsError(try TransferMessage.decode([0x42][...])) {
            XCTAssertEqual($0 as? TransferError, .malformedMessage("unknown type 0x42", reason: "unknown message type"))
        }
        XCTAssertThrowsError(try TransferMessage.decode([0x03, 0xFF, 0xFF, 0xFF, 0xFF][...]), "a count the bytes cannot hold")
    }
}
