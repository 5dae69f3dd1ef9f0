import XCTest
@testable import AtelierTransfer

/// The responder's answers and the browser's cache, without sockets.
final class MDNSResponderTests: XCTestCase {
    static let service = ServiceAdvertisement.atelier(codeNumber: 7, port: 4242, suffix: "abc123")
    static let type = DNSMessageTests.name("_atelier._tcp.local.")
    static let instance = DNSMessageTests.name("atelier-7-abc123._atelier._tcp.local.")
    static let host = DNSMessageTests.name("atelier-abc123.local.")
    static let ipv4: [[UInt8]] = [[10, 0, 0, 5]]
    static let ipv6: [[UInt8]] = [[0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]]

    func responder() throws -> MDNSResponder { try MDNSResponder(Self.service) }

    func testTheAtelierAdvertisementCarriesOnlyPublicTXT() {
        XCTAssertEqual(Self.service.instanceName, "atelier-7-abc123")
        XCTAssertEqual(Self.service.hostName, "atelier-abc123")
        XCTAssertEqual(Self.service.txt, ["v": "1", "n": "7"])
        XCTAssertEqual(ServiceAdvertisement.randomSuffix().count, 6)
    }

    func testAnnouncementHasEveryRecordWithRFC6762TTLsAndBits() throws {
        let message = try responder().announcement(ipv4: Self.ipv4, ipv6: Self.ipv6)
        XCTAssertEqual(message.flags, 0x8400)
        XCTAssertEqual(message.answers, [
            DNSResourceRecord(name: Self.type, ttlSeconds: 4500, data: .ptr(Self.instance)),
            DNSResourceRecord(name: Self.instance, ttlSeconds: 120, cacheFlush: true, data: .srv(priority: 0, weight: 0, port: 4242, target: Self.host)),
            DNSResourceRecord(name: Self.instance, ttlSeconds: 4500, cacheFlush: true, data: .txt([Array("n=7".utf8), Array("v=1".utf8)])),
            DNSResourceRecord(name: Self.host, ttlSeconds: 120, cacheFlush: true, data: .a(Self.ipv4[0])),
            DNSResourceRecord(name: Self.host, ttlSeconds: 120, cacheFlush: true, data: .aaaa(Self.ipv6[0])),
        ])
        let goodbye = try responder().announcement(ipv4: Self.ipv4, ipv6: Self.ipv6, goodbye: true)
        XCTAssertEqual(goodbye.answers.map(\.ttlSeconds), [0, 0, 0, 0, 0])
    }

    func testPTRQueryGetsTheInstanceWithEverythingElseAsAdditionals() throws {
        let query = try DNSMessage(bytes: DNSMessageTests.zeroconfQuery)
        let reply = try XCTUnwrap(responder().response(to: query, fromPort: 5353, ipv4: Self.ipv4, ipv6: []))
        XCTAssertEqual(reply.id, 0)
        XCTAssertEqual(reply.questions, [])
        XCTAssertEqual(reply.answers.map(\.data), [.ptr(Self.instance)])
        XCTAssertEqual(reply.additionals.map(\.type), [.srv, .txt, .a])
        // Decodable by ourselves (and by zeroconf: DiscoveryInteropTests).
        XCTAssertEqual(try DNSMessage(bytes: reply.encoded()), reply)
    }

    func testKnownAnswersAreSuppressed() throws {
        var query = DNSMessage(questions: [DNSQuestion(name: Self.type, type: .ptr)])
        query.answers = [DNSResourceRecord(name: Self.type, ttlSeconds: 3000, data: .ptr(Self.instance))]
        XCTAssertNil(try responder().response(to: query, fromPort: 5353, ipv4: Self.ipv4, ipv6: []))
        query.answers[0].ttlSeconds = 2000   // less than half of 4500: the asker's copy is stale
        XCTAssertNotNil(try responder().response(to: query, fromPort: 5353, ipv4: Self.ipv4, ipv6: []))
    }

