/// The answering half of an mDNS responder for one service, without sockets: which records
/// to announce, and what to reply to a query (RFC 6762 §6, §7.1, §8.3, §10).
///
/// TTLs follow RFC 6762 §10: 120 s for records naming a host (SRV, A, AAAA), 4500 s for the
/// others (PTR, TXT). SRV, TXT, A and AAAA carry the cache-flush bit, as they belong to this
/// responder alone; PTR is shared. Probing (§8.1) is not done: names carry a random suffix.
struct MDNSResponder: Sendable {
    let names: ServiceNames
    let port: UInt16
    let txt: [[UInt8]]

    static let hostTTL: UInt32 = 120
    static let otherTTL: UInt32 = 4500
    /// The TTL cap of legacy unicast replies (RFC 6762 §6.7).
    static let legacyTTL: UInt32 = 10

    init(_ service: ServiceAdvertisement) throws(TransferError) {
        names = try service.names()
        port = service.port
        txt = DNSTXT.strings(service.txt)
    }

    /// The records that answer for `name` and `type` on an interface with these addresses.
    func records(for name: DNSName, type: DNSRecordType, ipv4: [[UInt8]], ipv6: [[UInt8]]) -> [DNSResourceRecord] {
        let any = type == .any
        var records: [DNSResourceRecord] = []
        if name == names.type, any || type == .ptr {
            records.append(DNSResourceRecord(name: names.type, ttlSeconds: Self.otherTTL, data: .ptr(names.instance)))
        }
        if name == ServiceNames.serviceTypeEnumeration, any || type == .ptr {
            records.append(DNSResourceRecord(name: name, ttlSeconds: Self.otherTTL, data: .ptr(names.type)))
        }
        if name == names.instance, any || type == .srv {
            records.append(DNSResourceRecord(name: names.instance, ttlSeconds: Self.hostTTL, cacheFlush: true,
                                             data: .srv(priority: 0, weight: 0, port: port, target: names.host)))
        }
        if name == names.instance, any || type == .txt {
            records.append(DNSResourceRecord(name: names.instance, ttlSeconds: Self.otherTTL, cacheFlush: true, data: .txt(txt)))
        }
        if name == names.host, any || type == .a {
            records += ipv4.map { DNSResourceRecord(name: names.host, ttlSeconds: Self.hostTTL, cacheFlush: true, data: .a($0)) }
        }
        if name == names.host, any || type == .aaaa {
            records += ipv6.map { DNSResourceRecord(name: names.host, ttlSeconds: Self.hostTTL, cacheFlush: true, data: .aaaa($0)) }
        }
        return records
    }

    /// Every record of the service: PTR, SRV, TXT, then the addresses.
    func allRecords(ipv4: [[UInt8]], ipv6: [[UInt8]]) -> [DNSResourceRecord] {
        records(for: names.type, type: .ptr, ipv4: ipv4, ipv6: ipv6)
            + records(for: names.instance, type: .any, ipv4: ipv4, ipv6: ipv6)
            + records(for: names.host, type: .any, ipv4: ipv4, ipv6: ipv6)
    }

    /// The unsolicited response announcing every record (§8.3); with `goodbye`, the same
    /// records with TTL 0, which tell caches to forget them (§10.1).
    func announcement(ipv4: [[UInt8]], ipv6: [[UInt8]], goodbye: Bool = false) -> DNSMessage {
        var records = allRecords(ipv4: ipv4, ipv6: ipv6)
        if goodbye { for index in records.indices { records[index].ttlSeconds = 0 } }
        return DNSMessage(flags: DNSMessage.responseFlags, answers: records)
    }

    /// The reply to `query`, or nil when it asks nothing of ours (or only what the asker
    /// already knows). A query from a port other than 5353 gets a legacy unicast reply (§6.7):
    /// its id and questions echoed, TTLs capped at 10 s, no cache-flush bits.
    func response(to query: DNSMessage, fromPort: UInt16, ipv4: [[UInt8]], ipv6: [[UInt8]]) -> DNSMessage? {
        guard !query.isResponse, query.opcode == 0, query.responseCode == 0 else { return nil }
        var answers: [DNSResourceRecord] = []
        for question in query.questions where question.recordClass == 1 || question.recordClass == 255 {
            for record in records(for: question.name, type: question.type, ipv4: ipv4, ipv6: ipv6)
            where !answers.contains(record) && !Self.isKnown(record, in: query.answers) {
                answers.append(record)
            }
        }
        guard !answers.isEmpty else { return nil }
        // Additional records spare the asker a second query (RFC 6763 §12).
        var additionals: [DNSResourceRecord] = []
        let wanted = answers.flatMap { answer -> [DNSResourceRecord] in
            switch answer.data {
            case .ptr(let target) where target == names.instance: records(for: names.instance, type: .any, ipv4: ipv4, ipv6: ipv6)
                + records(for: names.host, type: .any, ipv4: ipv4, ipv6: ipv6)
            case .srv: records(for: names.host, type: .any, ipv4: ipv4, ipv6: ipv6)
            default: []
            }
        }
        for record in wanted where !answers.contains(record) && !additionals.contains(record) { additionals.append(record) }

        guard fromPort != MDNSSocket.port else {
            return DNSMessage(flags: DNSMessage.responseFlags, answers: answers, additionals: additionals)
        }
        let legacy = { (record: DNSResourceRecord) -> DNSResourceRecord in
            var record = record
            record.cacheFlush = false
            record.ttlSeconds = min(record.ttlSeconds, Self.legacyTTL)
            return record
        }
        return DNSMessage(id: query.id, flags: DNSMessage.responseFlags, questions: query.questions,
                          answers: answers.map(legacy), additionals: additionals.map(legacy))
    }

    /// Known-answer suppression (§7.1): the asker listed this record with at least half its TTL.
    static func isKnown(_ record: DNSResourceRecord, in knownAnswers: [DNSResourceRecord]) -> Bool {
        knownAnswers.contains { $0.name == record.name && $0.data == record.data && $0.ttlSeconds >= record.ttlSeconds / 2 }
    }
}
