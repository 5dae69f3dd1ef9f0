import Foundation

/// A TCP connection after pairing: messages in and out through the encrypted channel.
///
/// `pairAsSender` / `pairAsReceiver` run the four-message CPace handshake
/// (docs/transfer-protocol.md) and fail with `TransferError.wrongCode` on both sides when the
/// codes differ, before any frame is sealed.
public final class SecureConnection: @unchecked Sendable {
    let socket: TCPConnection
    /// The short fingerprint both sides derive (the same on both when paired).
    public let fingerprint: String
    private var sealer: FrameSealer
    private var opener: FrameOpener
    private var outgoing: [UInt8] = []
    /// Where a data frame is laid out, read into and sealed, in place (`sendData`).
    private let dataFrame = UnsafeMutableRawBufferPointer.allocate(byteCount: FrameLimits.prefixBytes + FrameLimits.maxSealedBytes, alignment: 64)
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 20)
    /// Bytes moved on the socket, both ways, for throughput figures.
    public private(set) var bytesSent = 0
    public private(set) var bytesReceived = 0

    private init(socket: TCPConnection, session: PairingSession) {
        self.socket = socket
        fingerprint = session.fingerprint
        sealer = session.makeSealer()
        opener = session.makeOpener()
        outgoing.reserveCapacity(4096)
    }

    deinit { dataFrame.deallocate() }

    /// The sender's side of the handshake (CPace initiator).
    public static func pairAsSender(_ socket: TCPConnection, code: PairingCode) throws -> SecureConnection {
        var handshake = PairingHandshake.Sender(code: code)
        let greeting = try readExactly(socket, PairingHandshake.greetingBytes, what: "the receiver's greeting")
        try socket.write(try handshake.initiate(greeting: greeting))
        let response = try readExactly(socket, PairingHandshake.responseBytes, what: "the receiver's key")
        try socket.write(try handshake.confirm(response: response))
        return SecureConnection(socket: socket, session: try handshake.finish())
    }

    /// The receiver's side of the handshake (CPace responder). Throws
    /// `TransferError.noPairingAttempt` when the peer went away or spoke something else before
    /// its key arrived: it never received the receiver's confirmation tag, so it made no guess.
    /// (Once that tag is sent, any failure counts as the one attempt the code allows.)
    public static func pairAsReceiver(_ socket: TCPConnection, code: PairingCode) throws -> SecureConnection {
        var handshake = PairingHandshake.Receiver(code: code)
        let initiate: [UInt8]
        do {
            try socket.write(handshake.greeting)
            initiate = try readExactly(socket, PairingHandshake.initiateBytes, what: "the sender's key")
        } catch let error as TransferError {
            throw TransferError.noPairingAttempt(underlying: error)
        }
        let response: [UInt8]
        do {
            // Garbage, another version or a low-order key: refused before our tag goes out.
            response = try handshake.respond(to: initiate)
        } catch let error as TransferError {
            throw TransferError.noPairingAttempt(underlying: error)
        }
        try socket.write(response)
        let confirmation = try readExactly(socket, PairingHandshake.confirmBytes, what: "the sender's confirmation")
        return SecureConnection(socket: socket, session: try handshake.finish(confirmation: confirmation))
    }

    private static func readExactly(_ socket: TCPConnection, _ count: Int, what: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var have = 0
        while have < count {
            let n = try bytes.withUnsafeMutableBytes { raw in
                try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[have...]))
            }
            // The peer hung up mid-handshake: what a peer with another code's greeting or a
            // port scanner does.
            guard n > 0 else { throw TransferError.malformedHandshake("the peer closed the connection before \(what)") }
            have += n
        }
        return bytes
    }

    /// Seals and sends `message` (at once: the handshake-sized messages are not batched).
    public func send(_ message: TransferMessage) throws {
        try sealer.seal(message, into: &outgoing)
        try flush()
    }

    /// Seals and sends one chunk of a file, copying it from `bytes`.
    public func sendData(entry: UInt32, offset: UInt64, bytes: UnsafeRawBufferPointer) throws {
        try sealer.sealData(entry: entry, offset: offset, bytes: bytes, into: &outgoing)
        try flush()
    }

    /// Sends the next chunk of file `entry` without copying it: `fill` writes up to
    /// `FrameLimits.maxDataChunkBytes` file bytes straight into the frame buffer (a `pread`)
    /// and returns their offset in the file and count, or nil when the file has no more;
    /// the chunk is then sealed where it lies and written. Returns what `fill` returned.
    public func sendData(entry: UInt32, fill: (UnsafeMutableRawBufferPointer) throws -> (offset: UInt64, count: Int)?) throws -> (offset: UInt64, count: Int)? {
        let start = FrameSealer.dataOffsetInFrame
        let room = UnsafeMutableRawBufferPointer(rebasing: dataFrame[start ..< start + FrameLimits.maxDataChunkBytes])
        guard let chunk = try fill(room) else { return nil }
        let length = try sealer.sealData(entry: entry, offset: chunk.offset, count: chunk.count, inPlace: dataFrame)
        try socket.write(UnsafeRawBufferPointer(rebasing: dataFrame[..<length]))
        bytesSent += length
        return chunk
    }

    /// Seals and sends `plaintext` as a message's type byte and fields, unchecked: the seam
    /// tests use to play a hostile peer (`FrameSealer.sealUnchecked`). Not for the tools.
    func sendUnchecked(plaintext: [UInt8]) throws {
        try sealer.sealUnchecked(plaintext: plaintext, into: &outgoing)
        try flush()
    }

    private func flush() throws {
        try outgoing.withUnsafeBytes { raw in try socket.write(raw) }
        bytesSent += outgoing.count
        outgoing.removeAll(keepingCapacity: true)
    }

    /// The next message, waiting for it (up to the socket's timeout). A connection that ends
    /// before the peer's `close` throws `truncatedStream`.
    public func receive() throws -> TransferMessage {
        while true {
            if let message = try opener.next() { return message }
            if opener.isClosed { throw TransferError.channelClosed }
            let n = try readBuffer.withUnsafeMutableBytes { raw in try socket.read(into: raw) }
            guard n > 0 else {
                try opener.finish()
                throw TransferError.channelClosed
            }
            bytesReceived += n
            try readBuffer.withUnsafeBytes { raw in try opener.feed(UnsafeRawBufferPointer(rebasing: raw[..<n])) }
        }
    }

    /// A message if one is already here or arrives without waiting, else nil.
    public func receiveIfReady() throws -> TransferMessage? {
        if let message = try opener.next() { return message }
        guard !opener.isClosed, socket.isReadable() else { return nil }
        return try receive()
    }

    /// Sends `abort` and `close`, ignoring a connection that is already gone.
    public func abort(_ reason: AbortReason, _ explanation: String) {
        try? send(.abort(reason, message: String(explanation.utf8.prefix(1000)) ?? ""))
        try? send(.close)
    }

    /// Sends `close` and waits for the peer's.
    public func close() throws {
        try send(.close)
        while true {
            if case .close = try receive() { return }
        }
    }
}