    func testHostAndInstanceQuestionsAndUnrelatedOnes() throws {
        let responder = try responder()
        let a = DNSMessage(questions: [DNSQuestion(name: DNSMessageTests.name("ATELIER-abc123.local"), type: .a)])
        XCTAssertEqual(responder.response(to: a, fromPort: 5353, ipv4: Self.ipv4, ipv6: Self.ipv6)?.answers.map(\.data), [.a(Self.ipv4[0])])
        let srv = DNSMessage(questions: [DNSQuestion(name: Self.instance, type: .srv)])
        let reply = responder.response(to: srv, fromPort: 5353, ipv4: Self.ipv4, ipv6: Self.ipv6)
        XCTAssertEqual(reply?.answers.map(\.type), [.srv])
        XCTAssertEqual(reply?.additionals.map(\.type), [.a, .aaaa])
        let services = DNSMessage(questions: [DNSQuestion(name: ServiceNames.serviceTypeEnumeration, type: .ptr)])
        XCTAssertEqual(responder.response(to: services, fromPort: 5353, ipv4: Self.ipv4, ipv6: [])?.answers.map(\.data), [.ptr(Self.type)])
        let other = DNSMessage(questions: [DNSQuestion(name: DNSMessageTests.name("_http._tcp.local"), type: .ptr)])
        XCTAssertNil(responder.response(to: other, fromPort: 5353, ipv4: Self.ipv4, ipv6: []))
        XCTAssertNil(responder.response(to: try DNSMessage(bytes: DNSMessageTests.zeroconfResponse), fromPort: 5353, ipv4: Self.ipv4, ipv6: []), "responses are not queries")
    }

    func testLegacyUnicastQueriesGetShortTTLsAndTheirQuestionsBack() throws {
        let query = DNSMessage(id: 0xBEEF, questions: [DNSQuestion(name: Self.instance, type: .txt)])
        let reply = try XCTUnwrap(responder().response(to: query, fromPort: 40000, ipv4: Self.ipv4, ipv6: []))
        XCTAssertEqual(reply.id, 0xBEEF)
        XCTAssertEqual(reply.questions, query.questions)
        XCTAssertEqual(reply.answers, [DNSResourceRecord(name: Self.instance, ttlSeconds: 10, data: .txt([Array("n=7".utf8), Array("v=1".utf8)]))])
    }

    func testBrowseCacheResolvesAZeroconfResponseAndForgetsOnGoodbye() throws {
        var cache = BrowseCache(serviceType: Self.type)
        XCTAssertEqual(cache.query().questions, [DNSQuestion(name: Self.type, type: .ptr)])
        XCTAssertTrue(cache.add(try DNSMessage(bytes: DNSMessageTests.zeroconfResponse), interface: "veth0"))
        let found = try XCTUnwrap(cache.resolved.first)
        XCTAssertEqual(found, DiscoveredService(
            instanceName: "zc-7-abc", serviceName: DNSMessageTests.name("zc-7-abc._atelier._tcp.local."), hostName: DNSMessageTests.name("zeroconf-peer.local."),
            port: 4242, addresses: ["10.251.0.2"], txt: ["v": "1", "n": "7"], interfaceName: "veth0"))
        XCTAssertEqual(found.endpoints, ["10.251.0.2:4242"])
        XCTAssertEqual(cache.resolved.matching(codeNumber: 7).count, 1)
        XCTAssertEqual(cache.resolved.matching(codeNumber: 8).count, 0)
        XCTAssertEqual(cache.query().answers.count, 1, "the known PTR goes along as a known answer")

        let goodbye = try responder().announcement(ipv4: Self.ipv4, ipv6: [], goodbye: false)
        cache.add(goodbye, interface: "veth0")
        XCTAssertEqual(cache.resolved.map(\.instanceName), ["zc-7-abc", "atelier-7-abc123"])
        cache.add(try responder().announcement(ipv4: Self.ipv4, ipv6: [], goodbye: true), interface: "veth0")
        XCTAssertEqual(cache.resolved.map(\.instanceName), ["zc-7-abc"])
    }

    func testBrowseCacheAsksForWhatAPTRLeftOut() throws {
        var cache = BrowseCache(serviceType: Self.type)
        cache.add(DNSMessage(flags: 0x8400, answers: [DNSResourceRecord(name: Self.type, ttlSeconds: 4500, data: .ptr(Self.instance))]), interface: "eth0")
        XCTAssertEqual(cache.query().questions.map(\.type), [.ptr, .srv, .txt])
        XCTAssertEqual(cache.query().answers, [], "no known answer for an instance still being resolved")
        cache.add(DNSMessage(flags: 0x8400, answers: [DNSResourceRecord(name: Self.instance, ttlSeconds: 120, data: .srv(priority: 0, weight: 0, port: 1, target: Self.host))]), interface: "eth0")
        XCTAssertEqual(cache.query().questions.map(\.type), [.ptr, .txt, .a, .aaaa])
        cache.add(DNSMessage(flags: 0x8400, answers: [
            DNSResourceRecord(name: Self.instance, ttlSeconds: 120, data: .txt([[]])),
            DNSResourceRecord(name: Self.host, ttlSeconds: 120, data: .aaaa(Self.ipv6[0])),
        ]), interface: "eth0")
        XCTAssertEqual(cache.resolved.first?.addresses, ["fe80::1%eth0"])
        XCTAssertEqual(cache.resolved.first?.endpoints, ["[fe80::1%eth0]:1"])
    }
}
