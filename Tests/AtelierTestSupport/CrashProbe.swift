import Foundation
import XCTest

// Crash probes for regression tests of bugs that trapped or hung: see `assertNoCrash`. Shared
// by the test targets through AtelierTestSupport, so there is one copy.

extension XCTestCase {
    /// Runs `body` in a child process (this test binary, run again on just the current test), so
    /// that a trap, or a run past `timeoutSeconds`, fails this test instead of ending the run.
    public func assertNoCrash(_ what: String, timeoutSeconds: Double = 60, file: StaticString = #filePath, line: UInt = #line,
                       _ body: () throws -> Void) throws {
        let probe = "\(String(reflecting: type(of: self)))/\(name.split(separator: ".").last.map(String.init) ?? name)"
        if ProcessInfo.processInfo.environment["ATELIER_CRASH_PROBE"] == probe { return try body() }
        #if os(Linux)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = [probe]
        var environment = ProcessInfo.processInfo.environment
        environment["ATELIER_CRASH_PROBE"] = probe
        environment["SWIFT_BACKTRACE"] = "enable=no"
        child.environment = environment
        let log = NSTemporaryDirectory() + "crash-probe-\(getpid()).log"
        defer { unlink(log) }
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        child.standardOutput = output
        child.standardError = output
        try child.run()
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while child.isRunning && Date() < deadline { usleep(10_000) }
        let timedOut = child.isRunning
        if timedOut { child.terminate() }
        child.waitUntilExit()
        try output.close()
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        let fatal = text.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("error:") }.map(String.init) ?? ""
        if timedOut {
            XCTFail("\(what): still running after \(timeoutSeconds) s", file: file, line: line)
        } else {
            XCTAssertTrue(child.terminationReason == .exit && child.terminationStatus == 0,
                          "\(what): the child process \(child.terminationReason == .exit ? "failed" : "crashed (signal \(child.terminationStatus))") \(fatal)", file: file, line: line)
            // A child whose filter matched no test would also end 0, having run nothing.
            if child.terminationReason == .exit && child.terminationStatus == 0 {
                XCTAssertTrue(text.contains("Executed 1 test,"), "\(what): the child process ran no test for \(probe):\n\(text)", file: file, line: line)
            }
        }
        #else
        throw XCTSkip("crash probes re-run the test binary, which only works this way on Linux")
        #endif
    }
}
