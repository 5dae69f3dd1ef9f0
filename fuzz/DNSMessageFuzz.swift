import Foundation
@testable import AtelierTransfer

// libFuzzer harness for the DNS message decoder of DNS-SD discovery (build and run with
// `fuzz/run.sh dns SECONDS`).
//
// Every input is one UDP payload as it would arrive on port 5353 from anyone on the LAN.
// `DNSMessage(bytes:)` must never trap (AddressSanitizer sees any read outside the input, and
// Swift's own traps any overflow) and must either throw a `TransferError` or return a message
// within its bounds that our encoder writes back so that it decodes the same
// (`DNSFuzz.check`, shared with the seeded DNSParserFuzzTests). The responder and the browser's
// cache then take the message, as they would off the wire.

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    let hex = bytes.prefix(512).map { String($0, radix: 16) }.joined(separator: " ")
    FileHandle.standardError.write(Data("DNS fuzz: \(message)\n  input (\(bytes.count) bytes): \(hex)\n".utf8))
    abort()
}

let responder = try! MDNSResponder(.atelier(codeNumber: 7, port: 4242, suffix: "abc123"))
let serviceType = try! DNSName("_atelier._tcp.local.")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDNSMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let breach = DNSFuzz.check(bytes) { fail(breach, bytes) }
    guard let message = try? DNSMessage(bytes: bytes) else { return 0 }
    for port: UInt16 in [5353, 40000] {
        if let reply = responder.response(to: message, fromPort: port, ipv4: [[10, 0, 0, 1]], ipv6: []) {
            if (try? DNSMessage(bytes: reply.encoded())) != reply { fail("the reply does not round-trip", bytes) }
        }
    }
    var cache = BrowseCache(serviceType: serviceType)
    cache.add(message, interface: "fuzz0")
    for service in cache.resolved where service.addresses.isEmpty || service.serviceName.parent != serviceType {
        fail("resolved \(service)", bytes)
    }
    _ = cache.query().encoded()
    return 0
}
