/// One entry of an IFD: which tag, its TIFF type and count, and where its value lies.
struct TIFFEntry: Equatable {
    let tag: UInt16
    let type: UInt16
    let count: Int
    /// The value's first byte in the TIFF structure, or nil when the type is unknown, the count is
    /// zero, or the value does not fit inside the structure.
    let valueOffset: Int?
}

/// A bounds-checked reader of a TIFF structure (the payload of an EXIF block): offsets are relative
/// to its first byte, and every read returns nil rather than leave the buffer.
///
/// TIFF 6.0 (Adobe, 1992) §2 for the layout; Exif 2.32 (CIPA DC-008-2019) §4.6 for the tags.
struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    let bigEndian: Bool

    /// Reads the header: `II*\0` (little-endian) or `MM\0*` (big-endian).
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        self.bytes = bytes
        guard u16(at: 2) == 42 else { return nil }
    }

    /// The offset of IFD0, from the header.
    var firstIFDOffset: Int? { u32(at: 4).map(Int.init) }

    /// `offset ..< offset + length` when it lies inside the structure; overflow-safe.
    func range(_ offset: Int, _ length: Int) -> Range<Int>? {
        guard offset >= 0, length >= 0, offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return offset ..< offset + length
    }

    func u16(at offset: Int) -> UInt16? {
        guard range(offset, 2) != nil else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(at offset: Int) -> UInt32? {
        guard let high = u16(at: bigEndian ? offset : offset + 2), let low = u16(at: bigEndian ? offset + 2 : offset) else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }

    /// Size in bytes of one value of a TIFF type, or nil for a type this reader does not know.
    static func size(ofType type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: return 1     // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: return 2           // SHORT, SSHORT
        case 4, 9, 11, 13: return 4   // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: return 8      // RATIONAL, SRATIONAL, DOUBLE
        default: return nil
        }
    }

    /// The entries of the IFD at `offset`, keyed by tag (the first of a repeated tag wins), or nil
    /// when not even its entry count lies inside the structure. An IFD cut short yields the entries
    /// that are whole; a count beyond `EXIF.Limits.entriesPerIFD` is cut there.
    func directory(at offset: Int) -> [UInt16: TIFFEntry]? {
        guard let declared = u16(at: offset) else { return nil }
        let first = offset + 2
        let whole = (bytes.count - first) / 12
        let count = min(Int(declared), whole, EXIF.Limits.entriesPerIFD)
        var entries: [UInt16: TIFFEntry] = [:]
        entries.reserveCapacity(count)
        for index in 0 ..< count {
            let at = first + index * 12
            guard let tag = u16(at: at), let type = u16(at: at + 2), let count = u32(at: at + 4) else { break }
            if entries[tag] != nil { continue }
            entries[tag] = TIFFEntry(tag: tag, type: type, count: Int(count), valueOffset: valueOffset(type: type, count: Int(count), entryAt: at))
        }
        return entries
    }

    /// Where the value of an entry lies: inside the entry when it fits in four bytes, else at the
    /// offset the entry holds, provided the whole value lies inside the structure.
    private func valueOffset(type: UInt16, count: Int, entryAt: Int) -> Int? {
        guard count > 0, let size = Self.size(ofType: type) else { return nil }
        let (total, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow else { return nil }
        if total <= 4 { return entryAt + 8 }
        guard let offset = u32(at: entryAt + 8), range(Int(offset), total) != nil else { return nil }
        return Int(offset)
    }

    // MARK: Values

    /// The first value of an integer entry (BYTE, SHORT, LONG, their signed forms, IFD).
    func integer(_ entry: TIFFEntry?) -> Int? {
        guard let entry, let at = entry.valueOffset else { return nil }
        switch entry.type {
        case 1, 7: return Int(bytes[at])
        case 6: return Int(Int8(bitPattern: bytes[at]))
        case 3: return u16(at: at).map { Int($0) }
        case 8: return u16(at: at).map { Int(Int16(bitPattern: $0)) }
        case 4, 13: return u32(at: at).map { Int($0) }
        case 9: return u32(at: at).map { Int(Int32(bitPattern: $0)) }
        default: return nil
        }
    }

    /// The first value of a RATIONAL or SRATIONAL entry (an integer entry is taken as is, and a
    /// FLOAT or DOUBLE too, which some writers such as Pillow use), or nil when its denominator
    /// is zero or it is not a finite number.
    func rational(_ entry: TIFFEntry?) -> Double? {
        guard let entry, let at = entry.valueOffset else { return nil }
        switch entry.type {
        case 5, 10:
            guard let numerator = u32(at: at), let denominator = u32(at: at + 4), denominator != 0 else { return nil }
            if entry.type == 5 { return Double(numerator) / Double(denominator) }
            return Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
        case 11:
            guard let bits = u32(at: at) else { return nil }
            let value = Double(Float(bitPattern: bits))
            return value.isFinite ? value : nil
        case 12:
            guard let high = u32(at: bigEndian ? at : at + 4), let low = u32(at: bigEndian ? at + 4 : at) else { return nil }
            let value = Double(bitPattern: UInt64(high) << 32 | UInt64(low))
            return value.isFinite ? value : nil
        default:
            return integer(entry).map(Double.init)
        }
    }

    /// An ASCII entry (UNDEFINED and BYTE accepted too) as text: cut at the first NUL (C-string
    /// semantics, as exiftool reads it) and at `EXIF.Limits.stringBytes`, invalid UTF-8 repaired,
    /// surrounding white space trimmed; nil when nothing is left.
    func string(_ entry: TIFFEntry?) -> String? {
        guard let entry, let at = entry.valueOffset, entry.type == 1 || entry.type == 2 || entry.type == 7 else { return nil }
        let available = UnsafeRawBufferPointer(rebasing: bytes[at ..< at + min(entry.count, EXIF.Limits.stringBytes)])
        let text = available.prefix { $0 != 0 }
        let trimmed = Self.trimmingWhiteSpace(String(decoding: text, as: UTF8.self))
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `text` without leading and trailing white space (Foundation-free).
    private static func trimmingWhiteSpace(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first ... last])
    }
}
