#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket on port 5353 that has joined the mDNS group on one interface, for one address
/// family: 224.0.0.251 for IPv4, ff02::fb for IPv6 (RFC 6762 §3).
///
/// Sockets share the port with Avahi and other responders (SO_REUSEADDR and SO_REUSEPORT: every
/// socket bound to the port gets a copy of each multicast datagram). `IP_MULTICAST_ALL` is
/// turned off, so a socket hears only the group on the interface it joined; `IP_MULTICAST_IF`
/// is set to the interface, which is what makes multicast on `lo` work at all (without it
/// `sendto` fails with ENETUNREACH or leaves by the default route). Loopback of our own
/// multicast stays on, so that a browser finds an advertiser of the same machine.
struct MDNSSocket: Sendable {
    let descriptor: Int32
    let interface: NetworkInterface
    let isIPv6: Bool
    /// 5353, or 0 (any) for a querier that could not share 5353 (RFC 6762 §6.7 legacy queries:
    /// responders then reply by unicast to this socket).
    let localPort: UInt16

    static let port: UInt16 = 5353
    static let ipv4Group: [UInt8] = [224, 0, 0, 251]
    static let ipv6Group: [UInt8] = [0xFF, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFB]

    /// Opens and joins; on failure nothing is left open.
    init(interface: NetworkInterface, ipv6: Bool, localPort: UInt16 = MDNSSocket.port) throws(TransferError) {
        self.interface = interface
        self.isIPv6 = ipv6
        self.localPort = localPort
        let family = ipv6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socketCall(call: "socket", interface: interface.name, errno: errno) }
        descriptor = fd
        do {
            try option(SOL_SOCKET, SO_REUSEADDR, Int32(1), "setsockopt(SO_REUSEADDR)")
            try option(SOL_SOCKET, SO_REUSEPORT, Int32(1), "setsockopt(SO_REUSEPORT)")
            if ipv6 {
                try joinIPv6()
            } else {
                try joinIPv4()
            }
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
    }

    private func joinIPv4() throws(TransferError) {
        guard let local = interface.ipv4.first else { throw .noSuchInterface(interface.name) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = localPort.bigEndian
        try bind(&address, "bind(0.0.0.0:\(localPort))")
        try option(Int32(IPPROTO_IP), IP_MULTICAST_ALL, Int32(0), "setsockopt(IP_MULTICAST_ALL)")
        var request = ip_mreqn()
        request.imr_multiaddr = Self.inAddr(Self.ipv4Group)
        request.imr_address = Self.inAddr(local)
        request.imr_ifindex = Int32(interface.index)
        try option(Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, request, "setsockopt(IP_ADD_MEMBERSHIP 224.0.0.251)")
        try option(Int32(IPPROTO_IP), IP_MULTICAST_IF, request, "setsockopt(IP_MULTICAST_IF)")
        try option(Int32(IPPROTO_IP), IP_MULTICAST_TTL, Int32(255), "setsockopt(IP_MULTICAST_TTL)")
        try option(Int32(IPPROTO_IP), IP_MULTICAST_LOOP, Int32(1), "setsockopt(IP_MULTICAST_LOOP)")
    }

    private func joinIPv6() throws(TransferError) {
        try option(Int32(IPPROTO_IPV6), IPV6_V6ONLY, Int32(1), "setsockopt(IPV6_V6ONLY)")
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = localPort.bigEndian
        try bind(&address, "bind([::]:\(localPort))")
        // IPV6_MULTICAST_ALL (29) exists from Linux 4.20; older kernels deliver a bit more.
        try? option(Int32(IPPROTO_IPV6), 29, Int32(0), "setsockopt(IPV6_MULTICAST_ALL)")
        var request = ipv6_mreq()
        request.ipv6mr_multiaddr = Self.in6Addr(Self.ipv6Group)
        request.ipv6mr_interface = interface.index
        try option(Int32(IPPROTO_IPV6), IPV6_ADD_MEMBERSHIP, request, "setsockopt(IPV6_ADD_MEMBERSHIP ff02::fb)")
        try option(Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, Int32(bitPattern: interface.index), "setsockopt(IPV6_MULTICAST_IF)")
        try option(Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, Int32(255), "setsockopt(IPV6_MULTICAST_HOPS)")
        try option(Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, Int32(1), "setsockopt(IPV6_MULTICAST_LOOP)")
    }

    private func option<Value>(_ level: Int32, _ name: Int32, _ value: Value, _ call: String) throws(TransferError) {
        let result = withUnsafeBytes(of: value) { setsockopt(descriptor, level, name, $0.baseAddress, socklen_t($0.count)) }
        if result != 0 {
            throw .socketCall(call: call, interface: interface.name, errno: errno)
        }
    }

    private func bind<Address>(_ address: inout Address, _ call: String) throws(TransferError) {
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<Address>.size)) }
        }
        if result != 0 { throw .socketCall(call: call, interface: interface.name, errno: errno) }
    }

    /// Sends to the group, or to `destination` (a unicast reply); throws with errno on failure.
    func send(_ bytes: [UInt8], to destination: PeerAddress? = nil) throws(TransferError) {
        let peer = destination ?? PeerAddress(address: isIPv6 ? Self.ipv6Group : Self.ipv4Group, port: Self.port)
        let sent: Int
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = peer.port.bigEndian
            address.sin6_addr = Self.in6Addr(peer.address)
            address.sin6_scope_id = interface.index
            sent = Self.send(descriptor, bytes, &address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = peer.port.bigEndian
            address.sin_addr = Self.inAddr(peer.address)
            sent = Self.send(descriptor, bytes, &address)
        }
        if sent < 0 { throw .socketCall(call: "sendto(\(IPAddressText.format(peer.address)))", interface: interface.name, errno: errno) }
    }

    private static func send<Address>(_ fd: Int32, _ bytes: [UInt8], _ address: inout Address) -> Int {
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(MemoryLayout<Address>.size)) }
            }
        }
    }

    /// One datagram and who sent it, without blocking; nil when none is waiting.
    func receive(into buffer: inout [UInt8]) -> (bytes: ArraySlice<UInt8>, from: PeerAddress)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT), $0, &length) }
            }
        }
        guard count >= 0 else { return nil }
        return (buffer[0..<count], PeerAddress(storage))
    }

    func close() {
        _ = Glibc.close(descriptor)
    }

    static func inAddr(_ bytes: [UInt8]) -> in_addr {
        var address = in_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(4)) }
        return address
    }

    static func in6Addr(_ bytes: [UInt8]) -> in6_addr {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes.prefix(16)) }
        return address
    }
}

/// A datagram's source or destination: address bytes (4 or 16) and port.
struct PeerAddress: Sendable, Hashable {
    var address: [UInt8]
    var port: UInt16

    init(address: [UInt8], port: UInt16) {
        self.address = address
        self.port = port
    }

    init(_ storage: sockaddr_storage) {
        var storage = storage
        if Int32(storage.ss_family) == AF_INET6 {
            let v6 = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            self.init(address: withUnsafeBytes(of: v6.sin6_addr) { Array($0) }, port: UInt16(bigEndian: v6.sin6_port))
        } else {
            let v4 = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            self.init(address: withUnsafeBytes(of: v4.sin_addr) { Array($0) }, port: UInt16(bigEndian: v4.sin_port))
        }
    }
}
