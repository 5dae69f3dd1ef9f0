/// A DNS message (RFC 1035 §4.1) as multicast DNS uses it: a header, questions and three
/// sections of resource records.
///
/// `init(bytes:)` decodes any bytes without trapping (see DNSMessage+Decoding.swift);
/// `encoded()` writes the message with name compression.
public struct DNSMessage: Sendable, Hashable {
    /// The query identifier; 0 in multicast DNS, echoed in legacy unicast replies.
    public var id: UInt16
    /// The header's second 16 bits: QR, opcode, AA, TC, RD, RA, Z, AD, CD, RCODE.
    public var flags: UInt16
    public var questions: [DNSQuestion]
    public var answers: [DNSResourceRecord]
    public var authorities: [DNSResourceRecord]
    public var additionals: [DNSResourceRecord]

    /// The most questions plus records the decoder accepts in one message. A 9,000-byte mDNS
    /// packet (RFC 6762 §17) holds at most ~820 minimal records; this leaves room and bounds
    /// the work any packet can cause.
    public static let maximumRecordCount = 1024

    /// Flags of a multicast DNS response: QR and AA set (RFC 6762 §18).
    public static let responseFlags: UInt16 = 0x8400

    /// A message from its parts.
    public init(id: UInt16 = 0, flags: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSResourceRecord] = [],
                authorities: [DNSResourceRecord] = [], additionals: [DNSResourceRecord] = []) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// Whether this is a response (QR bit) rather than a query.
    public var isResponse: Bool { flags & 0x8000 != 0 }
    /// The operation code; multicast DNS only uses 0 (standard query).
    public var opcode: UInt8 { UInt8((flags >> 11) & 0xF) }
    /// Whether the sender says more known answers follow in another packet (TC bit).
    public var isTruncated: Bool { flags & 0x0200 != 0 }
    /// The response code; mDNS ignores messages whose code is not 0.
    public var responseCode: UInt8 { UInt8(flags & 0xF) }

    /// Every record of the three record sections, in order.
    public var records: [DNSResourceRecord] { answers + authorities + additionals }

    /// The message on the wire, names compressed (RFC 1035 §4.1.4). SRV targets are written
    /// in full, as RFC 2782 asks, for the sake of non-mDNS parsers.
    public func encoded() -> [UInt8] {
        var writer = DNSWriter()
        writer.u16(id)
        writer.u16(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            writer.u16(UInt16(clamping: count))
        }
        for question in questions.prefix(0xFFFF) {
            writer.name(question.name)
            writer.u16(question.type.rawValue)
            writer.u16(question.recordClass & 0x7FFF | (question.unicastResponse ? 0x8000 : 0))
        }
        for record in [answers, authorities, additionals].flatMap({ $0.prefix(0xFFFF) }) {
            writer.record(record)
        }
        return writer.bytes
    }
}

/// Writes DNS wire format, remembering where each name suffix was written to point back at it.
struct DNSWriter {
    var bytes: [UInt8] = []
    private var suffixOffsets: [DNSName: Int] = [:]

    init() {
        bytes.reserveCapacity(512)
    }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func u32(_ value: UInt32) {
        u16(UInt16(value >> 16))
        u16(UInt16(value & 0xFFFF))
    }

    /// A name, ending in a pointer to an earlier copy of its longest already-written suffix.
    mutating func name(_ name: DNSName, compress: Bool = true) {
        for index in name.labels.indices {
            let suffix = DNSName(validated: Array(name.labels[index...]))
            if compress, let offset = suffixOffsets[suffix] {
                u16(0xC000 | UInt16(offset))
                return
            }
            if bytes.count < 0x4000, suffixOffsets[suffix] == nil { suffixOffsets[suffix] = bytes.count }
            bytes.append(UInt8(name.labels[index].count))
            bytes.append(contentsOf: name.labels[index])
        }
        bytes.append(0)
    }

    mutating func record(_ record: DNSResourceRecord) {
        name(record.name)
        u16(record.type.rawValue)
        u16(record.recordClass & 0x7FFF | (record.cacheFlush ? 0x8000 : 0))
        u32(record.ttlSeconds)
        let lengthAt = bytes.count
        u16(0)
        switch record.data {
        case .a(let address), .aaaa(let address):
            bytes.append(contentsOf: address)
        case .ptr(let target):
            name(target)
        case .srv(let priority, let weight, let port, let target):
            u16(priority)
            u16(weight)
            u16(port)
            name(target, compress: false)
        case .txt(let strings):
            for string in strings {
                let cut = string.prefix(255)
                bytes.append(UInt8(cut.count))
                bytes.append(contentsOf: cut)
            }
        case .opaque(_, let data):
            bytes.append(contentsOf: data.prefix(0xFFFF))
        }
        let length = UInt16(clamping: bytes.count - lengthAt - 2)
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(length & 0xFF)
    }
}
