/// Which end of a transfer a side is. In CPace terms the sender is the initiator (A, it
/// sends the first share) and the receiver the responder (B); the receiver is the one that
/// listens, advertises and speaks first on the connection (its greeting).
public enum PairingRole: UInt8, Sendable, Hashable, CustomStringConvertible {
    case sender = 1
    case receiver = 2

    /// The other end.
    public var peer: PairingRole { self == .sender ? .receiver : .sender }

    public var description: String { self == .sender ? "sender" : "receiver" }
}
