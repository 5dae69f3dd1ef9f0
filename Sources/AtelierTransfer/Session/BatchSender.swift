import Crypto
import Foundation

/// The sender's half of a batch transfer over a paired connection: sends the manifest (names
/// and sizes), then every file the receiver does not have yet (from where an interrupted run
/// stopped), each followed by the sha256 computed as it was read, and finishes when the
/// receiver has verified the whole batch.
public struct BatchSender: Sendable {
    /// What happens, for the caller to print (records) and show (progress).
    public enum Event: Sendable {
        /// The receiver answered the manifest: `toSend` bytes in `files` files still to go.
        case resumed(toSend: UInt64, files: Int)
        /// More bytes went out (the running total of this session).
        case sent(bytes: UInt64)
        /// The receiver verified file `index`, whose sha256 is `sha256Hex` (or had it already:
        /// `resumedFrom` nil).
        case verified(index: Int, resumedFrom: UInt64?, sha256Hex: String)
        /// The receiver verified the whole batch.
        case complete
    }

    /// What the sender does with one entry, once it knows what the receiver holds.
    enum Plan {
        /// Send from `offset`, with `hasher` holding the hash state of the bytes before it.
        case send(from: UInt64, hasher: SHA256)
        /// The receiver's file in place is this one (same sha256): a `fileEnd` alone says so.
        case keep(sha256: [UInt8])
    }

    /// Bytes per data frame: large frames keep the per-frame cost (a syscall, a tag) small.
    public static let chunkBytes = 1 << 20

    /// Most bytes per second to send, or nil for as fast as the link goes.
    public var maxBytesPerSecond: Double?

    public init(maxBytesPerSecond: Double? = nil) { self.maxBytesPerSecond = maxBytesPerSecond }

    /// Sends `batch` to the peer.
    public func run(_ batch: LocalBatch, over connection: SecureConnection, onEvent: (Event) throws -> Void) throws {
        try connection.send(.hello(Hello(role: .sender, software: "atl-send")))
        try Self.expectHello(from: connection, role: .receiver)
        for part in batch.manifest.parts() { try connection.send(.manifest(part)) }
        let states: [ResumeState]
        switch try connection.receive() {
        case .resume(let answer): states = answer
        case .abort(let reason, let message): throw TransferError.peerAborted(reason, message: message)
        case let other: throw TransferError.unexpectedMessage(expected: "resume", got: other.name)
        }
        let entries = batch.manifest.entries
        guard states.count == entries.count else {
            throw TransferError.malformedMessage("resume", reason: "\(states.count) states for \(entries.count) files")
        }
        let plans: [Plan]
        do {
            plans = try states.indices.map { try Self.plan(batch, index: $0, holding: states[$0]) }
        } catch let error as TransferError {
            connection.abort(.cancelled, "\(error)")
            throw error
        }
        var toSend: UInt64 = 0, files = 0
        for (entry, plan) in zip(entries, plans) {
            if case .send(let from, _) = plan { toSend += entry.size - from; files += 1 }
        }
        try onEvent(.resumed(toSend: toSend, files: files))
        var digests = [[UInt8]?](repeating: nil, count: entries.count)
        var verified = Array(repeating: false, count: entries.count)
        func handle(_ message: TransferMessage) throws {
            switch message {
            case .fileVerified(let entry):
                let index = Int(entry)
                guard index < entries.count, !verified[index], let digest = digests[index] else {
                    throw TransferError.unexpectedMessage(expected: "fileVerified of a sent file", got: "fileVerified of file \(entry)")
                }
                verified[index] = true
                let resumedFrom: UInt64? = if case .send(let from, _) = plans[index] { from } else { nil }
                try onEvent(.verified(index: index, resumedFrom: resumedFrom, sha256Hex: digest.hex))
            case .abort(let reason, let text): throw TransferError.peerAborted(reason, message: text)
            case let other: throw TransferError.unexpectedMessage(expected: "fileVerified", got: other.name)
            }
        }
        let stream = ChunkReader(chunkBytes: Self.chunkBytes)
        var sent: UInt64 = 0
        let start = Date()
        var sentFiles: UInt32 = 0
        for (index, plan) in plans.enumerated() {
            let entry = entries[index]
            switch plan {
            case .keep(let digest):
                digests[index] = digest
                try connection.send(.fileEnd(entry: UInt32(index), sha256: digest))
            case .send(let offset, var hasher):
                let path = batch.localPaths[index]
                try stream.open(path, expectedSize: entry.size, from: offset)
                // Each chunk is read straight into the frame, hashed there and sealed in place.
                while let chunk = try connection.sendData(entry: UInt32(index), fill: { room in
                    guard let chunk = try stream.next(into: room) else { return nil }
                    hasher.update(bufferPointer: chunk.bytes)
                    return (chunk.offset, chunk.bytes.count)
                }) {
                    sent += UInt64(chunk.count)
                    try onEvent(.sent(bytes: sent))
                    while let message = try connection.receiveIfReady() { try handle(message) }
                    if let limit = maxBytesPerSecond {
                        let ahead = Double(sent) / limit - Date().timeIntervalSince(start)
                        if ahead > 0 { Thread.sleep(forTimeInterval: ahead) }
                    }
                }
                let digest = Array(hasher.finalize())
                if batch.recorded.contains(index), digest != batch.knownDigests[index] {
                    connection.abort(.cancelled, "\(entry.path) changed on the sender since it was recorded")
                    throw TransferError.notAsRecorded(path: path)
                }
                digests[index] = digest
                try connection.send(.fileEnd(entry: UInt32(index), sha256: digest))
                sentFiles += 1
            }
        }
        try connection.send(.endBatch(files: sentFiles, bytes: sent))
        while true {
            let message = try connection.receive()
            if case .batchVerified = message { break }
            try handle(message)
        }
        guard verified.allSatisfy({ $0 }) else { throw TransferError.unexpectedMessage(expected: "fileVerified", got: "batchVerified") }
        try onEvent(.complete)
        try connection.close()
    }

