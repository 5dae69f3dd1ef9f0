extension DNSMessage {
    /// Decodes a DNS message from its bytes, refusing anything malformed with a typed error and
    /// never trapping, whatever the bytes (a fuzz harness checks this: fuzz/DNSMessageFuzz.swift).
    ///
    /// Compression pointers must point strictly before the start of the name fragment they
    /// continue, and never into the header, so that every name is read in time linear in its
    /// length; names are limited to 255 bytes and labels to 63; the header's counts are checked
    /// against the bytes present and `maximumRecordCount` before anything is allocated. Bytes
    /// after the last record are ignored, as other mDNS stacks do.
    public init(bytes: some Collection<UInt8>) throws(TransferError) {
        var reader = DNSReader(bytes: Array(bytes))
        let id = try reader.u16()
        let flags = try reader.u16()
        let questionCount = Int(try reader.u16())
        let recordCounts = [Int(try reader.u16()), Int(try reader.u16()), Int(try reader.u16())]
        let total = questionCount + recordCounts.reduce(0, +)
        // A question takes at least 5 bytes (root name, type, class), a record at least 11.
        let smallest = questionCount * 5 + recordCounts.reduce(0, +) * 11
        guard total <= Self.maximumRecordCount, smallest <= reader.remaining else { throw .tooManyRecords(count: total) }

        var questions: [DNSQuestion] = []
        questions.reserveCapacity(questionCount)
        for _ in 0..<questionCount {
            let name = try reader.name()
            let type = try reader.u16()
            let rawClass = try reader.u16()
            questions.append(DNSQuestion(name: name, type: DNSRecordType(rawValue: type), recordClass: rawClass & 0x7FFF, unicastResponse: rawClass & 0x8000 != 0))
        }
        var sections: [[DNSResourceRecord]] = []
        for count in recordCounts {
            var records: [DNSResourceRecord] = []
            records.reserveCapacity(count)
            for _ in 0..<count { records.append(try reader.record()) }
            sections.append(records)
        }
        self.init(id: id, flags: flags, questions: questions, answers: sections[0], authorities: sections[1], additionals: sections[2])
    }
}

/// A cursor over a whole DNS message (names may point anywhere before them in it).
struct DNSReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    /// The first byte a compression pointer may target: the header is 12 bytes.
    static let headerLength = 12
    /// Labels plus pointers one name may have: 127 one-byte labels fill 255 bytes, and every
    /// pointer moves strictly backwards, so this is never reached by a valid message.
    static let maximumNameSteps = 512

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    private func need(_ count: Int, at position: Int) throws(TransferError) {
        if position + count > bytes.count { throw .truncated(offset: position, needed: position + count - bytes.count) }
    }

    mutating func u8() throws(TransferError) -> UInt8 {
        try need(1, at: offset)
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() throws(TransferError) -> UInt16 {
        try need(2, at: offset)
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func u32() throws(TransferError) -> UInt32 {
        UInt32(try u16()) << 16 | UInt32(try u16())
    }

    mutating func take(_ count: Int) throws(TransferError) -> [UInt8] {
        try need(count, at: offset)
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// A possibly compressed name starting at the cursor; the cursor moves past it (past the
    /// first pointer, if any).
    mutating func name() throws(TransferError) -> DNSName {
        let start = offset
        var labels: [[UInt8]] = []
        var position = offset
        var fragmentStart = offset
        var resumeAt: Int? = nil
        var wireLength = 1
        for _ in 0..<Self.maximumNameSteps {
            try need(1, at: position)
            let length = bytes[position]
            switch length & 0xC0 {
            case 0x00:
                if length == 0 {
                    offset = resumeAt ?? position + 1
                    return DNSName(validated: labels)
                }
                wireLength += 1 + Int(length)
                if wireLength > DNSName.maximumWireLength { throw .nameTooLong(offset: start) }
                try need(1 + Int(length), at: position)
                labels.append(Array(bytes[(position + 1)...(position + Int(length))]))
                position += 1 + Int(length)
            case 0xC0:
                try need(2, at: position)
                let target = Int(length & 0x3F) << 8 | Int(bytes[position + 1])
                guard target >= Self.headerLength, target < bytes.count else { throw .pointerOutOfRange(offset: position, target: target) }
                guard target < fragmentStart else { throw .compressionLoop(offset: position) }
                if resumeAt == nil { resumeAt = position + 2 }
                fragmentStart = target
                position = target
            default:
                throw .reservedLabelType(offset: position, byte: length)
            }
        }
        throw .compressionLoop(offset: start)
    }

    /// A resource record at the cursor, its data decoded for A, AAAA, PTR, SRV and TXT.
    mutating func record() throws(TransferError) -> DNSResourceRecord {
        let owner = try name()
        let type = DNSRecordType(rawValue: try u16())
        let rawClass = try u16()
        let ttl = try u32()
        let length = Int(try u16())
        let dataStart = offset
        try need(length, at: dataStart)
        let dataEnd = dataStart + length
        let data: DNSRecordData
        switch type {
        case .a where length == 4:
            data = .a(try take(4))
        case .aaaa where length == 16:
            data = .aaaa(try take(16))
        case .a, .aaaa:
            throw .badRecordData(type: type.rawValue, offset: dataStart)
        case .ptr:
            data = .ptr(try name())
        case .srv:
            guard length >= 7 else { throw .badRecordData(type: type.rawValue, offset: dataStart) }
            data = .srv(priority: try u16(), weight: try u16(), port: try u16(), target: try name())
        case .txt:
            var strings: [[UInt8]] = []
            while offset < dataEnd {
                let count = Int(try u8())
                guard offset + count <= dataEnd else { throw .badRecordData(type: type.rawValue, offset: offset - 1) }
                strings.append(try take(count))
            }
            data = .txt(strings)
        default:
            data = .opaque(type: type, bytes: try take(length))
        }
        guard offset == dataEnd else { throw .badRecordData(type: type.rawValue, offset: dataStart) }
        return DNSResourceRecord(name: owner, ttlSeconds: ttl, cacheFlush: rawClass & 0x8000 != 0, recordClass: rawClass & 0x7FFF, data: data)
    }
}
