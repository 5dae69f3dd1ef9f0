import Foundation
import XCTest
@testable import AtelierTransfer

/// Interoperability with python-zeroconf (PyPI `zeroconf`), the DNS-SD stack Home Assistant and
/// many others use: it sees what we advertise, and we find what it registers. Each test runs in
/// network namespaces it makes (DiscoveryTestNetwork): our side on a thread that entered one,
/// zeroconf (Support/zeroconf_peer.py, pinned to one interface address) under `ip netns exec`.
final class DiscoveryInteropTests: XCTestCase {
    static let peerScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/zeroconf_peer.py").path

    var network: DiscoveryTestNetwork!

    override func setUpWithError() throws {
        network = try DiscoveryTestNetwork.make(needsZeroconf: true)
    }

    override func tearDown() {
        network?.remove()
    }

    /// zeroconf in `namespace`, browsing on `interfaceAddress` for `instance`; its JSON line.
    func zeroconfBrowse(in namespace: String, on interfaceAddress: String, for instance: String) throws -> [String: Any] {
        let result = DiscoveryTestNetwork.run(["ip", "netns", "exec", namespace, "python3", Self.peerScript, "browse",
                                               "--interface", interfaceAddress, "--name", instance, "--seconds", "10"], timeoutSeconds: 30)
        XCTAssertEqual(result.status, 0, "zeroconf did not resolve \(instance): \(result.stderr)")
        let line = try XCTUnwrap(result.stdout.split(separator: "\n").last, "zeroconf printed nothing; stderr: \(result.stderr)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func assertZeroconfSees(_ service: ServiceAdvertisement, at address: String, in namespace: String, on interfaceAddress: String) throws {
        let seen = try zeroconfBrowse(in: namespace, on: interfaceAddress, for: service.instanceName)
        XCTAssertEqual(seen["name"] as? String, "\(service.instanceName)._atelier._tcp.local.")
        XCTAssertEqual(seen["server"] as? String, "\(service.hostName).local.")
        XCTAssertEqual(seen["port"] as? Int, Int(service.port))
        // Our A record, then (across the veth) our link-local AAAA record, which zeroconf lists
        // without its scope.
        let addresses = try XCTUnwrap(seen["addresses"] as? [String])
        XCTAssertEqual(addresses.first, address)
        XCTAssertTrue(addresses.dropFirst().allSatisfy { $0.hasPrefix("fe80::") }, "\(addresses)")
        XCTAssertEqual(seen["properties"] as? [String: String], ["v": "1", "n": "7"])
    }

    func testZeroconfResolvesWhatWeAdvertiseAcrossAVeth() throws {
        let service = ServiceAdvertisement.atelier(codeNumber: 7, port: 40123)
        let interface = network.interfaceA
        let advertiser = try DiscoveryTestNetwork.inNamespace(network.namespaceA) {
            let advertiser = MDNSAdvertiser(service, interfaces: .named(interface))
            try advertiser.start()
            return advertiser
        }
        defer { advertiser.stop() }
        XCTAssertEqual(advertiser.transports, ["\(interface)/IPv4", "\(interface)/IPv6"])
        try assertZeroconfSees(service, at: network.addressA, in: network.namespaceB, on: network.addressB)
    }

    func testWeResolveWhatZeroconfRegistersAcrossAVeth() throws {
        let peer = try ZeroconfRegistration(in: network.namespaceB, on: network.addressB, instance: "zc-7-peer", port: 4242, txt: ["v=1", "n=7", "note=zeroconf"])
        defer { peer.stop() }
        let interface = network.interfaceA
        let found = try DiscoveryTestNetwork.inNamespace(network.namespaceA) {
            try MDNSBrowser(interfaces: .named(interface)).find(codeNumber: 7, timeoutSeconds: 8)
        }
        let service = try XCTUnwrap(found, "our browser did not find zeroconf's service")
        XCTAssertEqual(service.instanceName, "zc-7-peer")
        XCTAssertEqual(service.hostName.description, "zeroconf-peer.local.")
        XCTAssertEqual(service.port, 4242)
        XCTAssertEqual(service.addresses, [network.addressB])
        XCTAssertEqual(service.txt, ["v": "1", "n": "7", "note": "zeroconf"])
        XCTAssertEqual(service.interfaceName, interface)
    }

    /// Same machine, one namespace, over `lo` (where IPv4 multicast works only with
    /// IP_MULTICAST_IF set), both ways.
    func testZeroconfAndWeMeetOnLoopback() throws {
        let service = ServiceAdvertisement.atelier(codeNumber: 7, port: 40124)
        let advertiser = try DiscoveryTestNetwork.inNamespace(network.namespaceA) {
            let advertiser = MDNSAdvertiser(service, interfaces: .address("127.0.0.1"))
            try advertiser.start()
            return advertiser
        }
        defer { advertiser.stop() }
        XCTAssertEqual(advertiser.transports, ["lo/IPv4"])
        try assertZeroconfSees(service, at: "127.0.0.1", in: network.namespaceA, on: "127.0.0.1")

        let peer = try ZeroconfRegistration(in: network.namespaceA, on: "127.0.0.1", instance: "zc-8-loop", port: 4243, txt: ["n=8"])
        defer { peer.stop() }
        let found = try DiscoveryTestNetwork.inNamespace(network.namespaceA) {
            try MDNSBrowser(interfaces: .named("lo")).find(codeNumber: 8, timeoutSeconds: 8)
        }
        XCTAssertEqual(found?.endpoints, ["127.0.0.1:4243"])
    }
}

/// A service python-zeroconf keeps registered until `stop()` closes its stdin.
final class ZeroconfRegistration {
    let process = Process()
    let input = Pipe()
    let output: URL

    init(in namespace: String, on interfaceAddress: String, instance: String, port: Int, txt: [String]) throws {
        output = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("zeroconf-\(getpid())-\(instance).out")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else { throw DiscoveryTestNetwork.SetupError(description: "cannot create \(output.path)") }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ip", "netns", "exec", namespace, "python3", DiscoveryInteropTests.peerScript, "register", "--interface", interfaceAddress,
                             "--name", instance, "--port", String(port), "--seconds", "30"] + txt.flatMap { ["--txt", $0] }
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        // Registration probes for ~0.75 s, then announces.
        for _ in 0..<150 {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if text.contains("registered") { return }
            if !process.isRunning { throw DiscoveryTestNetwork.SetupError(description: "zeroconf_peer.py register exited: \(text)") }
            usleep(100_000)
        }
        stop()
        throw DiscoveryTestNetwork.SetupError(description: "zeroconf_peer.py register did not register \(instance) within 15 s")
    }

    /// Closes stdin, so zeroconf unregisters (goodbye) and exits; killed if it lingers.
    func stop() {
        try? input.fileHandleForWriting.close()
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: output)
    }
}
