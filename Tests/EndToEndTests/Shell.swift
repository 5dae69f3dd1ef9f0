import Foundation
import XCTest

/// Runs shell pipelines against the built tools, in a scratch directory with its own catalog.
struct Shell {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let bin = ProcessInfo.processInfo.environment["ATL_BIN"] ?? root + "/.build/debug"

    /// The tools this package builds, as Package.swift names them.
    static let tools: [String] = {
        let manifest = (try? String(contentsOfFile: root + "/Package.swift", encoding: .utf8)) ?? ""
        return manifest.matches(of: /\.executable\(name: "(atl-[a-z]+)"/).map { String($0.output.1) }
    }()

    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "atelier-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: dir) }

    var catalog: String { dir + "/catalog.sqlite" }

    struct Result {
        var out: String
        var err: String
        var status: Int32
        var lines: [String] { out.split(separator: "\n").map(String.init) }
    }

    /// Runs `script` with bash (pipefail on) in the scratch directory.
    @discardableResult
    func run(_ script: String, stdin: Data? = nil, env: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-o", "pipefail", "-c", script]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        var environment = ProcessInfo.processInfo.environment
        // The tools first, then the tests' Python references (scripts/install-test-deps.sh),
        // also when `swift test` is run without make.
        environment["PATH"] = Self.bin + ":" + Self.root + "/.build/test-python/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["ATELIER_DB"] = catalog
        environment["ATL_BIN"] = Self.bin
        environment["XDG_CACHE_HOME"] = dir + "/.cache"  // atl-send's hash cache stays in the scratch directory
        for (k, v) in env { environment[k] = v }
        process.environment = environment
        let outFile = dir + "/.out-\(UUID().uuidString)", errFile = dir + "/.err-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: outFile, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile, contents: nil)
        defer { unlink(outFile); unlink(errFile) }
        process.standardOutput = FileHandle(forWritingAtPath: outFile)
        process.standardError = FileHandle(forWritingAtPath: errFile)
        if let stdin {
            let inFile = dir + "/.in-\(UUID().uuidString)"
            _ = FileManager.default.createFile(atPath: inFile, contents: stdin)
            process.standardInput = FileHandle(forReadingAtPath: inFile)
        } else {
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        }
        try process.run()
        process.waitUntilExit()
        return Result(out: try String(contentsOfFile: outFile, encoding: .utf8), err: try String(contentsOfFile: errFile, encoding: .utf8), status: process.terminationStatus)
    }

    /// Parses each stdout line as a JSON object (fails the test on a line that is not one).
    static func records(_ result: Result, file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        result.lines.compactMap { text in
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                XCTFail("not a JSON object: \(text)", file: file, line: line)
                return nil
            }
            return object
        }
    }
}
