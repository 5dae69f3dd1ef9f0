import AtelierRecords
import AtelierTestSupport
import XCTest
@testable import AtelierTransfer

/// Seeded fuzzing of the DNS decoder: random valid messages round-trip; damaged ones (and random
/// bytes) are refused with a `TransferError` or decode to a message that round-trips, never a
/// trap. The libFuzzer harness fuzz/DNSMessageFuzz.swift checks the same contract, guided by
/// coverage. (Named `DNSParserFuzzTests` so that `--filter ParserFuzz` selects it.)
final class DNSParserFuzzTests: XCTestCase {
    static let seed: UInt64 = 0xD45_5D_2026

    func testRandomMessagesRoundTrip() throws {
        var random = SplitMix64(seed: Self.seed)
        for n in 0..<3000 {
            let message = DNSFuzz.message(&random)
            let decoded = try DNSMessage(bytes: message.encoded())
            if decoded != message { return XCTFail("seed \(Self.seed), case \(n): \(message) decoded as \(decoded)") }
        }
    }

    func testDamagedMessagesAreRefusedOrRoundTrip() {
        var random = SplitMix64(seed: Self.seed &+ 1)
        var refused = 0
        var kinds: Set<String> = []
        let seeds = [DNSMessageTests.zeroconfResponse, DNSMessageTests.zeroconfQuery]
        for n in 0..<20000 {
            let original = n % 3 == 0 ? random.pick(seeds) : DNSFuzz.message(&random).encoded()
            let bytes = DNSFuzz.mutate(original, &random)
            if let breach = DNSFuzz.check(bytes) { return XCTFail("seed \(Self.seed &+ 1), case \(n): \(breach); bytes \(bytes)") }
            do {
                _ = try DNSMessage(bytes: bytes)
            } catch {
                refused += 1
                kinds.insert(Mirror(reflecting: error).children.first?.label ?? "\(error)")
            }
        }
        XCTAssertGreaterThan(refused, 3000, "the mutations reach the error paths")
        XCTAssertGreaterThanOrEqual(kinds.count, 6, "several kinds of errors: \(kinds.sorted())")
    }

    func testRandomBytesNeverTrap() {
        var random = SplitMix64(seed: Self.seed &+ 2)
        for n in 0..<20000 {
            // Random headers with small counts, so that record parsing is reached.
            var bytes: [UInt8] = [0, 0, 0x84, 0, 0, UInt8(random.below(3)), 0, UInt8(random.below(4)), 0, UInt8(random.below(2)), 0, UInt8(random.below(3))]
            bytes += (0..<random.below(120)).map { _ in random.chance(percent: 20) ? random.pick([0xC0, 0x0C, 0x00, 0x01, 0x21, 0x10, 0x03]) : UInt8(truncatingIfNeeded: random.next()) }
            if let breach = DNSFuzz.check(bytes) { return XCTFail("seed \(Self.seed &+ 2), case \(n): \(breach); bytes \(bytes)") }
        }
    }
}
