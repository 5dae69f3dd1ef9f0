import Foundation

/// Turns away the connections that arrive while a receiver is busy with a batch: each is
/// accepted, told `PairingHandshake.busy` and closed, so a second sender hears at once that it
/// must wait its turn instead of hanging in the listen queue and then being reset.
///
/// Runs on a thread of its own from `init` until `stop()`; the listener is not used by anyone
/// else meanwhile. A busy connection is not a pairing attempt (no share or tag is exchanged),
/// so it costs the code nothing.
public final class BusyAnswerer: @unchecked Sendable {
    private let listener: TCPListener
    private let lock = NSLock()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)
    private let onTurnedAway: @Sendable (SocketAddress) -> Void

    /// How long a turned-away peer may take to take the message (it is 24 bytes: only a peer
    /// that reads nothing at all makes this wait).
    static let writeTimeoutSeconds = 2.0
    /// How often the thread checks whether it was stopped.
    static let pollSeconds = 0.1

    /// Starts answering; `onTurnedAway` is called (on the answering thread) with each peer sent away.
    public init(listener: TCPListener, onTurnedAway: @escaping @Sendable (SocketAddress) -> Void = { _ in }) {
        self.listener = listener
        self.onTurnedAway = onTurnedAway
        Thread.detachNewThread { [self] in
            answer()
            finished.signal()
        }
    }

    /// Stops answering and waits for the thread to end (the listener is free again after).
    public func stop() {
        lock.withLock { stopped = true }
        finished.wait()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func answer() {
        while !isStopped {
            let connection: TCPConnection
            do throws(TransferError) {
                connection = try listener.accept(timeoutSeconds: Self.pollSeconds, connectionTimeoutSeconds: Self.writeTimeoutSeconds)
            } catch {
                guard case .timedOut = error else { return }
                continue
            }
            try? connection.write(PairingHandshake.busy)
            connection.shutdownWrite()
            onTurnedAway(connection.peer)
        }
    }
}
