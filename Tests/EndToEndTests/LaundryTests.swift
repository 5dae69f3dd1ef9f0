import Foundation
import XCTest

/// `atl-query laundry-plan` and the laundry lifecycle of `atl-import`, run as a new user runs
/// them, on a fixture wardrobe whose expected plans were worked out by hand.
final class LaundryTests: XCTestCase {
    /// Every command of `Support/laundry.expected`, in order, prints what it says: the plan,
    /// the refusals (exit 65, nothing stored), --force, and a load from planned to done.
    func testPlanAndLifecycleOnTheFixtureWardrobe() throws {
        let sh = try Shell()
        defer { sh.remove() }
        try FileManager.default.copyItem(atPath: Shell.root + "/Tests/EndToEndTests/Support/laundry-wardrobe.ndjson", toPath: sh.dir + "/wardrobe.ndjson")
        let transcript = try ExampleTranscript(path: Shell.root + "/Tests/EndToEndTests/Support/laundry.expected")
        let ran = try assertExamplesPrintWhatTheySay(transcript.entries.map(\.command), in: sh, transcript: "laundry.expected") { "set -e\n" + $0 }
        XCTAssertGreaterThanOrEqual(ran, 30)
    }
}
