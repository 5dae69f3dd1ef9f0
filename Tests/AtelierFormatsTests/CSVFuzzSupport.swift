import Foundation
@testable import AtelierFormats
@testable import AtelierRecords

// Shared by the seeded CSV fuzz tests and the libFuzzer harness (fuzz/run.sh compiles this file
// with the sources as one module, dropping the imports above).

/// SplitMix64, as in AtelierRecordsTests' ParserFuzzSupport.swift (test targets cannot share
/// files): seedable, so a failure names a seed and a case that reproduce it.
struct FuzzRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

enum CSVFuzz {
    /// Pieces of cells: what RFC 4180 quoting must carry (commas, quotes, CR, LF, CRLF, spaces
    /// at the ends), multi-byte text, and what the record reader converts (numbers, lists, JSON).
    static let cellPieces = [
        "a", "Coat", "x y", " ", "  ", ",", "\"", "\"\"", "\n", "\r\n", "\r", "\t", "é", "😀", "e\u{301}", ";", "[1,2]",
        "{\"k\":1}", "{", "12.5", "-3", "1e3", "EUR", "49.90 EUR", "cotton 80", "80% wool", "true", "no", "2026-11-21",
        "\u{FEFF}", "=", "'", "\u{301}", "\u{600}",
    ]
    /// Header names of a garment, so the reader's conversions run.
    static let garmentColumns = ["type", "id", "name", "category", "seasons", "price.amount", "price.currency", "price",
                                 "composition", "wearCount", "purchasedOn", "care", "tags", "favorite", "notes", "a.b.c"]

    static func cell(_ random: inout FuzzRandom) -> String {
        random.chance(15) ? "" : (0..<(1 + random.below(4))).map { _ in random.pick(cellPieces) }.joined()
    }

    /// Bytes that break CSV in interesting ways.
    static let mutationTokens: [[UInt8]] = [
        [0x2C], [0x22], [0x22, 0x22], [0x0D], [0x0A], [0x0D, 0x0A], [0x20], [0x09], [0x3B], [0x5B], [0x7B], [0xFF],
        [0xC3], [0xEF, 0xBB, 0xBF], Array("type".utf8), Array("price.amount".utf8), Array("a.b".utf8), [0x00],
    ]

    /// One to three random edits of `input`.
    static func mutate(_ input: [UInt8], _ random: inout FuzzRandom) -> [UInt8] {
        var bytes = input
        for _ in 0...random.below(3) {
            let at = random.below(bytes.count + 1)
            switch random.below(6) {
            case 0: bytes.removeSubrange(at...)
            case 1 where at < bytes.count: bytes[at] = UInt8(truncatingIfNeeded: random.next())
            case 2, 3: bytes.insert(contentsOf: random.pick(mutationTokens), at: at)
            case 4: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(4)))
            default:
                let end = min(bytes.count, at + 1 + random.below(16))
                bytes.insert(contentsOf: bytes[at..<end], at: at)
            }
        }
        return bytes
    }

    struct Outcome {
        var records: [(record: Result<JSONObject, InputError>, line: Int)] = []
        var thrown: Error? = nil
    }

    /// What `CSVRecordReader` makes of `bytes` fed through a pipe.
    static func read(_ bytes: [UInt8], defaultType: String) -> Outcome {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        let writer = fds[1]
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                offset += n
            }
            close(writer)
            done.signal()
        }
        var outcome = Outcome()
        do {
            let reader = CSVRecordReader(reader: LineReader(fd: fds[0], source: "fuzz", closeWhenDone: true), defaultType: defaultType)
            try reader.forEachRecord { (result, line) throws(InputError) in outcome.records.append((result, line)) }
        } catch {
            outcome.thrown = error
        }
        done.wait()
        return outcome
    }
}
