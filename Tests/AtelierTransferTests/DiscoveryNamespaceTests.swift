import Foundation
import XCTest
@testable import AtelierTransfer

/// Our advertiser and browser against each other in network namespaces: across a veth pair
/// (IPv4 and IPv6), in one process as `atl-send` and `atl-recv` on one machine, and the
/// failure paths (no such interface, nothing to find, in bounded time).
final class DiscoveryNamespaceTests: XCTestCase {
    func testBrowserResolvesAdvertiserAcrossAVethOverIPv4AndIPv6() throws {
        let network = try DiscoveryTestNetwork.make(needsZeroconf: false)
        defer { network.remove() }
        let service = ServiceAdvertisement.atelier(codeNumber: 31, port: 5000)
        let other = ServiceAdvertisement.atelier(codeNumber: 32, port: 5001)
        let (interfaceA, interfaceB) = (network.interfaceA, network.interfaceB)
        let advertisers = try DiscoveryTestNetwork.inNamespace(network.namespaceA) {
            let advertisers = [MDNSAdvertiser(service, interfaces: .named(interfaceA)), MDNSAdvertiser(other, interfaces: .address("10.251.0.1"))]
            for advertiser in advertisers { try advertiser.start() }
            return advertisers
        }
        defer { advertisers.forEach { $0.stop() } }

        let found = try DiscoveryTestNetwork.inNamespace(network.namespaceB) {
            try MDNSBrowser(interfaces: .named(interfaceB)).browse(timeoutSeconds: 3)
        }
        XCTAssertEqual(Set(found.map(\.instanceName)), [service.instanceName, other.instanceName])
        let mine = try XCTUnwrap(found.matching(codeNumber: 31).first)
        XCTAssertEqual(mine.port, 5000)
        XCTAssertEqual(mine.hostName.description, "\(service.hostName).local.")
        XCTAssertEqual(mine.txt, ["v": "1", "n": "31"])
        XCTAssertEqual(mine.addresses.first, network.addressA)
        XCTAssertEqual(mine.addresses.count, 2, "an IPv4 and a link-local IPv6 address: \(mine.addresses)")
        XCTAssertTrue(mine.addresses.last?.hasPrefix("fe80::") ?? false)
        XCTAssertTrue(mine.addresses.last?.hasSuffix("%" + interfaceB) ?? false, "scoped to the interface it was heard on")

        // IPv6 alone carries it too: a browser on an IPv6-only socket set.
        let overIPv6 = try DiscoveryTestNetwork.inNamespace(network.namespaceB) {
            try MDNSBrowser.resolvedOverIPv6Only(interface: interfaceB, timeoutSeconds: 3)
        }
        XCTAssertEqual(Set(overIPv6.map(\.instanceName)), [service.instanceName, other.instanceName])
    }

