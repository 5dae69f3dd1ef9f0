import Foundation
import XCTest

/// Network namespaces for the discovery tests, so that no multicast leaves the machine and
/// nothing on the host (Avahi, other test runs) can answer: two namespaces joined by a veth
/// pair (IPv4 10.251.0.1 ↔ 10.251.0.2, and IPv6 link-local), each with `lo` up.
///
/// Needs root (CAP_SYS_ADMIN), `ip` (Debian `iproute2`) and, for the interop tests, python3
/// with PyPI `zeroconf`. When one is missing the tests fail saying which, unless
/// ATELIER_SKIP_NETNS=1, when they skip.
final class DiscoveryTestNetwork: @unchecked Sendable {
    let namespaceA: String
    let namespaceB: String
    let interfaceA: String
    let interfaceB: String
    let addressA = "10.251.0.1"
    let addressB = "10.251.0.2"

    nonisolated(unsafe) private static var counter = 0

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// Checks the prerequisites, then makes the namespaces and the veth pair.
    /// Without `veth`, the namespaces have only `lo`.
    static func make(needsZeroconf: Bool, veth: Bool = true) throws -> DiscoveryTestNetwork {
        func missing(_ what: String) throws -> Never {
            if ProcessInfo.processInfo.environment["ATELIER_SKIP_NETNS"] == "1" { throw XCTSkip("ATELIER_SKIP_NETNS=1: \(what)") }
            throw SetupError(description: "discovery tests need \(what) (set ATELIER_SKIP_NETNS=1 to skip them)")
        }
        if geteuid() != 0 { try missing("root, to make network namespaces") }
        if run(["ip", "-V"]).status != 0 { try missing("`ip` (apt-get install iproute2)") }
        if needsZeroconf, run(["python3", "-c", "import zeroconf"]).status != 0 {
            try missing("python3 with zeroconf (python3 -m pip install zeroconf)")
        }
        counter += 1
        let tag = "atl\(getpid() % 100_000)x\(counter)"
        let network = DiscoveryTestNetwork(tag: tag)
        var steps: [[String]] = [
            ["ip", "netns", "add", network.namespaceA],
            ["ip", "netns", "add", network.namespaceB],
            // No duplicate address detection, so that IPv6 link-local addresses work at once.
            ["ip", "netns", "exec", network.namespaceA, "sysctl", "-qw", "net.ipv6.conf.default.accept_dad=0", "net.ipv6.conf.all.accept_dad=0"],
            ["ip", "netns", "exec", network.namespaceB, "sysctl", "-qw", "net.ipv6.conf.default.accept_dad=0", "net.ipv6.conf.all.accept_dad=0"],
            ["ip", "-n", network.namespaceA, "link", "set", "lo", "up"],
            ["ip", "-n", network.namespaceB, "link", "set", "lo", "up"],
        ]
        if veth { steps += [
            ["ip", "-n", network.namespaceA, "link", "add", network.interfaceA, "type", "veth", "peer", "name", network.interfaceB, "netns", network.namespaceB],
            ["ip", "-n", network.namespaceA, "addr", "add", network.addressA + "/24", "dev", network.interfaceA],
            ["ip", "-n", network.namespaceB, "addr", "add", network.addressB + "/24", "dev", network.interfaceB],
            ["ip", "-n", network.namespaceA, "link", "set", network.interfaceA, "up"],
            ["ip", "-n", network.namespaceB, "link", "set", network.interfaceB, "up"],
        ] }
        for step in steps {
            let result = run(step)
            if result.status != 0 {
                network.remove()
                try missing("`\(step.joined(separator: " "))` to work (it said: \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)))")
            }
        }
        // The veth carrier comes up asynchronously.
        for _ in 0..<50 where veth && !run(["ip", "-n", network.namespaceB, "link", "show", network.interfaceB]).stdout.contains("LOWER_UP") {
            usleep(100_000)
        }
        return network
    }

    private init(tag: String) {
        namespaceA = tag + "a"
        namespaceB = tag + "b"
        interfaceA = tag + "v"
        interfaceB = tag + "w"
    }

    /// Deletes both namespaces (the veth pair goes with them).
    func remove() {
        _ = Self.run(["ip", "netns", "del", namespaceA])
        _ = Self.run(["ip", "netns", "del", namespaceB])
    }

    /// Runs `body` on a new thread that has entered `namespace`'s network namespace (setns
    /// changes only the calling thread), so sockets it opens, and threads it starts, live there.
    static func inNamespace<T: Sendable>(_ namespace: String, _ body: @escaping @Sendable () throws -> T) throws -> T {
        typealias SetNS = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else { throw SetupError(description: "no setns in libc") }
        let setns = unsafeBitCast(symbol, to: SetNS.self)
        let outcome = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            let fd = open("/var/run/netns/\(namespace)", O_RDONLY | O_CLOEXEC)
            guard fd >= 0, setns(fd, 0x4000_0000 /* CLONE_NEWNET */) == 0 else {
                outcome.result = .failure(SetupError(description: "cannot enter network namespace \(namespace): \(String(cString: strerror(errno)))"))
                return
            }
            close(fd)
            outcome.result = Result { try body() }
        }
        thread.start()
        done.wait()
        return try outcome.result!.get()
    }

    final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a command to the end (at most `timeoutSeconds`, then it is killed).
    @discardableResult
    static func run(_ arguments: [String], timeoutSeconds: Double = 30) -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return Outcome(status: 127, stdout: "", stderr: "\(error)") }
        let killer = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds, execute: killer)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        return Outcome(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }
}
