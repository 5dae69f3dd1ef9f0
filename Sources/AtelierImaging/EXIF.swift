/// What Atelier reads from a photo's EXIF block: how to turn it upright, when it was taken, and
/// with which camera and settings.
///
/// Every field is optional: a field is nil when its tag is absent, of an unusable type, out of
/// range, or lies outside the bytes that were given.
public struct EXIFMetadata: Sendable, Equatable {
    /// How the stored pixels must be turned to display upright (0x0112), 1–8; other values are
    /// ignored. `Image.oriented(_:)` applies it.
    public var orientation: Int?
    /// When the photo was taken, as ISO 8601 local time (`2026-11-21T10:15:00`), followed by the
    /// UTC offset when the file records one (`2026-11-21T10:15:00+01:00`). From DateTimeOriginal
    /// (0x9003) and OffsetTimeOriginal (0x9011), or else DateTime (0x0132) and OffsetTime (0x9010).
    public var dateTimeOriginal: String?
    /// Camera maker (0x010F), model (0x0110) and lens (0xA434), trimmed.
    public var make: String?
    public var model: String?
    public var lensModel: String?
    /// The lens's actual focal length (0x920A).
    public var focalLengthMillimetres: Double?
    /// The focal length a 36 × 24 mm frame would need for the same field of view: the camera's own
    /// FocalLengthIn35mmFilm (0xA405), or else derived from the sensor size that the focal-plane
    /// resolution implies, `f × 43.27 / √(w² + h²)` with the sensor `w = PixelXDimension /
    /// FocalPlaneXResolution` by `h = PixelYDimension / FocalPlaneYResolution` in millimetres
    /// (0xA002, 0xA20E, 0xA003, 0xA20F, in the unit of 0xA210; exiftool's rules, detailed at
    /// `EXIF.focalLength35mm`). Nil when neither is possible.
    public var focalLength35mmMillimetres: Double?
    /// Exposure time (0x829A), f-number (0x829D) and ISO speed (0x8827, or 0x8833/0x8832 when
    /// 0x8827 is missing or saturated at 65535).
    public var exposureTimeSeconds: Double?
    public var fNumber: Double?
    public var isoSpeed: Int?
    /// The stored image's size as the camera recorded it (PixelXDimension 0xA002, PixelYDimension
    /// 0xA003), before any orientation is applied.
    public var pixelWidth: Int?
    public var pixelHeight: Int?

    public init(orientation: Int? = nil, dateTimeOriginal: String? = nil, make: String? = nil, model: String? = nil,
                lensModel: String? = nil, focalLengthMillimetres: Double? = nil, focalLength35mmMillimetres: Double? = nil,
                exposureTimeSeconds: Double? = nil, fNumber: Double? = nil, isoSpeed: Int? = nil,
                pixelWidth: Int? = nil, pixelHeight: Int? = nil) {
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.make = make
        self.model = model
        self.lensModel = lensModel
        self.focalLengthMillimetres = focalLengthMillimetres
        self.focalLength35mmMillimetres = focalLength35mmMillimetres
        self.exposureTimeSeconds = exposureTimeSeconds
        self.fNumber = fNumber
        self.isoSpeed = isoSpeed
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// True when no field could be read.
    public var isEmpty: Bool { self == EXIFMetadata() }

    /// The width as displayed: `pixelHeight` when the orientation turns the image a quarter turn
    /// (5–8), `pixelWidth` otherwise.
    public var displayPixelWidth: Int? { EXIF.swapsAxes(orientation: orientation ?? 1) ? pixelHeight : pixelWidth }

    /// The height as displayed (see `displayPixelWidth`).
    public var displayPixelHeight: Int? { EXIF.swapsAxes(orientation: orientation ?? 1) ? pixelWidth : pixelHeight }
}

/// A defensive EXIF reader for JPEG (APP1 `Exif\0\0`), PNG (`eXIf`) and bare TIFF/EXIF blobs.
///
/// EXIF is written by every camera, phone and editor, often carelessly, and a damaged block must
/// never make a photo unreadable: the reader never traps, never allocates in proportion to a
/// declared size, and returns whatever it could read safely. Every offset and count is
/// bounds-checked with overflow-safe arithmetic; it reads IFD0 and the Exif sub-IFD only (no
/// recursion, no IFD chains, each IFD at most once, at most `Limits.entriesPerIFD` entries each);
/// strings are cut at `Limits.stringBytes`; rationals with a zero denominator are ignored. The
/// cost is linear in the number of JPEG segments or PNG chunks before the image data.
public enum EXIF {
    /// The reader's bounds, chosen well above what real files use.
    enum Limits {
        /// Entries read from one IFD (cameras write 10–80; the format allows 65,535).
        static let entriesPerIFD = 512
        /// IFDs read in total: IFD0 and the Exif sub-IFD.
        static let ifds = 2
        /// Bytes kept of a string value.
        static let stringBytes = 256
    }

