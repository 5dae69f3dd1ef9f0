import AtelierRecords
import AtelierTestSupport
import Crypto
import XCTest
@testable import AtelierTransfer

/// Seeded fuzzing of everything that reads peer bytes: the frame decoder and opener, the
/// message parser, the handshake parsers and the pairing-code parser. The contract: a typed
/// `TransferError` or a valid result, never a trap; a decoded message re-encodes to the same
/// bytes. (Named `…ParserFuzzTests` so that `--filter ParserFuzz` selects it with the others.)
final class FrameParserFuzzTests: XCTestCase {
    static let seed: UInt64 = 0x7_2A45_F3E2_2026

    /// Valid encodings of every message type, the material mutations start from.
    func sampleMessages() throws -> [[UInt8]] {
        let sha = [UInt8](repeating: 0xAB, count: 32)
        let manifest = try Manifest(batchID: "b_1", entries: [
            ManifestEntry(path: ManifestPath(validating: "a/1.jpg"), size: 5),
            ManifestEntry(path: ManifestPath(validating: "é/2.jpg"), size: 10),
        ])
        let messages: [TransferMessage] = [
            .hello(Hello(role: .sender, software: "atl-send")), .manifest(manifest.parts()[0]), .resume([.need, .have(3, prefixSHA256: sha), .present(sha256: sha)]),
            .data(entry: 1, offset: 4, bytes: [1, 2, 3, 4][...]), .fileEnd(entry: 0, sha256: sha), .fileVerified(entry: 0),
            .endBatch(files: 2, bytes: 15), .batchVerified, .abort(.refusedOverwrite, message: "a/1.jpg exists"), .close,
        ]
        return messages.map(\.encoded)
    }

    /// One to three random edits (`ByteMutator`): lengths to all ones or zero, path pieces that
    /// must be refused (`../`, a backslash, a combining mark).
    static let mutator = ByteMutator(tokens: [[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0x2E, 0x2E, 0x2F], [0x5C], [0xCC, 0x81]])

    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] { mutator.mutate(input, &random) }

    func testMutatedMessagesParseOrFailWithATypedErrorAndRoundTrip() throws {
        var random = SplitMix64(seed: Self.seed)
        let samples = try sampleMessages()
        var decoded = 0, refused = 0
        for n in 0..<20_000 {
            let bytes = n % 10 == 0 ? random.bytes(random.below(64)) : Self.mutate(random.pick(samples), &random)
            do {
                let message = try TransferMessage.decode(bytes[...])
                decoded += 1
                if message.encoded != bytes { return XCTFail("seed \(Self.seed), case \(n): \(message.name) re-encodes differently") }
            } catch is TransferError {
                refused += 1
            } catch {
                return XCTFail("seed \(Self.seed), case \(n): untyped error \(error)")
            }
        }
        XCTAssertGreaterThan(decoded, 2000)
        XCTAssertGreaterThan(refused, 5000)
    }

    func testDamagedStreamsFailWithATypedErrorWhateverTheChunking() throws {
        let key = SymmetricKey(data: [UInt8](repeating: 3, count: 32))
        var sealer = FrameSealer(key: key)
        var stream: [UInt8] = []
        for message in try sampleMessages() { try sealer.seal(try TransferMessage.decode(message[...]), into: &stream) }
        var random = SplitMix64(seed: Self.seed &+ 1)
        var clean = 0
        for n in 0..<600 {
            let bytes = n % 5 == 0 ? random.bytes(random.below(200)) : Self.mutate(stream, &random)
            var opener = FrameOpener(key: key, maxSealedBytes: 1 << 16)
            var position = 0
            do {
                while position < bytes.count {
                    let size = min(1 + random.below(300), bytes.count - position)
                    try opener.feed(bytes[position..<position + size])
                    position += size
                    while try opener.next() != nil {}
                }
                try opener.finish()
                clean += 1
                XCTAssertEqual(bytes, stream, "seed \(Self.seed &+ 1), case \(n): a damaged stream opened cleanly")
            } catch is TransferError {
            } catch {
                return XCTFail("seed \(Self.seed &+ 1), case \(n): untyped error \(error)")
            }
        }
        XCTAssertLessThan(clean, 10, "mutations almost always damage the stream")
    }

    func testHandshakeParsersTakeAnyBytes() throws {
        var random = SplitMix64(seed: Self.seed &+ 2)
        let code = try PairingCode(parsing: "7-crane-orbit")
        let receiver = PairingHandshake.Receiver(code: code)
        var sender = PairingHandshake.Sender(code: code)
        let initiate = try sender.initiate(greeting: receiver.greeting)
        for n in 0..<300 {
            var fresh = PairingHandshake.Sender(code: code)
            var responder = receiver
            let greeting = n % 3 == 0 ? random.bytes(24) : Self.mutate(receiver.greeting, &random)
            let share = n % 3 == 0 ? random.bytes(56) : Self.mutate(initiate, &random)
            for attempt in [{ _ = try fresh.initiate(greeting: greeting) }, { _ = try responder.respond(to: share) }] {
                do { try attempt() } catch is TransferError {} catch { return XCTFail("case \(n): untyped error \(error)") }
            }
        }
    }

    func testPairingCodeParserTakesAnyText() {
        var random = SplitMix64(seed: Self.seed &+ 3)
        let pieces = ["7", "-", " ", "crane", "orbi", "zoo", "0", "999", "1000", "é", "\u{0}", "--", "_", "٧", "ORBIT", "\n", "crame"]
        for n in 0..<3000 {
            let text = (0..<(1 + random.below(6))).map { _ in random.pick(pieces) }.joined()
            do {
                let code = try PairingCode(parsing: text)
                XCTAssertEqual(try PairingCode(parsing: code.description), code, "case \(n): \(text.debugDescription)")
            } catch is TransferError {
            } catch {
                return XCTFail("case \(n): untyped error \(error)")
            }
        }
    }
}