    /// What to do with entry `index`, given what the receiver holds of it:
    ///
    /// - nothing: send it whole;
    /// - a prefix: hash the same length of the local file (one read of that much); the same
    ///   digest continues after it, another starts over (a file that changed between runs);
    /// - a file in place: compare with the local sha256 when known (a record's id, or the cache
    ///   hint), else, or when a hint differs, after hashing the file; the same keeps it, another
    ///   sends it whole (which the receiver takes only with `--overwrite`). A file whose record's
    ///   id differs from its bytes is `notAsRecorded`.
    static func plan(_ batch: LocalBatch, index: Int, holding state: ResumeState) throws -> Plan {
        let path = batch.localPaths[index]
        let size = batch.manifest.entries[index].size
        switch state {
        case .need:
            return .send(from: 0, hasher: SHA256())
        case .have(let bytes, let theirs):
            guard bytes > 0, bytes <= size else { return .send(from: 0, hasher: SHA256()) }
            var hasher = SHA256()
            try LocalBatch.hashPrefix(of: path, bytes: bytes, into: &hasher)
            return Array(hasher.finalize()) == theirs ? .send(from: bytes, hasher: hasher) : .send(from: 0, hasher: SHA256())
        case .present(let theirs):
            let known = batch.knownDigests[index]
            if known == theirs { return .keep(sha256: theirs) }
            if known != nil, batch.recorded.contains(index) { return .send(from: 0, hasher: SHA256()) }
            let ours = try LocalBatch.digest(of: path)
            return ours == theirs ? .keep(sha256: ours) : .send(from: 0, hasher: SHA256())
        }
    }

    /// Reads the peer's `hello` and checks its version and role.
    static func expectHello(from connection: SecureConnection, role: PairingRole) throws {
        switch try connection.receive() {
        case .hello(let hello):
            // Version 1 put every sha256 in the manifest, version 2 in each fileEnd: the two
            // cannot talk, and each side says so (this hello is the first message after pairing).
            guard hello.version == Hello.currentVersion else {
                connection.abort(.unsupportedVersion, "message version \(hello.version) is not supported (this side speaks \(Hello.currentVersion))")
                throw TransferError.unsupportedVersion(ours: Hello.currentVersion...Hello.currentVersion, theirs: hello.version...hello.version)
            }
            guard hello.role == role else {
                connection.abort(.protocolError, "both sides are \(hello.role)s")
                throw TransferError.unexpectedMessage(expected: "hello from a \(role)", got: "hello from a \(hello.role)")
            }
        case .abort(let reason, let message): throw TransferError.peerAborted(reason, message: message)
        case let other: throw TransferError.unexpectedMessage(expected: "hello", got: other.name)
        }
    }
}
