import XCTest
@testable import AtelierTransfer

/// The DNS codec on packets built by other software and by hand, and on malformed names.
final class DNSMessageTests: XCTestCase {
    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static func name(_ text: String) -> DNSName { try! DNSName(text) }

    /// A response python-zeroconf 0.154 builds (DNSOutgoing.packets()): a PTR answer, and SRV
    /// (target compressed), TXT and A additionals with the cache-flush bit.
    static let zeroconfResponse = bytes(
        "000084000000000100000003085f6174656c696572045f746370056c6f63616c00000c000100001194000b087a632d372d616263c00c"
            + "c02b002180010000007800160000000010920d7a65726f636f6e662d70656572c01ac02b0010800100001194000803763d31036e3d37"
            + "c048000180010000007800040afb0002")
    /// A PTR query from python-zeroconf with the QU bit.
    static let zeroconfQuery = bytes("000000000001000000000000085f6174656c696572045f746370056c6f63616c00000c8001")

    func testDecodesAZeroconfResponse() throws {
        let message = try DNSMessage(bytes: Self.zeroconfResponse)
        XCTAssertTrue(message.isResponse)
        XCTAssertEqual(message.flags, 0x8400)
        XCTAssertEqual(message.questions, [])
        let instance = Self.name("zc-7-abc._atelier._tcp.local.")
        let host = Self.name("zeroconf-peer.local.")
        XCTAssertEqual(message.answers, [DNSResourceRecord(name: Self.name("_atelier._tcp.local."), ttlSeconds: 4500, data: .ptr(instance))])
        XCTAssertEqual(message.additionals, [
            DNSResourceRecord(name: instance, ttlSeconds: 120, cacheFlush: true, data: .srv(priority: 0, weight: 0, port: 4242, target: host)),
            DNSResourceRecord(name: instance, ttlSeconds: 4500, cacheFlush: true, data: .txt([Array("v=1".utf8), Array("n=7".utf8)])),
            DNSResourceRecord(name: host, ttlSeconds: 120, cacheFlush: true, data: .a([10, 251, 0, 2])),
        ])
        XCTAssertEqual(message.answers[0].name.description, "_atelier._tcp.local.")
    }

    func testDecodesAZeroconfQueryWithTheUnicastResponseBit() throws {
        let message = try DNSMessage(bytes: Self.zeroconfQuery)
        XCTAssertFalse(message.isResponse)
        XCTAssertEqual(message.questions, [DNSQuestion(name: Self.name("_atelier._tcp.local"), type: .ptr, unicastResponse: true)])
    }

