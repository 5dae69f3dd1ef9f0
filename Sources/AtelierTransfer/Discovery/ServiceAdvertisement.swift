#if canImport(Glibc)
import Glibc
#endif

/// What Atelier advertises and looks for on the LAN.
public enum AtelierService {
    /// The DNS-SD service type of `atl-recv` (RFC 6763 §7): `_atelier._tcp`.
    public static let type = "_atelier._tcp"
    /// The TXT key holding the transfer protocol version.
    public static let versionKey = "v"
    /// The version `atl-recv` advertises today.
    public static let version = "1"
    /// The TXT key holding the public number of the pairing code (`7` of `7-crane-orbit`).
    /// The words of the code are secret and never advertised.
    public static let codeNumberKey = "n"
}

/// One DNS-SD service instance to advertise: `<instance>.<type>.local.` pointing at
/// `<host>.local.:<port>`, with TXT pairs (RFC 6763 §4–§6).
///
/// Everything here is public on the LAN: put nothing secret in `txt`.
public struct ServiceAdvertisement: Sendable, Hashable {
    /// The instance name, one label of at most 63 UTF-8 bytes (`atelier-7-3fa9c2`).
    public var instanceName: String
    /// The service type without the domain (`_atelier._tcp`).
    public var serviceType: String
    /// The host label the SRV record targets, without `.local` (`atelier-3fa9c2`). It should be
    /// unique on the link: the advertiser claims its A/AAAA records as its own (cache-flush).
    public var hostName: String
    /// The TCP port the service listens on.
    public var port: UInt16
    /// The TXT pairs (`v=1`, `n=7`).
    public var txt: [String: String]

    /// An advertisement of any service.
    public init(instanceName: String, serviceType: String = AtelierService.type, hostName: String, port: UInt16, txt: [String: String] = [:]) {
        self.instanceName = instanceName
        self.serviceType = serviceType
        self.hostName = hostName
        self.port = port
        self.txt = txt
    }

    /// The advertisement of an `atl-recv` waiting for the pairing code whose public number is
    /// `codeNumber`: instance `atelier-<n>-<suffix>`, host `atelier-<suffix>.local.`, TXT
    /// `v=1` and `n=<n>`. `suffix` defaults to 6 random hex digits, so that two receivers on a
    /// link (or on one machine) do not collide.
    public static func atelier(codeNumber: Int, port: UInt16, suffix: String = randomSuffix()) -> ServiceAdvertisement {
        ServiceAdvertisement(instanceName: "atelier-\(codeNumber)-\(suffix)", hostName: "atelier-\(suffix)", port: port,
                             txt: [AtelierService.versionKey: AtelierService.version, AtelierService.codeNumberKey: String(codeNumber)])
    }

    /// Six random lower-case hex digits.
    public static func randomSuffix() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() & 0xFF_FFFF
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 6 - hex.count) + hex
    }

    /// The DNS names this advertisement answers for; throws when one is not a valid name.
    func names() throws(TransferError) -> ServiceNames {
        let type = try DNSName(serviceType + ".local.")
        return ServiceNames(type: type, instance: try type.prepending(instanceName), host: try DNSName(labels: [hostName, "local"]))
    }
}

/// The names of one advertised service.
struct ServiceNames: Sendable, Hashable {
    /// `_atelier._tcp.local.`, the PTR owner.
    var type: DNSName
    /// `<instance>._atelier._tcp.local.`, the SRV and TXT owner.
    var instance: DNSName
    /// `<host>.local.`, the A and AAAA owner.
    var host: DNSName

    /// `_services._dns-sd._udp.local.`, which lists the service types on the link (RFC 6763 §9).
    static let serviceTypeEnumeration = DNSName(validated: ["_services", "_dns-sd", "_udp", "local"].map { Array($0.utf8) })
}
