/// A DNS resource record type (RFC 1035 §3.2.2); the ones DNS-SD uses have names.
public struct DNSRecordType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// An IPv4 address.
    public static let a = DNSRecordType(rawValue: 1)
    /// A pointer to another name (service type → instance in DNS-SD).
    public static let ptr = DNSRecordType(rawValue: 12)
    /// Text strings (DNS-SD key=value pairs).
    public static let txt = DNSRecordType(rawValue: 16)
    /// An IPv6 address.
    public static let aaaa = DNSRecordType(rawValue: 28)
    /// A service location: priority, weight, port, target host.
    public static let srv = DNSRecordType(rawValue: 33)
    /// mDNS's "which records exist" (RFC 6762 §6.5).
    public static let nsec = DNSRecordType(rawValue: 47)
    /// The query type "any" (question only).
    public static let any = DNSRecordType(rawValue: 255)

    public var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}

/// A question: which name, which type, and whether the asker wants a unicast reply.
public struct DNSQuestion: Sendable, Hashable {
    public var name: DNSName
    public var type: DNSRecordType
    /// The class without its top bit (1 = IN).
    public var recordClass: UInt16
    /// The mDNS "QU" bit, the top bit of the class (RFC 6762 §5.4).
    public var unicastResponse: Bool

    /// A question of class IN.
    public init(name: DNSName, type: DNSRecordType, recordClass: UInt16 = 1, unicastResponse: Bool = false) {
        self.name = name
        self.type = type
        self.recordClass = recordClass
        self.unicastResponse = unicastResponse
    }
}

/// The data of a resource record, decoded for the types DNS-SD needs and kept as bytes for the rest.
public enum DNSRecordData: Sendable, Hashable {
    /// IPv4 address, network byte order.
    case a([UInt8])
    /// IPv6 address, network byte order.
    case aaaa([UInt8])
    /// The name pointed to.
    case ptr(DNSName)
    /// Service location (RFC 2782).
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    /// Character strings, each at most 255 bytes (longer ones are cut when encoded). RFC 6763
    /// §6.1 wants at least one, possibly empty: `DNSTXT.strings` makes sure of that.
    case txt([[UInt8]])
    /// Any other type, its RDATA as received (compressed names in it are not expanded).
    case opaque(type: DNSRecordType, bytes: [UInt8])

    /// The record type this data belongs to.
    public var type: DNSRecordType {
        switch self {
        case .a: .a
        case .aaaa: .aaaa
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .opaque(let type, _): type
        }
    }
}

/// A resource record: owner name, class, TTL and data, with mDNS's cache-flush bit.
public struct DNSResourceRecord: Sendable, Hashable {
    public var name: DNSName
    /// The class without its top bit (1 = IN).
    public var recordClass: UInt16
    /// The mDNS cache-flush bit, the top bit of the class (RFC 6762 §10.2): set on records that
    /// belong to this responder alone (SRV, TXT, A, AAAA), clear on shared ones (PTR).
    public var cacheFlush: Bool
    /// Seconds the record stays valid; 0 is a goodbye (RFC 6762 §10.1).
    public var ttlSeconds: UInt32
    public var data: DNSRecordData

    /// A record of class IN.
    public init(name: DNSName, ttlSeconds: UInt32, cacheFlush: Bool = false, recordClass: UInt16 = 1, data: DNSRecordData) {
        self.name = name
        self.recordClass = recordClass
        self.cacheFlush = cacheFlush
        self.ttlSeconds = ttlSeconds
        self.data = data
    }

    /// The record type, from its data.
    public var type: DNSRecordType { data.type }
}

/// Reading and writing DNS-SD TXT data (RFC 6763 §6).
public enum DNSTXT {
    /// Strings `key=value` for each pair, keys sorted so that the encoding is stable. An empty
    /// dictionary gives the single empty string RFC 6763 §6.1 requires.
    public static func strings(_ pairs: [String: String]) -> [[UInt8]] {
        let strings = pairs.keys.sorted().map { Array("\($0)=\(pairs[$0]!)".utf8) }
        return strings.isEmpty ? [[]] : strings
    }

    /// The pairs in TXT strings: the key is what precedes the first `=`, compared without case
    /// (keys are returned lower-cased); the first occurrence of a key wins; a string without `=`
    /// is a boolean attribute with value ""; empty strings and empty keys are skipped.
    public static func dictionary(_ strings: [[UInt8]]) -> [String: String] {
        var pairs: [String: String] = [:]
        for string in strings {
            let equals = string.firstIndex(of: 0x3D) ?? string.endIndex
            guard equals > 0 else { continue }
            let key = String(decoding: string[..<equals], as: UTF8.self).lowercased()
            guard pairs[key] == nil else { continue }
            pairs[key] = equals < string.endIndex ? String(decoding: string[(equals + 1)...], as: UTF8.self) : ""
        }
        return pairs
    }
}
