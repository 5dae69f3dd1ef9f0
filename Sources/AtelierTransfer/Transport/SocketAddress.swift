import Foundation

/// An IPv4 or IPv6 socket address, resolved from `HOST:PORT`, `[V6]:PORT` or `:PORT`.
public struct SocketAddress: Sendable, CustomStringConvertible {
    /// The bytes of a `sockaddr_in` or `sockaddr_in6`.
    let storage: sockaddr_storage
    let length: socklen_t

    public var family: Int32 { Int32(storage.ss_family) }

    /// The port, in host order.
    public var port: UInt16 {
        withSockaddr { pointer, _ in
            family == AF_INET6
                ? UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port })
                : UInt16(bigEndian: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port })
        }
    }

    /// The numeric host, as `getnameinfo` prints it.
    public var host: String {
        var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let status = withSockaddr { pointer, length in
            getnameinfo(pointer, length, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST)
        }
        return status == 0 ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }

    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        try withUnsafePointer(to: storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    /// Splits `HOST:PORT`, `[V6]:PORT` or `:PORT` (an empty host: every address).
    public static func split(_ text: String) throws(TransferError) -> (host: String, port: UInt16) {
        let host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw .badAddress(text) }
            host = text[text.index(after: text.startIndex) ..< close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { throw .badAddress(text) }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard let number = UInt16(port) else { throw .badAddress(text) }
        return (String(host), number)
    }

    /// Every address `host` resolves to, for a stream socket on `port`; an empty host means
    /// every local address (for listening).
    public static func resolve(host: String, port: UInt16, passive: Bool = false) throws(TransferError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = passive ? AI_PASSIVE : 0
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .unresolved(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let entry = node {
            if let address = entry.pointee.ai_addr, entry.pointee.ai_family == AF_INET || entry.pointee.ai_family == AF_INET6 {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { raw in
                    raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(entry.pointee.ai_addrlen)))
                }
                addresses.append(SocketAddress(storage: storage, length: entry.pointee.ai_addrlen))
            }
            node = entry.pointee.ai_next
        }
        // Listening on every address: one IPv6 socket takes IPv4 too, so prefer it.
        if passive { addresses.sort { $0.family == AF_INET6 && $1.family != AF_INET6 } }
        return addresses
    }
}
