import Foundation
import XCTest

/// Examples and what they print, kept as test data the way jq keeps its manual's examples in
/// `tests/man.test`: `Support/help-examples.expected` for the EXAMPLES of every tool's help,
/// `Support/overview-examples.expected` for the example blocks of atelier(7).
///
/// A file opens with `#` comment lines. Then each example: a line `$ ` and the example as a
/// reader types it (a block's further lines each start with `> `), optional directive lines
/// starting with `% `, and the lines it prints on standard output after the normalisation
/// `ExampleOutputNormaliser` describes; trailing blank lines are not compared. The directives:
/// - `% same as: CMD`: the output depends on the day the test runs (the example names a
///   fixed date, or prints one), so it must equal what CMD prints when run right after it,
///   both normalised;
/// - `% check: CMD`: the output is inherently not the same from run to run (two tools that
///   print at once, a transfer's timing, what an earlier run left in `/tmp`), so CMD, given
///   the raw output on standard input, must exit 0: it asserts the structure (record types,
///   counts, statuses, names, batch ids).
struct ExampleTranscript {
    struct Entry {
        var command: String
        var sameAs: String?
        var check: String?
        var output: [String] = []
    }

    let path: String
    let entries: [Entry]

    init(path: String) throws {
        self.path = path
        var entries: [Entry] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("$ ") {
                entries.append(Entry(command: String(line.dropFirst(2))))
            } else if entries.isEmpty {
                precondition(line.isEmpty || line.hasPrefix("#"), "\(path): text before the first example: \(line)")
            } else if line.hasPrefix("> ") && entries[entries.count - 1].output.isEmpty {
                entries[entries.count - 1].command += "\n" + line.dropFirst(2)
            } else if line.hasPrefix("% same as: ") {
                entries[entries.count - 1].sameAs = String(line.dropFirst("% same as: ".count))
            } else if line.hasPrefix("% check: ") {
                entries[entries.count - 1].check = String(line.dropFirst("% check: ".count))
            } else {
                entries[entries.count - 1].output.append(line)
            }
        }
        self.entries = entries.map { entry in
            var entry = entry
            while entry.output.last == "" { entry.output.removeLast() }
            return entry
        }
    }

    func entry(for command: String) -> Entry? { entries.first { $0.command == command } }

    /// The file's text for `examples` and what they printed (normalised), keeping each
    /// existing entry's directives: for `ATELIER_UPDATE_EXPECTED=1`, which writes it beside
    /// the file as `.actual`, to read through and move over the file when the change is right.
    func updated(with examples: [(command: String, output: [String])]) throws -> String {
        var header = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.hasPrefix("$ ") }
        while header.last == "" { header.removeLast() }
        var text = header.map { $0 + "\n" }.joined() + "\n"
        for (command, output) in examples {
            let entry = entry(for: command) ?? Entry(command: command)
            text += "$ " + command.replacingOccurrences(of: "\n", with: "\n> ") + "\n"
            if let sameAs = entry.sameAs { text += "% same as: \(sameAs)\n" }
            if let check = entry.check { text += "% check: \(check)\n" }
            if entry.sameAs == nil && entry.check == nil { text += output.map { $0 + "\n" }.joined() }
            text += "\n"
        }
        return text
    }

    /// Where `expected` and `actual` first differ, or nil when they do not.
    static func difference(expected: [String], actual: [String]) -> String? {
        guard expected != actual else { return nil }
        let at = zip(expected, actual).enumerated().first { $1.0 != $1.1 }?.offset ?? min(expected.count, actual.count)
        func show(_ lines: [String]) -> String { at < lines.count ? lines[at] : "(no line)" }
        return "\(actual.count) lines for \(expected.count) expected; line \(at + 1) is\n  \(show(actual))\nexpected\n  \(show(expected))"
    }
}

/// Rewrites what must vary from run to run in an example's output, so that the rest can be
/// compared exactly. The rules, applied in this order (the files' headers repeat them):
/// 0. a carriage return (CSV ends its lines with CR LF) is shown as `\r`, so that the files
///    stay plain text;
/// 1. the scratch directory the examples run in becomes `<dir>`;
/// 2. a time like `2026-11-26T19:41:16Z` becomes `<time>`;
/// 3. a file-name stamp like `20261126_194216` (or `20261126-194216`) becomes `<stamp>`;
/// 4. the value of a `"seconds"` key (a number, or an object of them) becomes `<s>`;
/// 5. a record id minted while the test runs (`g_`, `o_`, `m_`… and a ULID whose time is
///    now) becomes the prefix and `<n>`, numbered in order of first appearance over the whole
///    file; the sample wardrobe's ids, minted at a fixed time, are kept;
/// 6. a day in the 91 days ending today (the sample wardrobe's wear log, which always ends
///    today) becomes `today` or `today-Nd`, unless the example itself spells it;
/// 7. the values of `"budgetBytes"` and `"estimatedPeakBytes"` (they count the memory free on
///    the machine and the tool's resident size at the time) become `<bytes>`.
struct ExampleOutputNormaliser {
    let dir: String
    let today: Int
    let mintedAfter: Date
    private var minted: [String: String] = [:]
    private var counts: [String: Int] = [:]

    init(dir: String, now: Date = Date()) {
        self.dir = dir
        today = Self.day(of: now)
        mintedAfter = now.addingTimeInterval(-600)
    }

