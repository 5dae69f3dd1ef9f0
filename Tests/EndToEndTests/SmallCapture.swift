import Foundation

/// The small synthetic capture (`synth-capture --preset small-12` at 640×480) that several test
/// classes reconstruct: rendered once per test run, on first use (a few seconds), and removed
/// when the run ends, whichever classes used it.
enum SmallCapture {
    static let directory = NSTemporaryDirectory() + "atelier-small-capture-\(getpid())"

    static let path: String = {
        try? FileManager.default.removeItem(atPath: directory)  // a killed run's, under a reused pid
        let shell = try! Shell()
        let result = try! shell.run("synth-capture --preset small-12 --width 640 --height 480 --supersampling 2 --texture-size 1024 -q --out '\(directory)'")
        precondition(result.status == 0, "synth-capture failed: \(result.err)")
        shell.remove()
        atexit { try? FileManager.default.removeItem(atPath: SmallCapture.directory) }
        return directory
    }()
}