    func testEncodingCompressesNamesAndRoundTrips() throws {
        let message = try DNSMessage(bytes: Self.zeroconfResponse)
        let encoded = message.encoded()
        XCTAssertEqual(try DNSMessage(bytes: encoded), message)
        // As compact as zeroconf's, but for the SRV target, whose `local.` is spelled out
        // (7 bytes) rather than pointed at (2 bytes).
        XCTAssertEqual(encoded.count, Self.zeroconfResponse.count + 5)
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self).components(separatedBy: "_atelier").count, 2, "written once")
    }

    func testRoundTripsEveryRecordKindAndBit() throws {
        let host = Self.name("h.local.")
        let message = DNSMessage(id: 0x1234, flags: 0x0100, questions: [
            DNSQuestion(name: Self.name("_atelier._tcp.local."), type: .ptr, unicastResponse: true),
            DNSQuestion(name: host, type: .any),
        ], answers: [
            DNSResourceRecord(name: host, ttlSeconds: 120, cacheFlush: true, data: .aaaa(Array(0..<16))),
            DNSResourceRecord(name: try DNSName(labels: ["My.Photos", "_atelier", "_tcp", "local"]), ttlSeconds: 0, data: .txt([[], Array("k".utf8)])),
        ], authorities: [
            DNSResourceRecord(name: host, ttlSeconds: 7, data: .opaque(type: .nsec, bytes: [0xC0, 0x0C, 0, 1, 0x40])),
        ], additionals: [
            DNSResourceRecord(name: .root, ttlSeconds: UInt32.max, recordClass: 0x7FFF, data: .opaque(type: DNSRecordType(rawValue: 41), bytes: [])),
        ])
        let decoded = try DNSMessage(bytes: message.encoded())
        XCTAssertEqual(decoded, message)
        XCTAssertEqual(decoded.answers[1].name.labels.first, Array("My.Photos".utf8))
        XCTAssertEqual(decoded.answers[1].name.description, "My\\.Photos._atelier._tcp.local.")
    }

    func testNamesCompareWithoutASCIICase() throws {
        XCTAssertEqual(Self.name("_Atelier._TCP.Local"), Self.name("_atelier._tcp.local."))
        XCTAssertEqual(Set([Self.name("A.local"), Self.name("a.LOCAL")]).count, 1)
        XCTAssertNotEqual(Self.name("é.local"), Self.name("É.local"), "only ASCII folds (RFC 6762 §16)")
        XCTAssertThrowsError(try DNSName("a..local"))
        XCTAssertThrowsError(try DNSName(String(repeating: "x", count: 64) + ".local"))
        XCTAssertThrowsError(try DNSName(Array(repeating: String(repeating: "x", count: 63), count: 4).joined(separator: ".")))
    }

    /// A header announcing one question, then the question's name bytes and type/class.
    static func question(_ nameBytes: [UInt8]) -> [UInt8] {
        [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0] + nameBytes + [0, 12, 0, 1]
    }

    func testCompressionPointersThatLoopOrEscapeAreRefused() {
        // A pointer to itself (offset 12 → 12).
        XCTAssertThrowsError(try DNSMessage(bytes: Self.question([0xC0, 12]))) { XCTAssertEqual($0 as? TransferError, .compressionLoop(offset: 12)) }
        // A label then a pointer back to that label: 12 "a" → 12 again.
        XCTAssertThrowsError(try DNSMessage(bytes: Self.question([1, 0x61, 0xC0, 12]))) { XCTAssertEqual($0 as? TransferError, .compressionLoop(offset: 14)) }
        // Forward, past the end, into the header.
        XCTAssertThrowsError(try DNSMessage(bytes: Self.question([0xC0, 200]))) { XCTAssertEqual($0 as? TransferError, .pointerOutOfRange(offset: 12, target: 200)) }
        XCTAssertThrowsError(try DNSMessage(bytes: Self.question([0xC0, 2]))) { XCTAssertEqual($0 as? TransferError, .pointerOutOfRange(offset: 12, target: 2)) }
        XCTAssertThrowsError(try DNSMessage(bytes: Self.question([0x40, 0]))) { XCTAssertEqual($0 as? TransferError, .reservedLabelType(offset: 12, byte: 0x40)) }
        // Two names: the second points at the first, which is fine.
        var two: [UInt8] = [0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0]
        two += [1, 0x61, 0, 0, 12, 0, 1] + [1, 0x62, 0xC0, 12, 0, 12, 0, 1]
        XCTAssertEqual(try DNSMessage(bytes: two).questions.map(\.name), [Self.name("a."), Self.name("b.a.")])
    }

    func testOverlongNamesAndTruncationAreRefused() {
        // 5 labels of 63 bytes: 321 bytes on the wire.
        let long: [UInt8] = Array(repeating: [UInt8]([63]) + [UInt8](repeating: 0x78, count: 63), count: 5).joined() + [0]
        XCTAssertThrowsError(try DNSMessage(bytes: Self.question(long))) { XCTAssertEqual($0 as? TransferError, .nameTooLong(offset: 12)) }
        XCTAssertThrowsError(try DNSMessage(bytes: Self.question([]).prefix(12) + [5, 0x61, 0x62, 0x63, 0x64])) { XCTAssertEqual($0 as? TransferError, .truncated(offset: 12, needed: 1)) }
        XCTAssertThrowsError(try DNSMessage(bytes: [0, 0, 0])) { XCTAssertEqual($0 as? TransferError, .truncated(offset: 2, needed: 1)) }
        for cut in 0..<Self.zeroconfResponse.count {
            XCTAssertThrowsError(try DNSMessage(bytes: Self.zeroconfResponse.prefix(cut)), "cut at \(cut)")
        }
    }

    func testRecordCountsAreBoundedBeforeAllocating() {
        let header: [UInt8] = [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        XCTAssertThrowsError(try DNSMessage(bytes: header + [UInt8](repeating: 0, count: 100))) { XCTAssertEqual($0 as? TransferError, .tooManyRecords(count: 4 * 65535)) }
        // 2 records announced, room for fewer.
        XCTAssertThrowsError(try DNSMessage(bytes: [0, 0, 0x84, 0, 0, 0, 0, 2, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 21))) {
            XCTAssertEqual($0 as? TransferError, .tooManyRecords(count: 2))
        }
    }

    func testMalformedRecordDataIsRefused() {
        func answer(type: UInt16, data: [UInt8]) -> [UInt8] {
            [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x61, 0, UInt8(type >> 8), UInt8(type & 0xFF), 0, 1, 0, 0, 0, 10, 0, UInt8(data.count)] + data
        }
        XCTAssertThrowsError(try DNSMessage(bytes: answer(type: 1, data: [1, 2, 3]))) { XCTAssertEqual($0 as? TransferError, .badRecordData(type: 1, offset: 25)) }
        XCTAssertThrowsError(try DNSMessage(bytes: answer(type: 28, data: [UInt8](repeating: 0, count: 4))))
        XCTAssertThrowsError(try DNSMessage(bytes: answer(type: 16, data: [5, 0x61])), "TXT string past its record")
        XCTAssertThrowsError(try DNSMessage(bytes: answer(type: 33, data: [0, 0, 0, 0, 0, 80])), "SRV without target")
        XCTAssertThrowsError(try DNSMessage(bytes: answer(type: 12, data: [0, 0])), "PTR name shorter than its data")
        XCTAssertEqual(try DNSMessage(bytes: answer(type: 16, data: [])).answers.first?.data, .txt([]))
        XCTAssertEqual(try DNSMessage(bytes: answer(type: 12, data: [0xC0, 12])).answers.first?.data, .ptr(Self.name("a.")))
    }

    func testTXTDictionaryFollowsRFC6763() {
        let strings = ["v=1", "N=7", "n=8", "flag", "=nokey", "", "empty=", "eq=a=b"].map { Array($0.utf8) }
        XCTAssertEqual(DNSTXT.dictionary(strings), ["v": "1", "n": "7", "flag": "", "empty": "", "eq": "a=b"])
        XCTAssertEqual(DNSTXT.strings(["n": "7", "v": "1"]), [Array("n=7".utf8), Array("v=1".utf8)])
        XCTAssertEqual(DNSTXT.strings([:]), [[]])
    }
}
