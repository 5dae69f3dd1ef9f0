#if canImport(Glibc)
import Glibc
#endif

/// Which network interfaces multicast DNS runs on.
public enum InterfaceSelection: Sendable, Hashable, CustomStringConvertible {
    /// Every interface that is up, can multicast and has an address, loopback excepted; when
    /// there is none (a machine or network namespace with only `lo`), the loopback interface.
    case automatic
    /// The interface of this name (`eth0`, `veth1`, `lo`).
    case named(String)
    /// The interface holding this IPv4 or IPv6 address (`192.168.1.20`, `127.0.0.1`).
    case address(String)

    /// `.address` when `text` parses as an IP address, `.named` otherwise; "" is `.automatic`.
    /// This is how a `--interface NAME|ADDR` option maps onto a selection.
    public init(_ text: String) {
        if text.isEmpty {
            self = .automatic
        } else if IPAddressText.parse(text) != nil {
            self = .address(text)
        } else {
            self = .named(text)
        }
    }

    public var description: String {
        switch self {
        case .automatic: "all multicast interfaces"
        case .named(let name): name
        case .address(let address): address
        }
    }
}

/// An interface as `getifaddrs` shows it, with its IPv4 and IPv6 addresses (network order).
struct NetworkInterface: Sendable, Hashable {
    var name: String
    var index: UInt32
    var isLoopback: Bool
    var canMulticast: Bool
    var ipv4: [[UInt8]] = []
    var ipv6: [[UInt8]] = []

    /// The interfaces that are up and have at least one address, in `getifaddrs` order.
    static func all() throws(TransferError) -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>? = nil
        guard getifaddrs(&list) == 0 else { throw .socketCall(call: "getifaddrs", interface: "all interfaces", errno: errno) }
        defer { freeifaddrs(list) }
        var found: [NetworkInterface] = []
        var entry = list
        while let current = entry?.pointee {
            defer { entry = current.ifa_next }
            let flags = Int32(bitPattern: current.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, let address = current.ifa_addr else { continue }
            let name = String(cString: current.ifa_name)
            var interface = found.first { $0.name == name } ?? NetworkInterface(
                name: name, index: if_nametoindex(current.ifa_name), isLoopback: flags & Int32(IFF_LOOPBACK) != 0,
                canMulticast: flags & Int32(IFF_MULTICAST) != 0)
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    interface.ipv4.append(withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) })
                }
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    interface.ipv6.append(withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) })
                }
            default:
                continue
            }
            if let at = found.firstIndex(where: { $0.name == name }) { found[at] = interface } else { found.append(interface) }
        }
        return found.filter { !$0.ipv4.isEmpty || !$0.ipv6.isEmpty }
    }

    /// The interfaces `selection` means; throws when a named one is missing or down, or when
    /// none at all is usable.
    static func select(_ selection: InterfaceSelection) throws(TransferError) -> [NetworkInterface] {
        let interfaces = try all()
        switch selection {
        case .automatic:
            let multicast = interfaces.filter { $0.canMulticast && !$0.isLoopback }
            if !multicast.isEmpty { return multicast }
            let loopback = interfaces.filter { $0.isLoopback && !$0.ipv4.isEmpty }
            if !loopback.isEmpty { return loopback }
            throw .noUsableInterface
        case .named(let name):
            guard let interface = interfaces.first(where: { $0.name == name }) else { throw .noSuchInterface(name) }
            return [interface]
        case .address(let text):
            guard let address = IPAddressText.parse(text),
                  let interface = interfaces.first(where: { $0.ipv4.contains(address) || $0.ipv6.contains(address) })
            else { throw .noSuchInterface(text) }
            return [interface]
        }
    }

    /// IPv6 addresses for AAAA records: link-local ones (fe80::/10) first, as every mDNS peer on
    /// the link can reach them; none on loopback, where IPv6 multicast does not work.
    var advertisedIPv6: [[UInt8]] {
        isLoopback ? [] : ipv6.sorted { ($0[0] == 0xFE && $0[1] & 0xC0 == 0x80) && !($1[0] == 0xFE && $1[1] & 0xC0 == 0x80) }
    }
}

/// IP addresses between text and bytes, through `inet_pton`/`inet_ntop`.
enum IPAddressText {
    /// 4 bytes for IPv4 text, 16 for IPv6 (a `%scope` suffix is dropped), nil for anything else.
    static func parse(_ text: String) -> [UInt8]? {
        let bare = text.split(separator: "%", maxSplits: 1).first.map(String.init) ?? text
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }

    /// Dotted or colon text for 4 or 16 bytes; IPv6 link-local addresses get `%interface`.
    static func format(_ bytes: [UInt8], interface: String? = nil) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if bytes.count == 16, bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80, let interface { return address + "%" + interface }
        return address
    }
}
