import Crypto
import Foundation

/// The receiver's half of a batch transfer over a paired connection: takes the manifest,
/// says what it already has (with digests, for the sender to compare), writes each file and
/// verifies it on disk against the sha256 its `fileEnd` brings, and confirms the batch only
/// once every file is verified.
public struct BatchReceiver: Sendable {
    /// What happens, for the caller to print (records) and show (progress).
    public enum Event: Sendable {
        /// The manifest arrived and was accepted: `toReceive` bytes are still to come.
        case accepted(batch: String, directory: String, files: Int, bytes: UInt64, toReceive: UInt64)
        /// More bytes were written (the running total of this session).
        case received(bytes: UInt64)
        /// A file is verified and in place (or was already, from an earlier run, and the sender
        /// said it has the same), in manifest order.
        case file(ReceivedFile)
        /// Every file is verified: END_BATCH.
        case complete(batch: String, directory: String, files: Int, bytes: UInt64)
    }

    /// One file of the batch, in place.
    public struct ReceivedFile: Sendable {
        public let batch: String
        public let index: Int
        public let relativePath: String
        public let path: String
        public let sha256Hex: String
        public let bytes: UInt64
        /// Where this session started it: 0, the length kept from an interrupted run, or nil
        /// when the file was already complete.
        public let resumedFrom: UInt64?
    }

    public var into: String
    public var overwrite: Bool
    public var limits: ManifestLimits

    public init(into: String, overwrite: Bool = false, limits: ManifestLimits = .standard) {
        self.into = into
        self.overwrite = overwrite
        self.limits = limits
    }

    /// Runs the conversation to its end. Errors of the disk or the batch are sent to the peer
    /// as `abort` before they are thrown.
    public func run(_ connection: SecureConnection, onEvent: (Event) throws -> Void) throws {
        try connection.send(.hello(Hello(role: .receiver, software: "atl-recv")))
        try BatchSender.expectHello(from: connection, role: .sender)
        var assembler = ManifestAssembler(limits: limits)
        var manifest: Manifest?
        while manifest == nil {
            let message: TransferMessage
            do { message = try connection.receive() } catch let error as TransferError where error.isProtocolFailure {
                // The decoder already refuses unsafe paths and broken limits: a bad manifest,
                // which the sender must hear about, not a silent hang-up.
                switch error {
                case .unsafePath, .invalidManifest: connection.abort(.badManifest, "\(error)")
                case .peerAborted: break
                default: connection.abort(.protocolError, "\(error)")
                }
                throw error
            }
            switch message {
            case .manifest(let part):
                do { manifest = try assembler.add(part) } catch {
                    connection.abort(.badManifest, "\(error)")
                    throw error
                }
            case .abort(let reason, let message): throw TransferError.peerAborted(reason, message: message)
            case let other: throw TransferError.unexpectedMessage(expected: "manifest", got: other.name)
            }
        }
        try receive(manifest!, over: connection, onEvent: onEvent)
    }

    /// After the manifest: says what is already here, then takes the files' data until
    /// END_BATCH. An error of the disk or the stream is sent to the peer as `abort` first.
    private func receive(_ manifest: Manifest, over connection: SecureConnection, onEvent: (Event) throws -> Void) throws {
        let directory = BatchDirectory(into: into, batch: manifest.batchID, overwrite: overwrite)
        let (states, prefixes) = try survey(manifest, in: directory, over: connection, onEvent: onEvent)
        try connection.send(.resume(states))
        var files = IncomingFiles(manifest: manifest, directory: directory, states: states, prefixes: prefixes)
        // On the way out, also when the stream broke: what arrived is authentic, so it is
        // written, and the next run resumes after it.
        defer { files.stop() }
        do {
            while true {
                switch try connection.receive() {
                case .data(let entry, let offset, let bytes):
                    try onEvent(.received(bytes: try files.write(bytes, toFile: entry, at: offset)))
                case .fileEnd(let entry, let sha256):
                    try onEvent(.file(try files.finish(entry, sha256: sha256)))
                    try connection.send(.fileVerified(entry: entry))
                case .endBatch:
                    try files.finishBatch()
                    try onEvent(.complete(batch: manifest.batchID, directory: directory.root, files: manifest.entries.count, bytes: manifest.totalBytes))
                    try connection.send(.batchVerified)
                    try connection.close()
                    return
                case .abort(let reason, let message):
                    throw TransferError.peerAborted(reason, message: message)
                case let other:
                    throw TransferError.unexpectedMessage(expected: "data", got: other.name)
                }
            }
        } catch let error as TransferError {
            // A failure of the disk or of the protocol is told to the peer; a broken or silent
            // connection is not (there is nobody to tell), nor the peer's own abort.
            if let reason = Self.abortReason(for: error) {
                connection.abort(reason, "\(error)")
            } else if error.isProtocolFailure, !error.isPeerAbort {
                connection.abort(.protocolError, "\(error)")
            }
            throw error
        }
    }

