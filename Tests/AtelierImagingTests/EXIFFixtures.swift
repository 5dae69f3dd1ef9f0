// Test inputs for the EXIF reader: a tiny valid JPEG, a TIFF/EXIF block builder that can also write
// the damage real files carry, and the JPEG/PNG wrappers that carry such a block.

/// Everything the EXIF tests build their inputs from, in one namespace so that the imaging tests
/// written beside them cannot collide with it.
enum EXIFFixtures {
    /// An 8×8 mid-grey baseline JPEG (libjpeg-turbo's `cjpeg -quality 50 -optimize` of a PGM),
    /// with a JFIF APP0 segment and no EXIF.
    static let tinyJPEG: [UInt8] = [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
        0x00, 0x01, 0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00, 0x10, 0x0B, 0x0C, 0x0E, 0x0C, 0x0A, 0x10,
        0x0E, 0x0D, 0x0E, 0x12, 0x11, 0x10, 0x13, 0x18, 0x28, 0x1A, 0x18, 0x16, 0x16, 0x18, 0x31, 0x23,
        0x25, 0x1D, 0x28, 0x3A, 0x33, 0x3D, 0x3C, 0x39, 0x33, 0x38, 0x37, 0x40, 0x48, 0x5C, 0x4E, 0x40,
        0x44, 0x57, 0x45, 0x37, 0x38, 0x50, 0x6D, 0x51, 0x57, 0x5F, 0x62, 0x67, 0x68, 0x67, 0x3E, 0x4D,
        0x71, 0x79, 0x70, 0x64, 0x78, 0x5C, 0x65, 0x67, 0x63, 0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08,
        0x00, 0x08, 0x01, 0x01, 0x11, 0x00, 0xFF, 0xC4, 0x00, 0x14, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xC4, 0x00, 0x14,
        0x10, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x3F, 0xFF, 0xD9,
    ]

    /// `tinyJPEG` with an APP1 `Exif\0\0` segment carrying `tiff` right after SOI. `declaredLength`
    /// overrides the segment's length field (to write one that lies).
    static func jpeg(exif tiff: [UInt8], declaredLength: Int? = nil) -> [UInt8] {
        let length = declaredLength ?? tiff.count + 8
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
            + Array("Exif".utf8) + [0, 0] + tiff + tinyJPEG.dropFirst(2)
    }

    /// A 2×2 grey PNG, with an `eXIf` chunk holding `exif` before IDAT (or after it, when
    /// `afterIDAT`). CRCs are written correctly so that independent readers accept the file.
    static func png(exif: [UInt8]?, afterIDAT: Bool = false, declaredLength: UInt32? = nil) -> [UInt8] {
        let header = chunk("IHDR", bigEndian32(2) + bigEndian32(2) + [8, 0, 0, 0, 0])
        // Filter byte 0 and two samples per row, stored (uncompressed) in a zlib stream.
        let raw: [UInt8] = [0, 100, 150, 0, 150, 100]
        var zlib: [UInt8] = [0x78, 0x01, 0x01, UInt8(raw.count), 0, ~UInt8(raw.count), 0xFF] + raw
        zlib += bigEndian32(adler32(raw))
        let data = chunk("IDAT", zlib)
        let exifChunk = exif.map { chunk("eXIf", $0, declaredLength: declaredLength) } ?? []
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        return signature + header + (afterIDAT ? data + exifChunk : exifChunk + data) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8], declaredLength: UInt32? = nil) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian32(declaredLength ?? UInt32(data.count)) + typeBytes + data + bigEndian32(crc32(typeBytes + data))
    }

    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }
}

/// Builds a TIFF structure (an EXIF block's payload) with IFD0 and an optional Exif sub-IFD, laid
/// out as header, IFD0, Exif IFD, then the values that do not fit in their entries.
struct TIFFBuilder {
    /// One entry: its tag, type and count, and what goes in (or is pointed at by) its
    /// value/offset field.
    struct Entry {
        enum Payload {
            case bytes([UInt8])
            case shorts([UInt16])
            case longs([UInt32])
            /// The value/offset field written verbatim, so that a test can point anywhere.
            case field(UInt32)
        }
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var payload: Payload