    func testAdvertiserAndBrowserInOneProcessOnLoopback() throws {
        let network = try DiscoveryTestNetwork.make(needsZeroconf: false, veth: false)
        defer { network.remove() }
        let service = ServiceAdvertisement.atelier(codeNumber: 5, port: 6000)
        let started = ContinuousClock.now
        let found = try DiscoveryTestNetwork.inNamespace(network.namespaceA) {
            // Only `lo` here: .automatic falls back to it.
            let advertiser = MDNSAdvertiser(service)
            try advertiser.start()
            defer { advertiser.stop() }
            return try MDNSBrowser().find(codeNumber: 5, timeoutSeconds: 5)
        }
        XCTAssertEqual(found?.endpoints, ["127.0.0.1:6000"])
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(3), "find returns as soon as it has an answer")
    }

    func testBrowseReturnsNothingAtItsTimeoutAndAStoppedAdvertiserIsGone() throws {
        let network = try DiscoveryTestNetwork.make(needsZeroconf: false, veth: false)
        defer { network.remove() }
        let result = try DiscoveryTestNetwork.inNamespace(network.namespaceA) { () -> (Duration, [DiscoveredService], [DiscoveredService]) in
            let started = ContinuousClock.now
            let none = try MDNSBrowser().browse(timeoutSeconds: 1.5)
            let elapsed = ContinuousClock.now - started
            let advertiser = MDNSAdvertiser(.atelier(codeNumber: 9, port: 1))
            try advertiser.start()
            XCTAssertThrowsError(try advertiser.start()) { XCTAssertEqual($0 as? TransferError, .advertiserAlreadyStarted) }
            advertiser.stop()
            return (elapsed, none, try MDNSBrowser().browse(timeoutSeconds: 1.5))
        }
        XCTAssertEqual(result.1, [])
        XCTAssertGreaterThanOrEqual(result.0, .milliseconds(1400))
        XCTAssertLessThan(result.0, .milliseconds(2500))
        XCTAssertEqual(result.2, [], "stopped means no longer answering")
    }

    /// A program holding 5353 without SO_REUSEADDR: the advertiser says which call failed and
    /// why; the browser falls back to a legacy querier on another port and still returns.
    func testPort5353HeldExclusivelyIsReportedOrWorkedAround() throws {
        let network = try DiscoveryTestNetwork.make(needsZeroconf: false, veth: false)
        defer { network.remove() }
        let (error, found) = try DiscoveryTestNetwork.inNamespace(network.namespaceA) { () -> (TransferError?, [DiscoveredService]) in
            let blocker = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
            defer { close(blocker) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(5353).bigEndian
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(blocker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            XCTAssertEqual(bound, 0)
            var error: TransferError? = nil
            do { try MDNSAdvertiser(.atelier(codeNumber: 1, port: 1)).start() } catch let thrown { error = thrown as? TransferError }
            return (error, try MDNSBrowser().browse(timeoutSeconds: 0.5))
        }
        XCTAssertEqual(error, .socketCall(call: "bind(0.0.0.0:5353)", interface: "lo", errno: EADDRINUSE))
        XCTAssertEqual(found, [])
    }

    func testMissingInterfacesAreNamedInTheError() {
        XCTAssertThrowsError(try MDNSAdvertiser(.atelier(codeNumber: 1, port: 1), interfaces: .named("nosuch0")).start()) {
            XCTAssertEqual($0 as? TransferError, .noSuchInterface("nosuch0"))
            XCTAssertTrue("\($0)".contains("\"nosuch0\""))
        }
        XCTAssertThrowsError(try MDNSBrowser(interfaces: InterfaceSelection("192.0.2.77")).browse(timeoutSeconds: 1)) {
            XCTAssertEqual($0 as? TransferError, .noSuchInterface("192.0.2.77"))
        }
        XCTAssertEqual(InterfaceSelection("eth0"), .named("eth0"))
        XCTAssertEqual(InterfaceSelection("fe80::1%eth0"), .address("fe80::1%eth0"))
        XCTAssertEqual(InterfaceSelection(""), .automatic)
        XCTAssertThrowsError(try MDNSAdvertiser(ServiceAdvertisement(instanceName: String(repeating: "x", count: 64), hostName: "h", port: 1)).start()) {
            XCTAssertEqual($0 as? TransferError, .nameTooLong(offset: nil))
        }
        XCTAssertEqual(TransferError.socketCall(call: "bind(0.0.0.0:5353)", interface: "eth0", errno: EADDRINUSE).description,
                       "bind(0.0.0.0:5353) on eth0 failed: Address already in use (errno \(EADDRINUSE))")
    }
}

extension MDNSBrowser {
    /// One PTR query and what answers it, over IPv6 sockets only (no IPv4 socket is opened).
    static func resolvedOverIPv6Only(interface: String, timeoutSeconds: Double) throws -> [DiscoveredService] {
        let selected = try NetworkInterface.select(.named(interface))
        let socket = try MDNSSocket(interface: selected[0], ipv6: true)
        defer { socket.close() }
        var cache = BrowseCache(serviceType: try DNSName("_atelier._tcp.local."))
        var buffer = [UInt8](repeating: 0, count: 9000)
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeoutSeconds))
        var nextQuery = ContinuousClock.now
        while ContinuousClock.now < deadline {
            if ContinuousClock.now >= nextQuery {
                try socket.send(cache.query().encoded())
                nextQuery = ContinuousClock.now.advanced(by: .milliseconds(500))
            }
            usleep(20_000)
            while let (bytes, from) = socket.receive(into: &buffer) {
                XCTAssertEqual(from.address.count, 16)
                if let message = try? DNSMessage(bytes: bytes) { cache.add(message, interface: interface) }
            }
        }
        return cache.resolved
    }
}