    /// The EXIF metadata of a JPEG, PNG or TIFF/EXIF blob given whole, or nil when it has none
    /// (or none of it could be read).
    public static func read(_ bytes: UnsafeRawBufferPointer) -> EXIFMetadata? {
        guard let payload = tiffPayload(in: bytes) else { return nil }
        return read(tiff: UnsafeRawBufferPointer(rebasing: bytes[payload]))
    }

    /// The EXIF metadata of a whole file's bytes (see `read(_: UnsafeRawBufferPointer)`).
    public static func read(_ bytes: [UInt8]) -> EXIFMetadata? {
        bytes.withUnsafeBytes { read($0) }
    }

    /// Whether an orientation turns the image a quarter turn, so that width and height swap (5–8).
    public static func swapsAxes(orientation: Int) -> Bool { (5...8).contains(orientation) }

    /// The TIFF structure (the EXIF payload proper) inside a JPEG, a PNG or a bare TIFF blob.
    static func tiffPayload(in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 { return jpegPayload(in: bytes) }
        if bytes.count >= 8, pngSignature.indices.allSatisfy({ bytes[$0] == pngSignature[$0] }) { return pngPayload(in: bytes) }
        if TIFFReader(UnsafeRawBufferPointer(rebasing: bytes[...])) != nil { return 0 ..< bytes.count }
        return nil
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Walks a JPEG's marker segments from SOI to SOS, returning the TIFF part of the first APP1
    /// segment that starts `Exif\0`. A segment whose declared length runs past the end of the file
    /// is read as far as the file goes (so a cut-short file still yields its leading tags).
    static func jpegPayload(in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        let end = bytes.count
        var position = 2
        while position < end {
            guard bytes[position] == 0xFF else { return nil }           // lost sync: not a marker
            // Any number of 0xFF fill bytes may precede a marker.
            var markerAt = position + 1
            while markerAt < end, bytes[markerAt] == 0xFF { markerAt += 1 }
            guard markerAt < end else { return nil }
            let marker = bytes[markerAt]
            switch marker {
            case 0xDA, 0xD9, 0x00: return nil                             // SOS, EOI: no EXIF before the data
            case 0x01, 0xD0 ... 0xD7: position = markerAt + 1; continue   // standalone markers
            default: break
            }
            guard markerAt + 2 < end else { return nil }
            let length = Int(bytes[markerAt + 1]) << 8 | Int(bytes[markerAt + 2])
            guard length >= 2 else { return nil }
            let dataStart = markerAt + 3
            let dataEnd = min(end, markerAt + 1 + length)                 // length < 2^16: no overflow
            if marker == 0xE1, dataEnd - dataStart >= 6,
               bytes[dataStart] == 0x45, bytes[dataStart + 1] == 0x78, bytes[dataStart + 2] == 0x69,
               bytes[dataStart + 3] == 0x66, bytes[dataStart + 4] == 0 {
                // "Exif\0" and a pad byte (0 by the standard; some writers put 0xFF).
                return dataStart + 6 ..< dataEnd
            }
            position = markerAt + 1 + length
        }
        return nil
    }

    /// Walks a PNG's chunks up to IDAT, returning the data of its `eXIf` chunk. The CRC is not
    /// checked: a damaged eXIf chunk is parsed as defensively as any other EXIF block. An `eXIf`
    /// after IDAT is ignored, as the PNG specification (1.5 extensions) requires.
    static func pngPayload(in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        let end = bytes.count
        var position = 8
        while end - position >= 8 {
            let length = Int(bytes[position]) << 24 | Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length <= Int(Int32.max) else { return nil }             // the format's own limit
            let type = (bytes[position + 4], bytes[position + 5], bytes[position + 6], bytes[position + 7])
            let dataStart = position + 8
            if type == (0x49, 0x44, 0x41, 0x54) || type == (0x49, 0x45, 0x4E, 0x44) { return nil }   // IDAT, IEND
            if type == (0x65, 0x58, 0x49, 0x66) {                                                    // eXIf
                var start = dataStart
                let stop = min(end, dataStart + length)
                // Some writers keep the JPEG APP1 prefix.
                if stop - start >= 6, bytes[start] == 0x45, bytes[start + 1] == 0x78, bytes[start + 2] == 0x69,
                   bytes[start + 3] == 0x66, bytes[start + 4] == 0, bytes[start + 5] == 0 {
                    start += 6
                }
                return start ..< stop
            }
            position = dataStart + length + 4                              // data and CRC; length < 2^31: no overflow
        }
        return nil
    }
}