    /// The local day number (days since 1970-01-01), as `ISODate.today` counts it.
    static func day(of date: Date) -> Int {
        Int(((date.timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT(for: date))) / 86400).rounded(.down))
    }

    /// The lines of `output` (less blank lines at the end), normalised.
    mutating func normalise(_ output: String, example: String) -> [String] {
        let spelled = Set(example.matches(of: /\d{4}-\d{2}-\d{2}/).map { String($0.output) })
        // Rule 0 first: "\r\n" is one Character, which a split at "\n" would not see.
        var lines = output.replacingOccurrences(of: "\r", with: "\\r").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.trimmingCharacters(in: .whitespaces) == "" { lines.removeLast() }
        return lines.map { normalise(line: $0, spelled: spelled) }
    }

    private mutating func normalise(line: String, spelled: Set<String>) -> String {
        var text = line.replacingOccurrences(of: dir, with: "<dir>")
        text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/, with: "<time>")
        text.replace(/\d{8}[_-]\d{6}/, with: "<stamp>")
        text.replace(/"seconds":\{[^{}]*\}/, with: "\"seconds\":{<s>}")
        text.replace(/"seconds":-?[0-9][0-9.eE+-]*/, with: "\"seconds\":<s>")
        text = text.replacing(/"(budgetBytes|estimatedPeakBytes)":[0-9]+/) { "\"\($0.output.1)\":<bytes>" }
        text = text.replacing(/\b([a-z])_([0-9a-hjkmnp-tv-z]{26})\b/) { match in
            let id = String(match.output.0), prefix = String(match.output.1)
            guard let millis = Self.ulidMillis(match.output.2), Date(timeIntervalSince1970: Double(millis) / 1000) >= mintedAfter else { return id }
            if let name = minted[id] { return name }
            counts[prefix, default: 0] += 1
            minted[id] = "\(prefix)_<\(counts[prefix]!)>"
            return minted[id]!
        }
        return text.replacing(/\b(\d{4})-(\d{2})-(\d{2})\b/) { match in
            let text = String(match.output.0)
            guard !spelled.contains(text), let year = Int(match.output.1), let month = Int(match.output.2), let day = Int(match.output.3),
                  let date = DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: year, month: month, day: day).date
            else { return text }
            let ago = today - Int(date.timeIntervalSince1970 / 86400)
            guard (0 ... 90).contains(ago) else { return text }
            return ago == 0 ? "today" : "today-\(ago)d"
        }
    }

    /// The time part of a ULID (its first 10 characters, Crockford base 32), in milliseconds.
    static func ulidMillis(_ ulid: Substring) -> UInt64? {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        var value: UInt64 = 0
        for character in ulid.prefix(10) {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            value = value << 5 | UInt64(digit)
        }
        return value
    }
}

extension XCTestCase {
    /// Runs `examples` in order in `sh`'s directory (each as `script(example)`): each exits 0
    /// and prints what the transcript `Support/<name>` says, normalised. Every example must
    /// have an entry, and every entry an example. Returns how many ran.
    func assertExamplesPrintWhatTheySay(_ examples: [String], in sh: Shell, transcript name: String,
                                        script: (String) -> String = { $0 }, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let transcript = try ExampleTranscript(path: Shell.root + "/Tests/EndToEndTests/Support/" + name)
        var normaliser = ExampleOutputNormaliser(dir: sh.dir)
        var printed: [(command: String, output: [String])] = []
        var ran = 0
        for example in examples {
            let entry = transcript.entry(for: example)
            if entry == nil { XCTFail("\(example): not in Support/\(name); add it (ATELIER_UPDATE_EXPECTED=1 writes what it printed)", file: file, line: line) }
            if DocsAndExamplesTests.leftOut(example) {
                printed.append((example, entry?.output ?? []))
                continue
            }
            let result = try sh.run(script(example))
            XCTAssertEqual(result.status, 0, "\(example): \(result.err)", file: file, line: line)
            ran += 1
            let output = entry?.check == nil ? normaliser.normalise(result.out, example: example) : []
            printed.append((example, output))
            guard let entry else { continue }
            if let check = entry.check {
                let checked = try sh.run(check, stdin: Data(result.out.utf8))
                XCTAssertEqual(checked.status, 0, "\(example): \(check) does not hold for\n\(result.out)\(checked.out)\(checked.err)", file: file, line: line)
                continue
            }
            var expected = entry.output
            if let sameAs = entry.sameAs {
                let same = try sh.run(sameAs)
                XCTAssertEqual(same.status, 0, "\(sameAs): \(same.err)", file: file, line: line)
                expected = normaliser.normalise(same.out, example: example)
            }
            if let difference = ExampleTranscript.difference(expected: expected, actual: output) {
                XCTFail("\(example) printed something else than Support/\(name) says: \(difference)", file: file, line: line)
            }
        }
        let stale = transcript.entries.map(\.command).filter { !examples.contains($0) }
        XCTAssertEqual(stale, [], "entries of Support/\(name) that no example has any more", file: file, line: line)
        if ProcessInfo.processInfo.environment["ATELIER_UPDATE_EXPECTED"] == "1" {
            try transcript.updated(with: printed).write(toFile: transcript.path + ".actual", atomically: true, encoding: .utf8)
        }
        // Across midnight the days printed and the day normalised against may differ.
        if ExampleOutputNormaliser.day(of: Date()) != normaliser.today { throw XCTSkip("the examples ran across midnight; run again") }
        return ran
    }
}
