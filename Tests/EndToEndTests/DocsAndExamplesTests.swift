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

    func testExamplesRun() throws {
        let sh = try Shell()
        defer { sh.remove() }
        let examples = try FileManager.default.contentsOfDirectory(atPath: Shell.root + "/examples").filter { $0.hasSuffix(".sh") }.sorted()
        XCTAssertGreaterThanOrEqual(examples.count, 3)
        for example in examples {
            let result = try sh.run("bash \(Shell.root)/examples/\(example)")
            XCTAssertEqual(result.status, 0, "\(example): \(result.err)")
            XCTAssertFalse(result.out.isEmpty, example)
        }
    }
}
