#if canImport(Glibc)
import Glibc
#endif

/// Finds DNS-SD service instances over multicast DNS: what `atl-send` runs to find the
/// receiver whose pairing code number it was given.
///
/// A browse sends PTR queries for the service type (at once, then after 1, 2, 4… seconds),
/// follows up with SRV, TXT, A and AAAA queries for what the answers left out, and returns the
/// instances it could resolve completely when the time is up, or as soon as `stopWhen` says so.
/// It blocks the calling thread for at most `timeoutSeconds` (plus the time of one socket call).
///
///     let browser = MDNSBrowser()
///     if let receiver = try browser.find(codeNumber: 7, timeoutSeconds: 5) {
///         connect(to: receiver.endpoints)   // ["192.168.1.20:40123", "[fe80::…%eth0]:40123"]
///     }
///
/// Queries go out from port 5353 (shared with other responders through SO_REUSEPORT), so
/// responders answer by multicast, as to any mDNS querier; an advertiser in the same process
/// or on the same machine is found through multicast loopback. Sockets and interfaces are those
/// of the calling thread's network namespace.
public struct MDNSBrowser: Sendable {
    /// The service type browsed, without the domain (`_atelier._tcp`).
    public var serviceType: String
    /// Where to browse.
    public var interfaces: InterfaceSelection

    /// The first interval between PTR queries; each next one is twice as long (RFC 6762 §5.2).
    static let firstQueryIntervalSeconds = 1.0
    /// How soon to ask what a new answer left out (SRV, TXT, addresses) and was not yet asked.
    static let followUpDelaySeconds = 0.05

    /// A browser of `serviceType` on the selected interfaces.
    public init(serviceType: String = AtelierService.type, interfaces: InterfaceSelection = .automatic) {
        self.serviceType = serviceType
        self.interfaces = interfaces
    }

    /// The resolved instances heard within `timeoutSeconds`, or up to the first moment
    /// `stopWhen` returns true for those resolved so far. Throws when the service type is not a
    /// valid name, the interfaces cannot be found, or no socket could be opened; a send that
    /// fails later (an interface going down) does not end the browse.
    public func browse(timeoutSeconds: Double, stopWhen: (@Sendable ([DiscoveredService]) -> Bool)? = nil) throws(TransferError) -> [DiscoveredService] {
        var cache = BrowseCache(serviceType: try DNSName(serviceType + ".local."))
        let sockets = try Self.openSockets(try NetworkInterface.select(interfaces))
        defer { sockets.forEach { $0.close() } }

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(max(0, timeoutSeconds)))
        var nextQuery = clock.now
        var followUp: ContinuousClock.Instant? = nil
        var interval = Self.firstQueryIntervalSeconds
        var lastQuestions: Set<DNSQuestion> = []
        var buffer = [UInt8](repeating: 0, count: 9000)
        var descriptors = sockets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
        while clock.now < deadline {
            if clock.now >= nextQuery || followUp.map({ clock.now >= $0 }) ?? false {
                let query = cache.query()
                lastQuestions = Set(query.questions)
                let bytes = query.encoded()
                for socket in sockets { try? socket.send(bytes) }
                if clock.now >= nextQuery {
                    nextQuery = clock.now.advanced(by: .seconds(interval))
                    interval *= 2
                }
                followUp = nil
            }
            let wakeAt = min(followUp ?? nextQuery, nextQuery, deadline)
            let left = clock.now.duration(to: wakeAt).components
            let milliseconds = max(0, Int(left.seconds) * 1000 + Int(left.attoseconds / 1_000_000_000_000_000) + 1)
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: milliseconds))
            guard ready > 0 else { continue }
            var changed = false
            for (index, socket) in sockets.enumerated() where descriptors[index].revents != 0 {
                while let (bytes, _) = socket.receive(into: &buffer) {
                    guard let message = try? DNSMessage(bytes: bytes) else { continue }
                    changed = cache.add(message, interface: socket.interface.name) || changed
                }
            }
            guard changed else { continue }
            let resolved = cache.resolved
            if let stopWhen, stopWhen(resolved) { return resolved }
            // New questions (an instance without SRV…) go out soon; repeats wait for the schedule.
            if followUp == nil, !Set(cache.query().questions).isSubset(of: lastQuestions) {
                followUp = clock.now.advanced(by: .seconds(Self.followUpDelaySeconds))
            }
        }
        return cache.resolved
    }

    /// The first receiver found whose TXT `n` is `codeNumber`, or nil when none answered
    /// within `timeoutSeconds`. Returns as soon as one is resolved.
    public func find(codeNumber: Int, timeoutSeconds: Double) throws(TransferError) -> DiscoveredService? {
        try browse(timeoutSeconds: timeoutSeconds) { !$0.matching(codeNumber: codeNumber).isEmpty }.matching(codeNumber: codeNumber).first
    }

    /// The same sockets an advertiser opens (IPv4 on each interface, IPv6 where it works), but
    /// on any port where 5353 cannot be shared.
    static func openSockets(_ interfaces: [NetworkInterface]) throws(TransferError) -> [MDNSSocket] {
        try MDNSAdvertiser.openSockets(interfaces, anyPortIfBusy: true)
    }
}
