import Foundation
import XCTest

/// The README's two-machine example, with two network namespaces joined by a veth pair for the
/// two machines: `atl-recv` advertises over multicast DNS in one, `atl-send` finds it by the
/// code's number from the other, and the batch arrives byte for byte.
///
/// Needs root and `ip` (iproute2); fails saying so unless ATELIER_SKIP_NETNS=1.
final class TransferNamespaceTests: XCTestCase {
    func testSendToAnotherMachineFoundByItsCode() throws {
        let sh = try Shell()
        defer { sh.remove() }
        let hasIP = try sh.run("ip -V").status == 0
        if geteuid() != 0 || !hasIP {
            if ProcessInfo.processInfo.environment["ATELIER_SKIP_NETNS"] == "1" { throw XCTSkip("needs root and iproute2") }
            return XCTFail("this test makes network namespaces: it needs root and `ip` (apt-get install iproute2); ATELIER_SKIP_NETNS=1 skips it")
        }
        let tag = "atlx\(getpid() % 100_000)"
        defer { _ = try? sh.run("ip netns del \(tag)a; ip netns del \(tag)b") }
        let setup = try sh.run("""
            set -e
            ip netns add \(tag)a && ip netns add \(tag)b
            ip -n \(tag)a link set lo up && ip -n \(tag)b link set lo up
            ip -n \(tag)a link add \(tag)v type veth peer name \(tag)w netns \(tag)b
            ip -n \(tag)a addr add 10.252.0.1/24 dev \(tag)v && ip -n \(tag)b addr add 10.252.0.2/24 dev \(tag)w
            ip -n \(tag)a link set \(tag)v up && ip -n \(tag)b link set \(tag)w up
            for i in $(seq 50); do ip -n \(tag)b link show \(tag)w | grep -q LOWER_UP && break; sleep 0.1; done
            mkdir -p scans/ring-1 && for i in 1 2 3 4 5 6; do head -c $((i * 70001)) /dev/urandom > scans/ring-1/shot-$i.jpg; done
            head -c 2000000 /dev/urandom > scans/turntable.jpg
            """)
        XCTAssertEqual(setup.status, 0, setup.err)

        // The receiving machine waits; the sending machine knows only the code.
        let result = try sh.run("""
            ip netns exec \(tag)a timeout 60 atl-recv --code 42-crane-orbit --into Scans/Input > received.ndjson 2> recv.err &
            receiver=$!
            ip netns exec \(tag)b timeout 60 atl-send --code 42-crane-orbit --wait 20 scans > sent.ndjson
            wait $receiver
            """)
        XCTAssertEqual(result.status, 0, result.err + ((try? sh.run("cat recv.err").out) ?? ""))
        let batch = try XCTUnwrap(try sh.run("tail -1 received.ndjson | jq -r 'select(.status == \"complete\") | .dir'").lines.first)
        XCTAssertEqual(try sh.run("diff -r scans '\(batch)/scans' && echo same").out, "same\n")
        XCTAssertEqual(try sh.run("jq -s 'map(select(.type == \"capture\")) | length' received.ndjson sent.ndjson").out, "14\n")
        // The sender found it over the veth, not by a loopback shortcut: the namespaces share nothing else.
        XCTAssertEqual(try sh.run("ip netns exec \(tag)b ip -br addr | grep -c 10.252.0.2").out, "1\n")
    }
}
