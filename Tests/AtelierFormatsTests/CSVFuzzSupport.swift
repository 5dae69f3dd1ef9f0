import AtelierTestSupport
import Foundation
@testable import AtelierFormats
@testable import AtelierRecords

// Shared by the seeded CSV fuzz tests and the libFuzzer harness (fuzz/run.sh compiles this file
// with the sources and AtelierTestSupport's draws, mutator and pipe feed as one module, dropping
// the imports above).

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

    static func cell(_ random: inout SplitMix64) -> String {
        random.chance(percent: 15) ? "" : (0..<(1 + random.below(4))).map { _ in random.pick(cellPieces) }.joined()
    }

    /// Bytes that break CSV in interesting ways.
    static let mutationTokens: [[UInt8]] = [
        [0x2C], [0x22], [0x22, 0x22], [0x0D], [0x0A], [0x0D, 0x0A], [0x20], [0x09], [0x3B], [0x5B], [0x7B], [0xFF],
        [0xC3], [0xEF, 0xBB, 0xBF], Array("type".utf8), Array("price.amount".utf8), Array("a.b".utf8), [0x00],
    ]

    /// One to three random edits of `input` (`ByteMutator`) with those tokens.
    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        ByteMutator(tokens: mutationTokens).mutate(input, &random)
    }

    struct Outcome {
        var records: [(record: Result<JSONObject, RecordsError>, line: Int)] = []
        var thrown: Error? = nil
    }

    /// What `CSVRecordReader` makes of `bytes` fed through a pipe.
    static func read(_ bytes: [UInt8], defaultType: String) -> Outcome {
        let (readEnd, waitForWriter) = feedThroughPipe(bytes)
        var outcome = Outcome()
        do {
            let reader = CSVRecordReader(reader: LineReader(fd: readEnd, source: "fuzz", closeWhenDone: true), defaultType: defaultType)
            try reader.forEachRecord { (result, line) throws(RecordsError) in outcome.records.append((result, line)) }
        } catch {
            outcome.thrown = error
        }
        waitForWriter()
        return outcome
    }
}
