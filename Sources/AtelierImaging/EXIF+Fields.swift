extension EXIF {
    /// The tags Atelier reads (Exif 2.32, CIPA DC-008-2019, §4.6.4–4.6.5).
    enum Tag {
        static let make: UInt16 = 0x010F
        static let model: UInt16 = 0x0110
        static let orientation: UInt16 = 0x0112
        static let dateTime: UInt16 = 0x0132
        static let exifIFD: UInt16 = 0x8769
        static let exposureTime: UInt16 = 0x829A
        static let fNumber: UInt16 = 0x829D
        static let photographicSensitivity: UInt16 = 0x8827
        static let recommendedExposureIndex: UInt16 = 0x8832
        static let isoSpeed: UInt16 = 0x8833
        static let dateTimeOriginal: UInt16 = 0x9003
        static let offsetTime: UInt16 = 0x9010
        static let offsetTimeOriginal: UInt16 = 0x9011
        static let focalLength: UInt16 = 0x920A
        static let pixelXDimension: UInt16 = 0xA002
        static let pixelYDimension: UInt16 = 0xA003
        static let focalPlaneXResolution: UInt16 = 0xA20E
        static let focalPlaneYResolution: UInt16 = 0xA20F
        static let focalPlaneResolutionUnit: UInt16 = 0xA210
        static let focalLengthIn35mmFilm: UInt16 = 0xA405
        static let lensModel: UInt16 = 0xA434
    }

    /// IFDs read so far: each at most once (an Exif pointer back to IFD0 is a loop), and no more
    /// than `Limits.ifds` in all.
    struct IFDWalk {
        let tiff: TIFFReader
        private(set) var visited: Set<Int> = []

        init(_ tiff: TIFFReader) { self.tiff = tiff }

        mutating func directory(at offset: Int?) -> [UInt16: TIFFEntry]? {
            guard let offset, visited.count < Limits.ifds, visited.insert(offset).inserted else { return nil }
            return tiff.directory(at: offset)
        }
    }

    /// The metadata in a TIFF structure (the payload of an EXIF block), or nil when it has no
    /// valid header or no field could be read.
    static func read(tiff bytes: UnsafeRawBufferPointer) -> EXIFMetadata? {
        guard let tiff = TIFFReader(bytes) else { return nil }
        var walk = IFDWalk(tiff)
        guard let ifd0 = walk.directory(at: tiff.firstIFDOffset) else { return nil }
        let exif = walk.directory(at: tiff.integer(ifd0[Tag.exifIFD])) ?? [:]
        // A tag is looked for in the IFD the standard puts it in, then in the other one, since
        // some writers misplace tags.
        func ifd0Tag(_ tag: UInt16) -> TIFFEntry? { ifd0[tag] ?? exif[tag] }
        func exifTag(_ tag: UInt16) -> TIFFEntry? { exif[tag] ?? ifd0[tag] }
        func positive(_ value: Double?) -> Double? { value.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }
        func positive(_ value: Int?) -> Int? { value.flatMap { $0 > 0 ? $0 : nil } }

        var metadata = EXIFMetadata()
        metadata.orientation = tiff.integer(ifd0Tag(Tag.orientation)).flatMap { (1 ... 8).contains($0) ? $0 : nil }
        metadata.dateTimeOriginal =
            isoDateTime(tiff.string(exifTag(Tag.dateTimeOriginal)), offset: tiff.string(exifTag(Tag.offsetTimeOriginal)))
            ?? isoDateTime(tiff.string(ifd0Tag(Tag.dateTime)), offset: tiff.string(exifTag(Tag.offsetTime)))
        metadata.make = tiff.string(ifd0Tag(Tag.make))
        metadata.model = tiff.string(ifd0Tag(Tag.model))
        metadata.lensModel = tiff.string(exifTag(Tag.lensModel))
        metadata.focalLengthMillimetres = positive(tiff.rational(exifTag(Tag.focalLength)))
        metadata.exposureTimeSeconds = positive(tiff.rational(exifTag(Tag.exposureTime)))
        metadata.fNumber = positive(tiff.rational(exifTag(Tag.fNumber)))
        metadata.pixelWidth = positive(tiff.integer(exifTag(Tag.pixelXDimension)))
        metadata.pixelHeight = positive(tiff.integer(exifTag(Tag.pixelYDimension)))

        // PhotographicSensitivity is a SHORT: 65535 means "65535 or more", and the exact value, if
        // any, is in ISOSpeed or RecommendedExposureIndex (Exif 2.3 §4.6.5).
        let sensitivity = positive(tiff.integer(exifTag(Tag.photographicSensitivity)))
        if let sensitivity, sensitivity < 65535 {
            metadata.isoSpeed = sensitivity
        } else {
            metadata.isoSpeed = positive(tiff.integer(exifTag(Tag.isoSpeed)))
                ?? positive(tiff.integer(exifTag(Tag.recommendedExposureIndex))) ?? sensitivity
        }

        // FocalLengthIn35mmFilm 0 means "unknown".
        if let recorded = positive(tiff.integer(exifTag(Tag.focalLengthIn35mmFilm))) {
            metadata.focalLength35mmMillimetres = Double(recorded)
        } else {
            metadata.focalLength35mmMillimetres = focalLength35mm(
                focalLengthMillimetres: metadata.focalLengthMillimetres,
                pixelWidth: metadata.pixelWidth, pixelHeight: metadata.pixelHeight,
                focalPlaneXResolution: positive(tiff.rational(exifTag(Tag.focalPlaneXResolution))),
                focalPlaneYResolution: positive(tiff.rational(exifTag(Tag.focalPlaneYResolution))),
                focalPlaneResolutionUnit: tiff.integer(exifTag(Tag.focalPlaneResolutionUnit)))
        }
        return metadata.isEmpty ? nil : metadata
    }

    /// The 35 mm equivalent focal length from the sensor size that the focal-plane resolution
    /// implies, for cameras that do not record FocalLengthIn35mmFilm:
    ///
    ///     sensor width  (mm) = PixelXDimension / FocalPlaneXResolution × mm per unit
    ///     sensor height (mm) = PixelYDimension / FocalPlaneYResolution × mm per unit
    ///     f35 = f × √(36² + 24²) / √(width² + height²)
    ///
    /// that is, the focal length scaled by the ratio of the diagonals of a 36 × 24 mm frame
    /// (43.27 mm) and of the sensor. FocalPlaneResolutionUnit gives the unit: 3 centimetre, 4
    /// millimetre, 5 micrometre, anything else the inch (the Exif default, and what cameras that
    /// write 1, "no unit", mean). A missing Y resolution is taken equal to X. A sensor diagonal
    /// outside 1–100 mm is nonsense and gives nil. These are exiftool's rules (its
    /// ScaleFactor35efl), so the two agree. The pixel dimensions must be those of the image the
    /// camera recorded: a later resize that left the tags unchanged makes the result wrong, which
    /// is why a recorded FocalLengthIn35mmFilm always wins.
    static func focalLength35mm(focalLengthMillimetres focal: Double?, pixelWidth: Int?, pixelHeight: Int?,
                                focalPlaneXResolution xResolution: Double?, focalPlaneYResolution yResolution: Double?,
                                focalPlaneResolutionUnit unit: Int?) -> Double? {
        guard let focal, let pixelWidth, let pixelHeight, let xResolution, pixelWidth > 0, pixelHeight > 0,
              xResolution > 0 else { return nil }
        let yResolution = yResolution.flatMap { $0 > 0 ? $0 : nil } ?? xResolution
        let millimetresPerUnit: Double
        switch unit {
        case 3: millimetresPerUnit = 10
        case 4: millimetresPerUnit = 1
        case 5: millimetresPerUnit = 0.001
        default: millimetresPerUnit = 25.4
        }
        let sensorWidth = Double(pixelWidth) * millimetresPerUnit / xResolution
        let sensorHeight = Double(pixelHeight) * millimetresPerUnit / yResolution
        let diagonal = (sensorWidth * sensorWidth + sensorHeight * sensorHeight).squareRoot()
        guard diagonal > 1, diagonal < 100 else { return nil }
        return focal * (36.0 * 36.0 + 24.0 * 24.0).squareRoot() / diagonal
    }

    /// `2026:11:21 10:15:00` as `2026-11-21T10:15:00`, with `offset` (`+01:00`) appended when it
    /// is a valid UTC offset. Nil for anything that is not a valid date and time, including the
    /// blank (`    :  :     :  :  `) and zero (`0000:00:00 00:00:00`) values cameras write when
    /// their clock is unset. `-` and `/` are accepted as date separators and `T` between date and
    /// time; characters after the seconds (sub-seconds, a zone some writers append) are ignored.
    static func isoDateTime(_ text: String?, offset: String?) -> String? {
        guard let text else { return nil }
        let c = Array(text.utf8.prefix(19))
        guard c.count == 19 else { return nil }
        func number(_ from: Int, _ length: Int) -> Int? {
            var value = 0
            for i in from ..< from + length {
                guard (0x30 ... 0x39).contains(c[i]) else { return nil }
                value = value * 10 + Int(c[i] - 0x30)
            }
            return value
        }
        let dateSeparators: [UInt8] = [0x3A, 0x2D, 0x2F]   // : - /
        guard dateSeparators.contains(c[4]), c[7] == c[4], c[10] == 0x20 || c[10] == 0x54, c[13] == 0x3A, c[16] == 0x3A,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              year >= 1, (1 ... 12).contains(month), (1 ... daysIn(month: month, year: year)).contains(day),
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        func digits(_ range: Range<Int>) -> String { String(decoding: c[range], as: UTF8.self) }
        let local = "\(digits(0 ..< 4))-\(digits(5 ..< 7))-\(digits(8 ..< 10))T\(digits(11 ..< 13)):\(digits(14 ..< 16)):\(digits(17 ..< 19))"
        return local + (offset.flatMap(utcOffset) ?? "")
    }

    /// `+01:00` or `-05:30` as written, or nil for anything else (blank `   :  ` included).
    static func utcOffset(_ text: String) -> String? {
        let c = Array(text.utf8)
        guard c.count == 6, c[0] == 0x2B || c[0] == 0x2D, c[3] == 0x3A,
              [1, 2, 4, 5].allSatisfy({ (0x30 ... 0x39).contains(c[$0]) }) else { return nil }
        let hours = Int(c[1] - 0x30) * 10 + Int(c[2] - 0x30), minutes = Int(c[4] - 0x30) * 10 + Int(c[5] - 0x30)
        guard hours <= 18, minutes <= 59 else { return nil }
        return text
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
