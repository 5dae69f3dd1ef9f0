import Foundation

/// Files made by a Python script of `Support/` (Pillow writes them, as an independent encoder),
/// into a directory named by the process: the script writes the files and an `index.json`
/// describing them, which is decoded here. The classes that use one remove its directory in their
/// class `tearDown`.
enum PythonFixtures {
    /// Runs `Support/<script> <directory>` (a leftover of a killed run under a reused pid is
    /// removed first) and decodes the `index.json` it wrote.
    static func make<Entry: Decodable>(_ script: String, into directory: String, quiet: Bool = false) -> [Entry] {
        try? FileManager.default.removeItem(atPath: directory)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/\(script)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", path, directory]
        if quiet { process.standardError = FileHandle.nullDevice }
        try! process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "\(script) failed: is Pillow installed? (make test installs it)")
        let index = try! Data(contentsOf: URL(fileURLWithPath: directory + "/index.json"))
        return try! JSONDecoder().decode([Entry].self, from: index)
    }

    /// The directory for one class's fixtures in this process.
    static func directory(_ name: String) -> String { NSTemporaryDirectory() + "atelier-\(name)-\(getpid())" }
}