    /// What of each file is already on disk (a file in place, a prefix, or nothing, with their
    /// digests) and the hash state after each prefix, checked against the free space for the
    /// rest (as if the sender agrees with what is here); reports `accepted`. A disk error is
    /// sent to the peer as `abort` before it is thrown.
    private func survey(_ manifest: Manifest, in directory: BatchDirectory, over connection: SecureConnection,
                        onEvent: (Event) throws -> Void) throws -> (states: [ResumeState], prefixes: [Int: SHA256]) {
        var states: [ResumeState] = []
        var prefixes: [Int: SHA256] = [:]
        let journal = directory.loadJournal()
        do {
            for (index, entry) in manifest.entries.enumerated() {
                switch try directory.holding(relative: entry.path.string, size: Int64(entry.size), journal: journal) {
                case .present(let digest): states.append(.present(sha256: digest))
                case .partial(let bytes, let prefix):
                    states.append(.have(UInt64(bytes), prefixSHA256: Array(prefix.finalize())))
                    prefixes[index] = prefix
                case .none: states.append(.need)
                }
            }
            let toReceive = zip(manifest.entries, states).reduce(UInt64(0)) { sum, pair in
                sum + (pair.1.expectedFrom.map { pair.0.size - min($0, pair.0.size) } ?? 0)
            }
            try directory.checkSpace(for: Int64(toReceive))
            try onEvent(.accepted(batch: manifest.batchID, directory: directory.root, files: manifest.entries.count,
                                  bytes: manifest.totalBytes, toReceive: toReceive))
            return (states, prefixes)
        } catch let error as TransferError {
            if let reason = Self.abortReason(for: error) { connection.abort(reason, "\(error)") }
            throw error
        }
    }

    /// The reason the peer hears for a failure of the receiver's disk; nil for any other error.
    static func abortReason(for error: TransferError) -> AbortReason? {
        switch error {
        case .noSpace, .diskFull: .diskFull
        case .wouldOverwrite, .isADirectory, .notADirectory, .notARegularFileInTheWay: .refusedOverwrite
        case .checksumMismatch: .verificationFailed
        case .cannotWrite: .ioError
        default: nil
        }
    }
}

extension TransferError {
    /// Whether this is a failure of the pairing, channel or message layers: one the receiver
    /// answers with `abort`, unlike a failure of the sockets, the disk, discovery or the
    /// sender's files.
    var isProtocolFailure: Bool {
        switch self {
        case .invalidPairingCode, .unknownPairingWord, .malformedHandshake, .unsupportedVersion, .weakPeerKey, .wrongCode,
             .receiverBusy, .handshakeOutOfOrder, .frameTooLarge, .frameTooSmall, .authenticationFailed, .truncatedStream,
             .dataAfterClose, .channelClosed, .nonceExhausted, .malformedMessage, .unsafePath, .invalidManifest,
             .unexpectedMessage, .peerAborted:
            true
        default: false
        }
    }

    /// Whether the peer aborted (`peerAborted`): nothing to answer.
    var isPeerAbort: Bool {
        if case .peerAborted = self { return true }
        return false
    }
}
