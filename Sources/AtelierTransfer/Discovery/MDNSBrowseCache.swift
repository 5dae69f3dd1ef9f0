/// What a browser has learned so far, from any response it heard (RFC 6763 §4–§6): PTRs of the
/// service type, SRV and TXT of the instances, addresses of the hosts. Pure state, no sockets.
struct BrowseCache: Sendable {
    let serviceType: DNSName
    private(set) var instances: [DNSName] = []
    private var servers: [DNSName: (port: UInt16, target: DNSName, interface: String)] = [:]
    private var texts: [DNSName: [[UInt8]]] = [:]
    private var addresses: [DNSName: [(bytes: [UInt8], interface: String)]] = [:]

    init(serviceType: DNSName) {
        self.serviceType = serviceType
    }

    /// Takes in the records of a response heard on `interface`; queries are ignored. A record
    /// with TTL 0 (a goodbye) removes what it names. Returns whether anything changed.
    @discardableResult
    mutating func add(_ message: DNSMessage, interface: String) -> Bool {
        guard message.isResponse, message.responseCode == 0 else { return false }
        var changed = false
        // Cache-flush address records replace what the packet's host had (RFC 6762 §10.2).
        var flushed: Set<DNSName> = []
        for record in message.records {
            let goodbye = record.ttlSeconds == 0
            switch record.data {
            case .ptr(let instance) where record.name == serviceType && instance.parent == serviceType:
                if goodbye {
                    instances.removeAll { $0 == instance }
                } else if !instances.contains(instance) {
                    instances.append(instance)
                }
            case .srv(_, _, let port, let target):
                servers[record.name] = goodbye ? nil : (port, target, interface)
            case .txt(let strings):
                texts[record.name] = goodbye ? nil : strings
            case .a(let bytes), .aaaa(let bytes):
                var known = addresses[record.name] ?? []
                if record.cacheFlush, !goodbye, flushed.insert(record.name).inserted {
                    known.removeAll { $0.bytes.count == bytes.count }
                }
                known.removeAll { $0.bytes == bytes }
                if !goodbye { known.append((bytes, interface)) }
                addresses[record.name] = known
            default:
                continue
            }
            changed = true
        }
        return changed
    }

    /// The instances with SRV, TXT and at least one address, in the order their PTRs came.
    var resolved: [DiscoveredService] {
        instances.compactMap { instance in
            guard let server = servers[instance], let text = texts[instance],
                  let found = addresses[server.target], !found.isEmpty else { return nil }
            let ordered = found.filter { $0.bytes.count == 4 } + found.filter { $0.bytes.count == 16 }
            return DiscoveredService(instanceName: instance.firstLabel, serviceName: instance, hostName: server.target, port: server.port,
                                     addresses: ordered.map { IPAddressText.format($0.bytes, interface: $0.interface) },
                                     txt: DNSTXT.dictionary(text), interfaceName: server.interface)
        }
    }

    /// The questions still open: the PTR of the service type, always (with the PTRs known so
    /// far as known answers, so responders skip them: RFC 6762 §7.1), SRV and TXT of instances
    /// lacking them, A and AAAA of SRV targets without an address.
    func query() -> DNSMessage {
        var questions = [DNSQuestion(name: serviceType, type: .ptr)]
        for instance in instances {
            if servers[instance] == nil { questions.append(DNSQuestion(name: instance, type: .srv)) }
            if texts[instance] == nil { questions.append(DNSQuestion(name: instance, type: .txt)) }
            if let target = servers[instance]?.target, addresses[target]?.isEmpty ?? true,
               !questions.contains(where: { $0.name == target }) {
                questions.append(DNSQuestion(name: target, type: .a))
                questions.append(DNSQuestion(name: target, type: .aaaa))
            }
        }
        // Known answers only for complete instances: an incomplete one needs the additionals.
        let complete = Set(resolved.map(\.serviceName))
        let known = instances.filter { complete.contains($0) }.map {
            DNSResourceRecord(name: serviceType, ttlSeconds: MDNSResponder.otherTTL, data: .ptr($0))
        }
        return DNSMessage(questions: questions, answers: known)
    }
}
