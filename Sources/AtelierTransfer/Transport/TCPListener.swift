import Foundation

/// A listening TCP socket (IPv6 taking IPv4 too where the address is a wildcard).
public final class TCPListener: @unchecked Sendable {
    private let fd: Int32
    /// The address bound, with the port the system chose when asked for port 0.
    public let address: SocketAddress

    /// Binds `HOST:PORT` (`:0` for every address and a free port).
    public init(_ text: String) throws(TransferError) {
        let (host, port) = try SocketAddress.split(text)
        let candidates = try SocketAddress.resolve(host: host, port: port, passive: true)
        var lastError = TransferError.cannotListen(address: text, reason: "no address")
        for candidate in candidates {
            let fd = socket(candidate.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { continue }
            var one: Int32 = 1, zero: Int32 = 0
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if candidate.family == AF_INET6 { setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &zero, socklen_t(MemoryLayout<Int32>.size)) }
            let bound = candidate.withSockaddr { bind(fd, $0, $1) }
            guard bound == 0, Glibc.listen(fd, 4) == 0 else {
                lastError = .cannotListen(address: text, reason: TransferError.errnoText())
                Glibc.close(fd)
                continue
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
            self.fd = fd
            self.address = SocketAddress(storage: storage, length: length)
            return
        }
        throw lastError
    }

    deinit { Glibc.close(fd) }

    /// The next connection, waiting at most `timeoutSeconds`.
    public func accept(timeoutSeconds: Double, connectionTimeoutSeconds: Double) throws(TransferError) -> TCPConnection {
        while true {
            try TCPConnection.wait(fd: fd, for: Int16(POLLIN), seconds: timeoutSeconds, what: "waiting for the sender to connect")
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
            }
            if client >= 0 {
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                return TCPConnection(fd: client, peer: SocketAddress(storage: storage, length: length), timeoutSeconds: connectionTimeoutSeconds)
            }
            if errno == EAGAIN || errno == EINTR || errno == ECONNABORTED { continue }
            throw .cannotListen(address: "\(address)", reason: TransferError.errnoText())
        }
    }
}
