/// A service instance found by `MDNSBrowser`, fully resolved: where to connect and its TXT pairs.
public struct DiscoveredService: Sendable, Hashable {
    /// The instance label (`atelier-7-3fa9c2`).
    public var instanceName: String
    /// The full instance name (`atelier-7-3fa9c2._atelier._tcp.local.`).
    public var serviceName: DNSName
    /// The SRV target (`atelier-3fa9c2.local.`).
    public var hostName: DNSName
    /// The SRV port.
    public var port: UInt16
    /// The host's addresses as text: IPv4 first, then IPv6; link-local IPv6 addresses carry
    /// `%interface`, as `getaddrinfo` wants them.
    public var addresses: [String]
    /// The TXT pairs, keys lower-cased (see `DNSTXT.dictionary`).
    public var txt: [String: String]
    /// The interface the SRV record arrived on.
    public var interfaceName: String

    /// The public number of the pairing code the receiver waits for (TXT `n`), if it says.
    public var codeNumber: Int? { txt[AtelierService.codeNumberKey].flatMap { Int($0) } }

    /// `host:port` strings to try in order, IPv6 addresses bracketed (`[fe80::1%eth0]:4242`).
    public var endpoints: [String] {
        addresses.map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" }
    }
}

extension Sequence where Element == DiscoveredService {
    /// The services advertising the pairing code number `codeNumber` (TXT `n`), in order.
    public func matching(codeNumber: Int) -> [DiscoveredService] {
        filter { $0.codeNumber == codeNumber }
    }
}
