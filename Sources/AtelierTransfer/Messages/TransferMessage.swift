/// The messages of a transfer, one per encrypted frame.
///
/// A conversation (docs/transfer-protocol.md has the full picture):
///
///     sender                                   receiver
///     hello                     ───────────▶
///                               ◀───────────   hello
///     manifest (1+ parts)       ───────────▶
///                               ◀───────────   resume (per entry: need / have N + digest / present + digest)
///     data, data, …, fileEnd    ───────────▶   (per file the receiver lacks, from 0 or its offset)
///     fileEnd                   ───────────▶   (per file the receiver has with the sender's digest)
///                               ◀───────────   fileVerified (after the sha256 matched on disk)
///     endBatch                  ───────────▶
///                               ◀───────────   batchVerified
///     close                     ◀──────────▶   close
///
/// Either side may send `abort` instead of its next message, then `close`.
public enum TransferMessage: Sendable, Equatable {
    /// First message of each side: version and capabilities.
    case hello(Hello)
    /// Part of the manifest (sender → receiver); see `ManifestAssembler`.
    case manifest(ManifestPart)
    /// What the receiver already has (receiver → sender), one state per manifest entry.
    case resume([ResumeState])
    /// File bytes: entry index, byte offset in the file, the bytes (sender → receiver).
    case data(entry: UInt32, offset: UInt64, bytes: ArraySlice<UInt8>)
    /// The file is complete: its SHA-256, as the sender computed it while reading it (for a
    /// file sent in this session, the prefix it continued from included). After no data, it
    /// tells the receiver that its file in place (`present`) is the sender's: keep it.
    case fileEnd(entry: UInt32, sha256: [UInt8])
    /// The receiver verified and renamed the file into place.
    case fileVerified(entry: UInt32)
    /// The sender has sent everything: the count of files and bytes sent in this session.
    case endBatch(files: UInt32, bytes: UInt64)
    /// The receiver verified every file of the batch (its END_BATCH record is out).
    case batchVerified
    /// Stop: a reason code and a human explanation (at most 1,024 bytes).
    case abort(AbortReason, message: String)
    /// Clean end of this direction's stream: a stream that ends without it is truncated.
    case close

    /// The one-byte type that leads the frame's plaintext.
    public var type: UInt8 {
        switch self {
        case .hello: 0x01
        case .manifest: 0x02
        case .resume: 0x03
        case .data: 0x04
        case .fileEnd: 0x05
        case .fileVerified: 0x06
        case .endBatch: 0x07
        case .batchVerified: 0x08
        case .abort: 0x09
        case .close: 0x7F
        }
    }

    /// A short name for errors and logs.
    public var name: String { Self.name(ofType: type) }

    static func name(ofType type: UInt8) -> String {
        switch type {
        case 0x01: "hello"
        case 0x02: "manifest"
        case 0x03: "resume"
        case 0x04: "data"
        case 0x05: "fileEnd"
        case 0x06: "fileVerified"
        case 0x07: "endBatch"
        case 0x08: "batchVerified"
        case 0x09: "abort"
        case 0x7F: "close"
        default: "unknown type 0x\(String(type, radix: 16))"
        }
    }
}

/// A side's protocol version and capabilities.
public struct Hello: Sendable, Equatable {
    /// The message-layer version: 2 since the sha256 moved from the manifest to `fileEnd`. A
    /// peer of another version is refused with `unsupportedVersion` on both sides (each
    /// checks the other's hello, the first message after pairing).
    public var version: UInt8
    /// Who speaks: a sender talking to a sender is a wiring mistake caught early.
    public var role: PairingRole
    /// The largest frame plaintext this side accepts.
    public var maxFramePlaintext: UInt32
    /// Free text such as "atl-send 0.4.0", at most 64 bytes.
    public var software: String

    /// The message-layer version this build speaks (the only one).
    public static let currentVersion: UInt8 = 2

    public init(version: UInt8 = Hello.currentVersion, role: PairingRole, maxFramePlaintext: UInt32 = UInt32(FrameLimits.maxPlaintextBytes), software: String) {
        self.version = version
        self.role = role
        self.maxFramePlaintext = maxFramePlaintext
        self.software = software
    }
}

/// What the receiver holds of one manifest entry.
///
/// The manifest carries no digests (version 2), so the receiver says what it has and the
/// sender, which knows its own bytes, decides: it continues a prefix only if its own first
/// bytes hash the same, and skips a file in place only if its own file hashes the same.
public enum ResumeState: Sendable, Equatable {
    /// Nothing usable: send from byte 0.
    case need
    /// The first `bytes` bytes are on disk (written from authenticated frames of an earlier
    /// run) and hash to `prefixSHA256`: the sender sends from there if its own first `bytes`
    /// bytes hash the same, else from 0 (the receiver then starts the file over).
    case have(UInt64, prefixSHA256: [UInt8])
    /// A file of the entry's size is in place and hashes to `sha256`: the sender answers with a
    /// `fileEnd` alone if its file hashes the same, else sends the file from 0 (which the
    /// receiver takes only with `--overwrite`).
    case present(sha256: [UInt8])

    /// Where the sender continues if it agrees, or nil for a file kept: what the receiver
    /// expects to receive, and checks the free space for.
    public var expectedFrom: UInt64? {
        switch self {
        case .need: 0
        case .have(let bytes, _): bytes
        case .present: nil
        }
    }
}

/// Why a side aborted: an open set of one-byte codes, so a newer peer's reasons survive.
public struct AbortReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let wrongCode = AbortReason(rawValue: 1)
    public static let diskFull = AbortReason(rawValue: 2)
    public static let refusedOverwrite = AbortReason(rawValue: 3)
    public static let badManifest = AbortReason(rawValue: 4)
    public static let verificationFailed = AbortReason(rawValue: 5)
    public static let cancelled = AbortReason(rawValue: 6)
    public static let protocolError = AbortReason(rawValue: 7)
    public static let unsupportedVersion = AbortReason(rawValue: 8)
    public static let ioError = AbortReason(rawValue: 9)
    public static let internalError = AbortReason(rawValue: 10)

    public var description: String {
        switch rawValue {
        case 1: "wrong pairing code"
        case 2: "not enough disk space"
        case 3: "refused to overwrite an existing file"
        case 4: "bad manifest"
        case 5: "a file failed verification"
        case 6: "cancelled"
        case 7: "protocol error"
        case 8: "unsupported version"
        case 9: "I/O error"
        case 10: "internal error"
        default: "reason \(rawValue)"
        }
    }
}