        static func short(_ tag: UInt16, _ values: UInt16...) -> Entry {
            Entry(tag: tag, type: 3, count: UInt32(values.count), payload: .shorts(values))
        }
        static func long(_ tag: UInt16, _ value: UInt32) -> Entry {
            Entry(tag: tag, type: 4, count: 1, payload: .longs([value]))
        }
        static func rational(_ tag: UInt16, _ numerator: UInt32, _ denominator: UInt32, signed: Bool = false) -> Entry {
            Entry(tag: tag, type: signed ? 10 : 5, count: 1, payload: .longs([numerator, denominator]))
        }
        static func ascii(_ tag: UInt16, _ text: String) -> Entry {
            ascii(tag, bytes: Array(text.utf8) + [0])
        }
        static func ascii(_ tag: UInt16, bytes: [UInt8]) -> Entry {
            Entry(tag: tag, type: 2, count: UInt32(bytes.count), payload: .bytes(bytes))
        }
        /// An entry whose type, count and value/offset field are written as given.
        static func raw(_ tag: UInt16, type: UInt16, count: UInt32, field: UInt32) -> Entry {
            Entry(tag: tag, type: type, count: count, payload: .field(field))
        }
    }

    var bigEndian = true
    var ifd0: [Entry] = []
    /// nil: no Exif IFD and no pointer to it.
    var exif: [Entry]? = nil
    /// Overrides the Exif IFD pointer (0x8769) in IFD0.
    var exifPointer: UInt32? = nil
    /// Overrides the IFD0 offset in the header.
    var ifd0Offset: UInt32? = nil
    /// Overrides IFD0's entry count.
    var ifd0DeclaredCount: UInt16? = nil
    /// IFD0's next-IFD offset.
    var nextIFD: UInt32 = 0

    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] { bigEndian ? u16(UInt16(v >> 16)) + u16(UInt16(v & 0xFFFF)) : u16(UInt16(v & 0xFFFF)) + u16(UInt16(v >> 16)) }

    func encoded(_ payload: Entry.Payload) -> [UInt8] {
        switch payload {
        case .bytes(let bytes): return bytes
        case .shorts(let values): return values.flatMap(u16)
        case .longs(let values): return values.flatMap(u32)
        case .field(let value): return u32(value)
        }
    }

    func build() -> [UInt8] {
        let hasPointer = exif != nil || exifPointer != nil
        let exifEntries = exif ?? []
        let ifd0At = 8
        let exifAt = ifd0At + 2 + 12 * (ifd0.count + (hasPointer ? 1 : 0)) + 4
        let ifd0Entries = ifd0 + (hasPointer ? [.raw(0x8769, type: 4, count: 1, field: exifPointer ?? UInt32(exifAt))] : [])
        var dataAt = exifAt + (exif == nil ? 0 : 2 + 12 * exifEntries.count + 4)
        var data: [UInt8] = []

        func directory(_ entries: [Entry], next: UInt32, declaredCount: UInt16?) -> [UInt8] {
            var out = u16(declaredCount ?? UInt16(entries.count))
            for entry in entries {
                out += u16(entry.tag) + u16(entry.type) + u32(entry.count)
                if case .field(let field) = entry.payload {
                    out += u32(field)
                } else {
                    let value = encoded(entry.payload)
                    if value.count <= 4 {
                        out += value + [UInt8](repeating: 0, count: 4 - value.count)
                    } else {
                        out += u32(UInt32(dataAt))
                        data += value
                        dataAt += value.count
                        if value.count % 2 == 1 { data.append(0); dataAt += 1 }
                    }
                }
            }
            return out + u32(next)
        }

        var out = (bigEndian ? Array("MM".utf8) + u16(42) : Array("II".utf8) + u16(42)) + u32(ifd0Offset ?? UInt32(ifd0At))
        out += directory(ifd0Entries, next: nextIFD, declaredCount: ifd0DeclaredCount)
        if exif != nil { out += directory(exifEntries, next: 0, declaredCount: nil) }
        return out + data
    }
}
