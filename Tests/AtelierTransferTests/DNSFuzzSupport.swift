import AtelierRecords
import AtelierTestSupport
import Foundation
@testable import AtelierTransfer

// Shared by the seeded DNS fuzz tests and the libFuzzer harness (fuzz/run.sh compiles this file
// with the Discovery sources, SplitMix64 and AtelierTestSupport's draws and mutator as one
// module, dropping the imports above).

enum DNSFuzz {
    static let labels = ["_atelier", "_tcp", "local", "atelier-7-abc123", "My.Photos", "a", "A", "é", "x y", String(repeating: "z", count: 63)]

    static func name(_ random: inout SplitMix64) -> DNSName {
        let labels = (0..<random.below(5)).map { _ in random.pick(Self.labels) }
        return (try? DNSName(labels: labels)) ?? .root
    }

    static func record(_ random: inout SplitMix64) -> DNSResourceRecord {
        let data: DNSRecordData
        switch random.below(7) {
        case 0: data = .a((0..<4).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 1: data = .aaaa((0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 2: data = .ptr(name(&random))
        case 3: data = .srv(priority: UInt16(truncatingIfNeeded: random.next()), weight: 0, port: UInt16(truncatingIfNeeded: random.next()), target: name(&random))
        case 4: data = .txt((0..<random.below(4)).map { _ in Array(random.pick(["v=1", "n=7", "", "flag", "k=" + String(repeating: "v", count: 200)]).utf8) })
        case 5: data = .opaque(type: .nsec, bytes: (0..<random.below(12)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        default: data = .opaque(type: DNSRecordType(rawValue: UInt16(truncatingIfNeeded: random.next())), bytes: [])
        }
        // Opaque data of a known type would decode as that type: keep the generator honest.
        if case .opaque(let type, _) = data, [.a, .aaaa, .ptr, .srv, .txt].contains(type) { return record(&random) }
        return DNSResourceRecord(name: name(&random), ttlSeconds: UInt32(truncatingIfNeeded: random.next()), cacheFlush: random.chance(percent: 50),
                                 recordClass: random.chance(percent: 80) ? 1 : UInt16(random.below(0x8000)), data: data)
    }

    /// A random valid message, compressed by our encoder.
    static func message(_ random: inout SplitMix64) -> DNSMessage {
        DNSMessage(id: UInt16(truncatingIfNeeded: random.next()), flags: UInt16(truncatingIfNeeded: random.next()),
                   questions: (0..<random.below(3)).map { _ in DNSQuestion(name: name(&random), type: random.pick([.ptr, .srv, .any, .a]), unicastResponse: random.chance(percent: 30)) },
                   answers: (0..<random.below(4)).map { _ in record(&random) }, authorities: (0..<random.below(2)).map { _ in record(&random) },
                   additionals: (0..<random.below(4)).map { _ in record(&random) })
    }

    /// Bytes that break DNS messages in interesting ways: pointers, label-length bytes, counts.
    static let mutationTokens: [[UInt8]] = [[0xC0, 0x0C], [0xC0, 0x00], [0xFF, 0xFF], [0x3F], [0x40], [0x80], [0x00], [0x00, 0x21], [0x00, 0x10], [0x00, 0x0C], [0xC0]]

    /// One to three random edits of `input` (`ByteMutator`) with those tokens.
    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        ByteMutator(tokens: mutationTokens).mutate(input, &random)
    }

    /// The decoder's contract on any bytes: it throws a `TransferError` or returns a message
    /// within the bounds, which our encoder writes back so that it decodes the same. Returns a
    /// description of the first breach, or nil.
    static func check(_ bytes: [UInt8]) -> String? {
        let message: DNSMessage
        do {
            message = try DNSMessage(bytes: bytes)
        } catch {
            return nil
        }
        let total = message.questions.count + message.records.count
        if total > DNSMessage.maximumRecordCount { return "decoded \(total) records" }
        for name in message.questions.map(\.name) + message.records.map(\.name) where name.wireLength > 255 || name.labels.contains(where: { $0.isEmpty || $0.count > 63 }) {
            return "decoded an invalid name \(name)"
        }
        let again: DNSMessage
        do {
            again = try DNSMessage(bytes: message.encoded())
        } catch {
            return "re-encoding a decoded message gives bytes that do not decode: \(error)"
        }
        return again == message ? nil : "re-encoding changed the message: \(message) became \(again)"
    }
}
