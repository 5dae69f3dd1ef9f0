import AtelierTestSupport
import Foundation
import XCTest
@testable import AtelierRecords

/// Seeded fuzzing of `LineReader`: random bytes pushed through a pipe in random chunk sizes must
/// come out as the lines a plain reference splitter finds, with the same numbers, in both modes
/// (`forEachLine` and `forEachRawLine`), and a line over the bound must stop the reader at that
/// line, the last one too.
final class ParserFuzzLineReaderTests: XCTestCase {
    static let seed: UInt64 = 0x11E_2EAD_2026

    struct Outcome: Equatable {
        var lines: [[UInt8]] = []
        var numbers: [Int] = []
        /// The line number of a "line too long" error.
        var error: Int? = nil
    }

    /// The contract: split at `\n`, number every line from 1; a line of more than `maximum`
    /// bytes before its `\n` (a `\r` included), or before the end of the input, ends the input
    /// with an error at its number. `forEachLine` also drops one `\r` before the `\n` and skips
    /// lines of only spaces and tabs; `forEachRawLine` gives every line as it is.
    static func expected(_ input: [UInt8], maximum: Int, raw: Bool = false) -> Outcome {
        var outcome = Outcome()
        var pieces = input.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if input.last == 0x0A || input.isEmpty { pieces.removeLast() }
        for (n, piece) in pieces.enumerated() {
            if piece.count > maximum {
                outcome.error = n + 1
                return outcome
            }
            var line = piece
            if !raw {
                if line.last == 0x0D { line.removeLast() }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            }
            outcome.lines.append(line)
            outcome.numbers.append(n + 1)
        }
        return outcome
    }

    /// What `LineReader` makes of `input` written into a pipe in pieces of the given sizes.
    static func read(_ input: [UInt8], chunks: [Int], maximum: Int, raw: Bool = false) -> Outcome {
        let (readEnd, waitForWriter) = feedThroughPipe(input, chunks: chunks)
        var outcome = Outcome()
        do throws(LineReaderError<Never>) {
            let reader = LineReader(fd: readEnd, source: "fuzz", closeWhenDone: true, maximumLineBytes: maximum)
            let take = { (bytes: UnsafeRawBufferPointer, number: Int) in
                outcome.lines.append(Array(bytes))
                outcome.numbers.append(number)
            }
            if raw { try reader.forEachRawLine(take) } else { try reader.forEachLine(take) }
        } catch {
            if case .input(let e) = error { outcome.error = e.line ?? -1 }
        }
        waitForWriter()
        return outcome
    }

    func testRandomInputsSplitLikeTheReference() {
        var random = SplitMix64(seed: Self.seed)
        let alphabet: [UInt8] = [0x61, 0x7B, 0x22, 0x20, 0x20, 0x09, 0x0D, 0x0A, 0x0A, 0x00, 0xC3, 0xA9, 0xFF]
        for n in 0..<400 {
            let maximum = random.pick([1, 2, 7, 64, 1000])
            var input: [UInt8] = []
            for _ in 0..<random.below(30) {
                let length = random.chance(percent: 20) ? random.below(maximum * 2 + 2) : random.below(min(maximum, 12) + 1)
                input += (0..<length).map { _ in random.pick(alphabet) }
                input += random.chance(percent: 25) ? [0x0D, 0x0A] : [0x0A]
            }
            if random.chance(percent: 50) { input += (0..<random.below(maximum + 3)).map { _ in random.pick(alphabet) } }
            let chunks = (0..<input.count).map { _ in 1 + random.below(random.chance(percent: 50) ? 3 : 64) }
            let raw = random.chance(percent: 50)
            let want = Self.expected(input, maximum: maximum, raw: raw)
            let got = Self.read(input, chunks: chunks, maximum: maximum, raw: raw)
            if got != want {
                return XCTFail("seed \(Self.seed), case \(n), maximum \(maximum), raw \(raw): got \(got), expected \(want)\n  input: \(describe(input))")
            }
        }
    }

    /// The default 8 MiB bound with lines that make the buffer grow, through a pipe.
    func testTheEightMebibyteBoundAtItsEdges() {
        let maximum = LineReader.defaultMaximumLineBytes
        let atBound = [UInt8](repeating: 0x61, count: maximum)
        let cases: [(String, [UInt8])] = [
            ("a line of exactly the bound", atBound + [0x0A] + Array("{}\n".utf8)),
            ("a line one byte over", atBound + [0x61, 0x0A]),
            ("a line at the bound whose \\r tips it over", atBound + [0x0D, 0x0A]),
            ("a line of 1 MiB and a bit, so the buffer grows", [UInt8](repeating: 0x62, count: (1 << 20) + 17) + Array("\n  \nx".utf8)),
            ("a huge line with no newline at all", [UInt8](repeating: 0x63, count: maximum + 4096)),
        ]
        for (name, input) in cases {
            let want = Self.expected(input, maximum: maximum)
            let got = Self.read(input, chunks: [65536], maximum: maximum)
            XCTAssertEqual(got.numbers, want.numbers, name)
            XCTAssertEqual(got.error, want.error, name)
            XCTAssertEqual(got.lines.map(\.count), want.lines.map(\.count), name)
        }
    }
}
