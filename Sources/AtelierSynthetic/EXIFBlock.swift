/// The EXIF block a phone would write, cut down to what a reconstructor reads: who made the
/// picture, its orientation and size, and the 35 mm equivalent focal length (FocalLengthIn35mmFilm,
/// 0xA405), from which a reconstructor takes its first guess at the focal length in pixels.
///
/// Written as a little-endian TIFF structure (TIFF 6.0 §2) with IFD0 and an Exif sub-IFD
/// (Exif 2.32, CIPA DC-008-2019), in a JPEG APP1 segment after the JFIF header.
public struct EXIFBlock: Sendable, Equatable {
    public var make: String
    public var model: String
    public var software: String
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Whole millimetres, as the tag is a SHORT; 0 means unknown.
    public var focalLength35mm: Int

    public init(make: String = "Atelier", model: String = "synthetic pinhole camera", software: String = "synth-capture",
                pixelWidth: Int, pixelHeight: Int, focalLength35mm: Int) {
        self.make = make
        self.model = model
        self.software = software
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.focalLength35mm = focalLength35mm
    }

    /// TIFF field types used here.
    private enum FieldType: UInt16 {
        case ascii = 2, short = 3, long = 4, rational = 5, undefined = 7
    }

    private struct Entry {
        var tag: UInt16
        var type: FieldType
        var count: Int
        var value: [UInt8]
    }

    /// The TIFF structure: the payload of the APP1 segment after `Exif\0\0`.
    public var tiff: [UInt8] {
        func ascii(_ tag: UInt16, _ text: String) -> Entry {
            let bytes = Array(text.utf8.prefix(255)) + [0]
            return Entry(tag: tag, type: .ascii, count: bytes.count, value: bytes)
        }
        func short(_ tag: UInt16, _ value: Int) -> Entry { Entry(tag: tag, type: .short, count: 1, value: le16(UInt16(clamping: value))) }
        func long(_ tag: UInt16, _ value: Int) -> Entry { Entry(tag: tag, type: .long, count: 1, value: le32(UInt32(clamping: value))) }
        func rational(_ tag: UInt16, _ numerator: UInt32, _ denominator: UInt32) -> Entry {
            Entry(tag: tag, type: .rational, count: 1, value: le32(numerator) + le32(denominator))
        }
        let exif: [Entry] = [
            Entry(tag: 0x9000, type: .undefined, count: 4, value: Array("0232".utf8)),   // ExifVersion
            short(0xA001, 1),                                                          // ColorSpace: sRGB
            long(0xA002, pixelWidth),                                                  // PixelXDimension
            long(0xA003, pixelHeight),                                                 // PixelYDimension
            short(0xA405, focalLength35mm),                                            // FocalLengthIn35mmFilm
        ]
        var ifd0: [Entry] = [
            ascii(0x010F, make), ascii(0x0110, model),
            short(0x0112, 1),                                                          // Orientation: upright
            rational(0x011A, 72, 1), rational(0x011B, 72, 1), short(0x0128, 2),        // 72 dpi
            ascii(0x0131, software),
        ]
        // IFD0 starts after the 8-byte header; the Exif IFD follows IFD0 and its values.
        let ifd0Start = 8
        let exifStart = ifd0Start + Self.directorySize(ifd0.count + 1) + Self.valueBytes(ifd0)
        ifd0.append(long(0x8769, exifStart))                                           // Exif IFD pointer
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(UInt32(ifd0Start))
        Self.appendDirectory(ifd0, at: ifd0Start, to: &out)
        precondition(out.count == exifStart)
        Self.appendDirectory(exif, at: exifStart, to: &out)
        return out
    }

    /// The whole APP1 segment: marker, length, `Exif\0\0`, TIFF structure.
    public var app1Segment: [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A JPEG with this block inserted: after the JFIF APP0 segment when the file starts with
    /// one (keeping it first, as JFIF asks), else right after SOI.
    public func inserted(into jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.count >= 4 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG")
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, jpeg.count >= 6 {
            at = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        return Array(jpeg[..<at]) + app1Segment + Array(jpeg[at...])
    }

    // MARK: Layout

    private static func directorySize(_ entries: Int) -> Int { 2 + 12 * entries + 4 }

    /// Bytes of the values too large to sit in their entries, each padded to an even length.
    private static func valueBytes(_ entries: [Entry]) -> Int {
        entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
    }

    /// Appends an IFD starting at offset `start` (entries sorted by tag, as TIFF requires), with
    /// no next IFD, followed by the values that do not fit in four bytes.
    private static func appendDirectory(_ entries: [Entry], at start: Int, to out: inout [UInt8]) {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var valueOffset = start + directorySize(sorted.count)
        var values: [UInt8] = []
        out += le16(UInt16(sorted.count))
        for entry in sorted {
            out += le16(entry.tag) + le16(entry.type.rawValue) + le32(UInt32(entry.count))
            if entry.value.count <= 4 {
                out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                out += le32(UInt32(valueOffset))
                values += entry.value
                if entry.value.count % 2 == 1 { values.append(0) }
                valueOffset = start + directorySize(sorted.count) + values.count
            }
        }
        out += le32(0)
        out += values
    }
}

private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
private func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }
