import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Advertises one DNS-SD service over multicast DNS until stopped: what `atl-recv` runs while
/// it waits for a sender.
///
/// `start()` opens the sockets (IPv4 on every selected interface; IPv6 too where the interface
/// has an IPv6 address and joining ff02::fb works, never on loopback), then a background thread
/// announces the records twice, a second apart (RFC 6762 §8.3), and answers PTR, SRV, TXT, A,
/// AAAA and ANY queries for them, each interface with its own addresses. `stop()` sends a
/// goodbye (TTL 0) and returns once the thread has closed the sockets; it is also called when
/// the advertiser is released.
///
///     let advertiser = MDNSAdvertiser(.atelier(codeNumber: 7, port: listener.port))
///     try advertiser.start()          // throws TransferError (no interface, socket refused…)
///     defer { advertiser.stop() }
///
/// Sockets are bound with SO_REUSEADDR and SO_REUSEPORT, so Avahi or another responder may keep
/// port 5353. Sockets and interfaces are those of the network namespace of the thread that
/// calls `start()`.
public final class MDNSAdvertiser: @unchecked Sendable {
    /// What is advertised.
    public let service: ServiceAdvertisement
    /// Where it is advertised.
    public let interfaces: InterfaceSelection
    private let lock = NSLock()
    private var state = State.idle
    private var activeSockets: [MDNSSocket] = []

    private enum State {
        case idle
        case running(wake: Int32, done: DispatchSemaphore)
        case stopped
    }

    /// An advertiser, not yet started.
    public init(_ service: ServiceAdvertisement, interfaces: InterfaceSelection = .automatic) {
        self.service = service
        self.interfaces = interfaces
    }

    deinit {
        stop()
    }

    /// "interface/IPv4" or "interface/IPv6" for each socket the advertiser answers on (empty
    /// before `start()`): IPv6 is absent where the interface could not join ff02::fb.
    public var transports: [String] {
        lock.withLock { activeSockets.map { "\($0.interface.name)/\($0.isIPv6 ? "IPv6" : "IPv4")" } }
    }

    /// Opens the sockets and starts announcing and answering. Throws if the names are invalid
    /// (`.invalidName`, `.nameTooLong`), the interfaces cannot be found (`.noSuchInterface`,
    /// `.noUsableInterface`), no IPv4 socket could be set up (`.socketCall`, with the call and
    /// errno), or the advertiser was started before (`.advertiserAlreadyStarted`).
    public func start() throws(TransferError) {
        let responder = try MDNSResponder(service)
        lock.lock()
        defer { lock.unlock() }
        guard case .idle = state else { throw .advertiserAlreadyStarted }
        let sockets = try Self.openSockets(try NetworkInterface.select(interfaces))
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            sockets.forEach { $0.close() }
            throw .socketCall(call: "pipe", interface: "advertiser wake-up", errno: errno)
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let wakeRead = pipeEnds[0]
        let done = DispatchSemaphore(value: 0)
        let loop = AdvertiserLoop(responder: responder, sockets: sockets, wake: wakeRead)
        let thread = Thread {
            loop.run()
            close(wakeRead)
            done.signal()
        }
        thread.name = "mDNS advertiser"
        thread.start()
        activeSockets = sockets
        state = .running(wake: pipeEnds[1], done: done)
    }

    /// Sends the goodbye, closes the sockets and waits (at most 2 s) for the thread to end.
    /// Harmless when not running.
    public func stop() {
        let running: (wake: Int32, done: DispatchSemaphore)? = lock.withLock {
            defer { state = .stopped }
            if case .running(let wake, let done) = state { return (wake, done) }
            return nil
        }
        guard let running else { return }
        var byte: UInt8 = 1
        _ = write(running.wake, &byte, 1)
        _ = running.done.wait(timeout: .now() + 2)
        close(running.wake)
    }

