import Foundation

/// A connected TCP stream: blocking reads and writes, each bounded by a timeout (no progress
/// for `timeoutSeconds` is an error, however long the whole transfer takes).
public final class TCPConnection: @unchecked Sendable {
    private let fd: Int32
    /// Where the other end is.
    public let peer: SocketAddress
    /// The longest wait for a byte to move either way.
    public var timeoutSeconds: Double

    init(fd: Int32, peer: SocketAddress, timeoutSeconds: Double) {
        self.fd = fd
        self.peer = peer
        self.timeoutSeconds = timeoutSeconds
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { Glibc.close(fd) }

    /// Connects to the first of `addresses` that accepts within `timeoutSeconds`.
    public static func connect(to addresses: [SocketAddress], timeoutSeconds: Double) throws(TransferError) -> TCPConnection {
        var lastError = TransferError.cannotConnect(address: "(no address)", reason: "nothing to connect to")
        for address in addresses {
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw .cannotConnect(address: "\(address)", reason: TransferError.errnoText()) }
            let status = address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if status != 0 && errno != EINPROGRESS {
                lastError = .cannotConnect(address: "\(address)", reason: TransferError.errnoText())
                Glibc.close(fd)
                continue
            }
            if status != 0 {
                do throws(TransferError) {
                    try wait(fd: fd, for: Int16(POLLOUT), seconds: timeoutSeconds, what: "connecting to \(address)")
                } catch {
                    lastError = error
                    Glibc.close(fd)
                    continue
                }
                var problem: Int32 = 0
                var size = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &size)
                if problem != 0 {
                    lastError = .cannotConnect(address: "\(address)", reason: String(cString: strerror(problem)))
                    Glibc.close(fd)
                    continue
                }
            }
            return TCPConnection(fd: fd, peer: address, timeoutSeconds: timeoutSeconds)
        }
        throw lastError
    }

    /// Sends all of `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TransferError) {
        var offset = 0
        while offset < bytes.count {
            let n = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try Self.wait(fd: fd, for: Int16(POLLOUT), seconds: timeoutSeconds, what: "sending to \(peer)")
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                throw .broken(reason: n == 0 ? "the peer stopped reading" : TransferError.errnoText())
            }
        }
    }

    public func write(_ bytes: [UInt8]) throws(TransferError) {
        var failure: TransferError?
        bytes.withUnsafeBytes { raw in
            do throws(TransferError) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Reads what has arrived, up to `buffer.count` bytes, waiting for at least one; 0 means the
    /// peer closed the connection.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransferError) -> Int {
        while true {
            let n = recv(fd, buffer.baseAddress!, buffer.count, 0)
            if n >= 0 { return n }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try Self.wait(fd: fd, for: Int16(POLLIN), seconds: timeoutSeconds, what: "waiting for \(peer)")
            case EINTR: continue
            default: throw .broken(reason: TransferError.errnoText())
            }
        }
    }

    /// True when a read would not wait (bytes, end of stream or an error are there).
    public func isReadable() -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Stops sending (the peer reads end-of-stream) but keeps reading.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Waits until `fd` is ready for `events`, or throws `timedOut`.
    static func wait(fd: Int32, for events: Int16, seconds: Double, what: String) throws(TransferError) {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw .timedOut(what: what, seconds: seconds) }
            let status = poll(&entry, 1, Int32(min(left * 1000, Double(Int32.max)).rounded(.up)))
            if status > 0 { return }
            if status < 0 && errno != EINTR { throw .broken(reason: TransferError.errnoText()) }
        }
    }
}

extension TransferError {
    /// The text of `errno` now.
    static func errnoText() -> String { String(cString: strerror(errno)) }
}
