import Crypto
import Foundation

/// The sender's half of a batch transfer over a paired connection: sends the manifest, then
/// every file the receiver does not have yet (from where an interrupted run stopped), and
/// finishes when the receiver has verified the whole batch.
public struct BatchSender: Sendable {
    /// What happens, for the caller to print (records) and show (progress).
    public enum Event: Sendable {
        /// The receiver answered the manifest: `toSend` bytes in `files` files still to go.
        case resumed(toSend: UInt64, files: Int)
        /// More bytes went out (the running total of this session).
        case sent(bytes: UInt64)
        /// The receiver verified file `index` (or had it already: `resumedFrom` nil).
        case verified(index: Int, resumedFrom: UInt64?)
        /// The receiver verified the whole batch.
        case complete
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
        let pending = zip(entries, states).filter { $0.1.sendFrom != nil }
        try onEvent(.resumed(toSend: pending.reduce(0) { $0 + $1.0.size - min($1.1.sendFrom!, $1.0.size) }, files: pending.count))
        var verified = Array(repeating: false, count: entries.count)
        for (index, state) in states.enumerated() where state == .complete {
            verified[index] = true
            try onEvent(.verified(index: index, resumedFrom: nil))
        }
        func handle(_ message: TransferMessage) throws {
            switch message {
            case .fileVerified(let entry):
                guard Int(entry) < entries.count, !verified[Int(entry)] else { throw TransferError.unexpectedMessage(expected: "fileVerified of a sent file", got: "fileVerified of file \(entry)") }
                verified[Int(entry)] = true
                try onEvent(.verified(index: Int(entry), resumedFrom: states[Int(entry)].sendFrom))
            case .abort(let reason, let text): throw TransferError.peerAborted(reason, message: text)
            case let other: throw TransferError.unexpectedMessage(expected: "fileVerified", got: other.name)
            }
        }
        let stream = ChunkReader(chunkBytes: Self.chunkBytes)
        var sent: UInt64 = 0
        let start = Date()
        var sentFiles: UInt32 = 0
        for (index, state) in states.enumerated() {
            guard let offset = state.sendFrom else { continue }
            let entry = entries[index]
            let path = batch.localPaths[index]
            try stream.open(path, expectedSize: entry.size, from: min(offset, entry.size))
            // A recorded sha256 is checked as the bytes go (a resumed file's prefix first).
            var check: SHA256? = batch.unverified.contains(index) ? SHA256() : nil
            if check != nil, offset > 0 { try LocalBatch.hashPrefix(of: path, bytes: min(offset, entry.size), into: &check!) }
            while let chunk = try stream.next() {
                check?.update(bufferPointer: chunk.bytes)
                try connection.sendData(entry: UInt32(index), offset: chunk.offset, bytes: chunk.bytes)
                sent += UInt64(chunk.bytes.count)
                try onEvent(.sent(bytes: sent))
                while let message = try connection.receiveIfReady() { try handle(message) }
                if let limit = maxBytesPerSecond {
                    let ahead = Double(sent) / limit - Date().timeIntervalSince(start)
                    if ahead > 0 { Thread.sleep(forTimeInterval: ahead) }
                }
            }
            if let digest = check?.finalize(), Array(digest) != entry.sha256 {
                connection.abort(.cancelled, "\(entry.path) changed on the sender since it was recorded")
                throw TransferError.notAsRecorded(path: path)
            }
            try connection.send(.fileEnd(entry: UInt32(index), sha256: entry.sha256))
            sentFiles += 1
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

    /// Reads the peer's `hello` and checks its version and role.
    static func expectHello(from connection: SecureConnection, role: PairingRole) throws {
        switch try connection.receive() {
        case .hello(let hello):
            guard hello.version == 1 else {
                connection.abort(.unsupportedVersion, "message version \(hello.version) is not supported")
                throw TransferError.unsupportedVersion(ours: 1...1, theirs: hello.version...hello.version)
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
