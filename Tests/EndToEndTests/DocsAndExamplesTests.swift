import Foundation
import XCTest

/// The checked-in man pages and completions are what the flag definitions generate, and the
/// examples run.
final class DocsAndExamplesTests: XCTestCase {
    func testManPagesAndCompletionsAreCurrent() throws {
        let sh = try Shell()
        defer { sh.remove() }
        let result = try sh.run("python3 \(Shell.root)/scripts/gen-docs.py \(Shell.bin) gen && diff -r gen/man/ \(Shell.root)/man/ -x atelier.7 && diff -r gen/completions \(Shell.root)/completions && echo current")
        XCTAssertEqual(result.lines.last, "current", "run `make docs` and commit: \(result.out)\(result.err)")
    }

    /// Every example runs and prints what `examples/expected/NAME.out` says (the sample
    /// wardrobe tells the same story whatever the date, so the outputs are stable).
    func testExamplesPrintWhatTheySay() throws {
        let sh = try Shell()
        defer { sh.remove() }
        let dir = Shell.root + "/examples"
        let examples = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".sh") }.sorted()
        XCTAssertGreaterThanOrEqual(examples.count, 3)
        for example in examples {
            let result = try sh.run("bash \(dir)/\(example)")
            XCTAssertEqual(result.status, 0, "\(example): \(result.err)")
            XCTAssertEqual(result.err, "", example)
            let expected = try String(contentsOfFile: "\(dir)/expected/\(example.dropLast(3)).out", encoding: .utf8)
            XCTAssertEqual(result.out, expected, "\(example) printed something else; if that is right, update examples/expected/")
        }
    }
}
