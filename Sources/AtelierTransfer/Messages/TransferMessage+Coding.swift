/// The binary encoding of `TransferMessage`: a type byte, then the fields big-endian.
///
/// Decoding is total and strict: any byte string yields a message or a
/// `TransferError.malformedMessage`/`.unsafePath`/`.invalidManifest`, never a trap, and a
/// decoded message re-encodes to the very same bytes (no trailing bytes, no unknown values).
extension TransferMessage {
    /// Most bytes of an abort's explanation.
    public static let maxAbortMessageBytes = 1024
    /// Most bytes of `Hello.software`.
    public static let maxSoftwareBytes = 64

    /// Appends the encoding (type byte included) to `out`.
    public func encode(into out: inout [UInt8]) {
        out.appendByte(type)
        switch self {
        case .hello(let hello):
            out.appendByte(hello.version)
            out.appendByte(hello.role.rawValue)
            out.appendUInt32(hello.maxFramePlaintext)
            out.appendShortBytes(Self.utf8Prefix(hello.software, maxBytes: Self.maxSoftwareBytes))
        case .manifest(let part):
            out.appendShortString(part.batchID)
            out.appendUInt32(part.entryCount)
            out.appendUInt64(part.totalBytes)
            out.appendUInt32(part.firstIndex)
            out.appendUInt32(UInt32(part.entries.count))
            for entry in part.entries {
                out.appendShortString(entry.path.string)
                out.appendUInt64(entry.size)
            }
        case .resume(let states):
            out.appendUInt32(UInt32(states.count))
            for state in states {
                switch state {
                case .need: out.appendByte(0)
                case .have(let bytes, let digest): out.appendByte(1); out.appendUInt64(bytes); out.append(contentsOf: digest)
                case .present(let digest): out.appendByte(2); out.append(contentsOf: digest)
                }
            }
        case .data(let entry, let offset, let bytes):
            out.appendUInt32(entry)
            out.appendUInt64(offset)
            out.append(contentsOf: bytes)
        case .fileEnd(let entry, let sha256):
            out.appendUInt32(entry)
            out.append(contentsOf: sha256)
        case .fileVerified(let entry):
            out.appendUInt32(entry)
        case .endBatch(let files, let bytes):
            out.appendUInt32(files)
            out.appendUInt64(bytes)
        case .batchVerified, .close:
            break
        case .abort(let reason, let message):
            out.appendByte(reason.rawValue)
            out.appendShortBytes(Self.utf8Prefix(message, maxBytes: Self.maxAbortMessageBytes))
        }
    }

    /// The longest prefix of `string`'s UTF-8 of at most `maxBytes` that ends on a scalar boundary.
    static func utf8Prefix(_ string: String, maxBytes: Int) -> ArraySlice<UInt8> {
        let bytes = Array(string.utf8)
        var end = min(bytes.count, maxBytes)
        // Back off continuation bytes (10xxxxxx) so that no scalar is cut in two.
        while end < bytes.count, end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return bytes[..<end]
    }

    /// The encoding as a new array.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    /// Size of a data message's header (type, entry, offset) before its bytes.
    public static let dataHeaderBytes = 13

    /// Decodes one message from a frame's plaintext. Throws `TransferError` (malformed
    /// message, unsafe path, invalid entry) and never traps, whatever the bytes.
    public static func decode(_ bytes: ArraySlice<UInt8>) throws -> TransferMessage {
        guard let type = bytes.first else { throw TransferError.malformedMessage("frame", reason: "empty plaintext") }
        var reader = ByteReader(bytes.dropFirst(), message: name(ofType: type))
        let message: TransferMessage
        switch type {
        case 0x01:
            let version = try reader.readByte("version")
            let rawRole = try reader.readByte("role")
            guard let role = PairingRole(rawValue: rawRole) else { throw reader.failure("unknown role \(rawRole)") }
            let maxFrame = try reader.readUInt32("maximum frame size")
            let software = try reader.readShortString("software", limit: maxSoftwareBytes)
            message = .hello(Hello(version: version, role: role, maxFramePlaintext: maxFrame, software: software))
        case 0x02:
            message = .manifest(try decodeManifestPart(&reader))
        case 0x03:
            let count = Int(try reader.readUInt32("entry count"))
            // Each state takes at least one byte: a count beyond the bytes left is a lie.
            guard count <= reader.remaining else { throw reader.failure("\(count) states announced, \(reader.remaining) bytes left") }
            var states: [ResumeState] = []
            states.reserveCapacity(count)
            for _ in 0..<count {
                switch try reader.readByte("state") {
                case 0: states.append(.need)
                case 1: states.append(.have(try reader.readUInt64("verified length"), prefixSHA256: Array(try reader.readBytes(32, "prefix sha256"))))
                case 2: states.append(.present(sha256: Array(try reader.readBytes(32, "sha256"))))
                case let other: throw reader.failure("unknown resume state \(other)")
                }
            }
            message = .resume(states)
        case 0x04:
            let entry = try reader.readUInt32("entry")
            let offset = try reader.readUInt64("offset")
            let data = reader.readRest()
            guard offset.addingReportingOverflow(UInt64(data.count)).overflow == false else { throw reader.failure("offset overflows") }
            message = .data(entry: entry, offset: offset, bytes: data)
        case 0x05:
            message = .fileEnd(entry: try reader.readUInt32("entry"), sha256: Array(try reader.readBytes(32, "sha256")))
        case 0x06:
            message = .fileVerified(entry: try reader.readUInt32("entry"))
        case 0x07:
            message = .endBatch(files: try reader.readUInt32("file count"), bytes: try reader.readUInt64("byte count"))
        case 0x08:
            message = .batchVerified
        case 0x09:
            let reason = AbortReason(rawValue: try reader.readByte("reason"))
            message = .abort(reason, message: try reader.readShortString("explanation", limit: maxAbortMessageBytes))
        case 0x7F:
            message = .close
        default:
            throw TransferError.malformedMessage(name(ofType: type), reason: "unknown message type")
        }
        try reader.expectEnd()
        return message
    }

    private static func decodeManifestPart(_ reader: inout ByteReader) throws -> ManifestPart {
        let batchID = try reader.readShortString("batch id", limit: 64)
        try Manifest.checkBatchID(batchID)
        let entryCount = try reader.readUInt32("entry count")
        let totalBytes = try reader.readUInt64("total bytes")
        let firstIndex = try reader.readUInt32("first index")
        let count = Int(try reader.readUInt32("entries in this part"))
        // An entry takes at least 2 + 1 + 8 bytes.
        guard count <= reader.remaining / 11 else { throw reader.failure("\(count) entries announced, \(reader.remaining) bytes left") }
        guard UInt64(firstIndex) + UInt64(count) <= UInt64(entryCount) else { throw reader.failure("part runs past the entry count") }
        var entries: [ManifestEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let path = try ManifestPath(bytes: try reader.readShortBytes("path", limit: ManifestPath.maxBytes))
            entries.append(ManifestEntry(path: path, size: try reader.readUInt64("size")))
        }
        return ManifestPart(batchID: batchID, entryCount: entryCount, totalBytes: totalBytes, firstIndex: firstIndex, entries: entries)
    }
}