    /// IPv4 on every interface (at least one must work); IPv6 where it works. With
    /// `anyPortIfBusy`, an IPv4 socket that cannot share port 5353 (another program holds it
    /// without SO_REUSEADDR) takes any port instead, as a legacy querier.
    static func openSockets(_ interfaces: [NetworkInterface], anyPortIfBusy: Bool = false) throws(TransferError) -> [MDNSSocket] {
        var sockets: [MDNSSocket] = []
        var firstError: TransferError? = nil
        for interface in interfaces {
            if !interface.ipv4.isEmpty {
                do {
                    sockets.append(try MDNSSocket(interface: interface, ipv6: false))
                } catch .socketCall(let call, _, EADDRINUSE) where anyPortIfBusy && call.hasPrefix("bind") {
                    do { sockets.append(try MDNSSocket(interface: interface, ipv6: false, localPort: 0)) } catch { firstError = firstError ?? error }
                } catch {
                    firstError = firstError ?? error
                }
            }
            if !interface.isLoopback, !interface.ipv6.isEmpty, let socket = try? MDNSSocket(interface: interface, ipv6: true) {
                sockets.append(socket)
            }
        }
        if !sockets.contains(where: { !$0.isIPv6 }) {
            sockets.forEach { $0.close() }
            throw firstError ?? .noUsableInterface
        }
        return sockets
    }
}

/// The advertiser's background loop: announce, answer, say goodbye.
private struct AdvertiserLoop: Sendable {
    let responder: MDNSResponder
    let sockets: [MDNSSocket]
    let wake: Int32

    /// Seconds between the unsolicited announcements, and how many (RFC 6762 §8.3).
    static let announcementIntervalSeconds = 1.0
    static let announcementCount = 2

    func run() {
        let clock = ContinuousClock()
        var announced = 0
        var nextAnnouncement = clock.now
        var buffer = [UInt8](repeating: 0, count: 9000)
        var descriptors = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
        while true {
            if announced < Self.announcementCount, clock.now >= nextAnnouncement {
                announce(goodbye: false)
                announced += 1
                nextAnnouncement = clock.now.advanced(by: .seconds(Self.announcementIntervalSeconds))
            }
            let wait = announced < Self.announcementCount ? max(0, milliseconds(until: nextAnnouncement, clock)) : 1000
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(wait))
            if ready < 0 && errno != EINTR { break }
            if descriptors.last!.revents != 0 { break }
            for (index, socket) in sockets.enumerated() where descriptors[index].revents != 0 {
                while let (bytes, from) = socket.receive(into: &buffer) { answer(bytes, from: from, on: socket) }
            }
        }
        announce(goodbye: true)
        sockets.forEach { $0.close() }
    }

    private func milliseconds(until instant: ContinuousClock.Instant, _ clock: ContinuousClock) -> Int {
        let left = clock.now.duration(to: instant).components
        return Int(left.seconds) * 1000 + Int(left.attoseconds / 1_000_000_000_000_000)
    }

    private func addresses(_ socket: MDNSSocket) -> (ipv4: [[UInt8]], ipv6: [[UInt8]]) {
        (socket.interface.ipv4, socket.interface.advertisedIPv6)
    }

    private func announce(goodbye: Bool) {
        for socket in sockets {
            let (ipv4, ipv6) = addresses(socket)
            // A send that fails (an interface gone down) must not end the loop: others may work.
            try? socket.send(responder.announcement(ipv4: ipv4, ipv6: ipv6, goodbye: goodbye).encoded())
        }
    }

    private func answer(_ bytes: ArraySlice<UInt8>, from: PeerAddress, on socket: MDNSSocket) {
        guard let query = try? DNSMessage(bytes: bytes) else { return }
        let (ipv4, ipv6) = addresses(socket)
        guard let reply = responder.response(to: query, fromPort: from.port, ipv4: ipv4, ipv6: ipv6) else { return }
        try? socket.send(reply.encoded(), to: from.port == MDNSSocket.port ? nil : from)
    }
}
