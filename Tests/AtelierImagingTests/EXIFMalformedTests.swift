import AtelierRecords
import XCTest
@testable import AtelierImaging

/// The EXIF reader on hand-built blocks, well-formed and damaged: it must never trap, never hang,
/// and return what it can read safely.
final class EXIFMalformedTests: XCTestCase {
    typealias Entry = TIFFBuilder.Entry

    /// A block with every field, big- or little-endian.
    static func complete(bigEndian: Bool = true) -> TIFFBuilder {
        var builder = TIFFBuilder(bigEndian: bigEndian)
        builder.ifd0 = [.ascii(0x010F, "Maker"), .ascii(0x0110, "Model 7"), .short(0x0112, 3), .ascii(0x0132, "2020:01:01 00:00:00")]
        builder.exif = [.rational(0x829A, 1, 250), .rational(0x829D, 28, 10), .short(0x8827, 400),
                        .ascii(0x9003, "2026:11:21 10:15:00"), .ascii(0x9011, "+01:00"), .rational(0x920A, 61, 10),
                        .short(0xA002, 4000), .long(0xA003, 3000), .short(0xA405, 35), .ascii(0xA434, "Lens 6.1mm")]
        return builder
    }

    static let completeMetadata = EXIFMetadata(
        orientation: 3, dateTimeOriginal: "2026-11-21T10:15:00+01:00", make: "Maker", model: "Model 7", lensModel: "Lens 6.1mm",
        focalLengthMillimetres: 6.1, focalLength35mmMillimetres: 35, exposureTimeSeconds: 0.004, fNumber: 2.8, isoSpeed: 400,
        pixelWidth: 4000, pixelHeight: 3000)

    func testReadsBothByteOrdersAndAllContainers() {
        for bigEndian in [true, false] {
            let tiff = Self.complete(bigEndian: bigEndian).build()
            XCTAssertEqual(EXIF.read(EXIFFixtures.jpeg(exif: tiff)), Self.completeMetadata, "JPEG, bigEndian \(bigEndian)")
            XCTAssertEqual(EXIF.read(EXIFFixtures.png(exif: tiff)), Self.completeMetadata, "PNG, bigEndian \(bigEndian)")
            XCTAssertEqual(EXIF.read(tiff), Self.completeMetadata, "bare TIFF, bigEndian \(bigEndian)")
        }
    }

    func testNoEXIFGivesNil() {
        XCTAssertNil(EXIF.read([UInt8]()))
        XCTAssertNil(EXIF.read(EXIFFixtures.tinyJPEG))
        XCTAssertNil(EXIF.read(EXIFFixtures.png(exif: nil)))
        XCTAssertNil(EXIF.read([0xFF, 0xD8]))
        XCTAssertNil(EXIF.read(Array("not an image at all".utf8)))
        // An APP1 that is XMP, not EXIF.
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        XCTAssertNil(EXIF.read([0xFF, 0xD8, 0xFF, 0xE1, 0, UInt8(xmp.count + 2)] + xmp + EXIFFixtures.tinyJPEG.dropFirst(2)))
        // An EXIF block with a valid header and nothing usable.
        XCTAssertNil(EXIF.read(EXIFFixtures.jpeg(exif: TIFFBuilder().build())))
    }

    func testEXIFAfterStartOfScanIsNotLookedFor() {
        let tiff = Self.complete().build()
        let app1 = [0xFF, 0xE1, UInt8((tiff.count + 8) >> 8), UInt8((tiff.count + 8) & 0xFF)] + Array("Exif\0\0".utf8) + tiff
        // SOI, then the image up to its end, then an APP1 after EOI: never reached.
        XCTAssertNil(EXIF.read(EXIFFixtures.tinyJPEG + app1))
    }

    func testTruncatedAtEveryLengthReadsASubsetAndNeverTraps() {
        for bigEndian in [true, false] {
            for full in [EXIFFixtures.jpeg(exif: Self.complete(bigEndian: bigEndian).build()),
                         EXIFFixtures.png(exif: Self.complete(bigEndian: bigEndian).build())] {
                for length in 0 ... full.count {
                    guard let partial = EXIF.read(Array(full.prefix(length))) else { continue }
                    Self.assertSubset(partial, of: Self.completeMetadata, "cut at \(length)")
                }
                XCTAssertEqual(EXIF.read(full), Self.completeMetadata)
            }
        }
    }

    func testAPP1ShorterThanItsContentsReadsWhatItHolds() {
        let tiff = Self.complete().build()
        // The segment claims only the first 40 bytes of the TIFF structure: IFD0's entry values
        // beyond that lie outside the segment and must not be read from the bytes that follow.
        let metadata = EXIF.read(EXIFFixtures.jpeg(exif: tiff, declaredLength: 8 + 40))
        XCTAssertNil(metadata?.make)
        if let metadata { Self.assertSubset(metadata, of: Self.completeMetadata, "short APP1") }
        // A segment length below 2 is invalid.
        XCTAssertNil(EXIF.read(EXIFFixtures.jpeg(exif: tiff, declaredLength: 1)))
    }

    func testOffsetsPastTheEndAreIgnored() {
        var builder = Self.complete()
        builder.ifd0 = [
            .raw(0x010F, type: 2, count: 10, field: 0xFFFF_FFF0),          // Make, past the end
            .raw(0x0110, type: 2, count: 0xFFFF_FFFF, field: 8),            // Model, count past the end
            .raw(0x0132, type: 5, count: 0x2000_0000, field: 0xFFFF_FFFF),  // size and offset overflow 32 bits
            .raw(0x0112, type: 3, count: 0xFFFF_FFFF, field: 0x0006_0006),  // Orientation, absurd count
            .short(0x0112, 6),                                              // a repeat: the first wins
        ]
        let metadata = EXIF.read(EXIFFixtures.jpeg(exif: builder.build()))
        XCTAssertNil(metadata?.make)
        XCTAssertNil(metadata?.model)
        XCTAssertNil(metadata?.orientation)
        XCTAssertEqual(metadata?.lensModel, "Lens 6.1mm")

        builder.exifPointer = 0xFFFF_FFF0
        XCTAssertEqual(EXIF.read(EXIFFixtures.jpeg(exif: builder.build())), nil, "IFD0 holds nothing usable and the Exif IFD is unreachable")

        var header = Self.complete()
        header.ifd0Offset = 0xFFFF_FFFF
        XCTAssertNil(EXIF.read(EXIFFixtures.jpeg(exif: header.build())))
        header.ifd0Offset = 7                                                // one byte short of IFD0: garbage, not a trap
        _ = EXIF.read(EXIFFixtures.jpeg(exif: header.build()))
    }

    func testIFDLoopsAreCut() {
        // The Exif pointer points back at IFD0.
        var toIFD0 = Self.complete()
        toIFD0.exifPointer = 8
        toIFD0.nextIFD = 8
        let metadata = EXIF.read(EXIFFixtures.jpeg(exif: toIFD0.build()))
        XCTAssertEqual(metadata?.make, "Maker")
        XCTAssertEqual(metadata?.orientation, 3)
        XCTAssertNil(metadata?.isoSpeed)
        XCTAssertEqual(metadata?.dateTimeOriginal, "2020-01-01T00:00:00", "falls back to DateTime, the only date in IFD0")

        // The Exif IFD holds a pointer to itself: read once, not followed.
        var toItself = Self.complete()
        toItself.exif = Self.complete().exif! + [.raw(0x8769, type: 4, count: 1, field: UInt32(8 + 2 + 12 * 5 + 4))]
        XCTAssertEqual(EXIF.read(EXIFFixtures.jpeg(exif: toItself.build()))?.isoSpeed, 400)
    }

    func testHugeEntryCountsAreCut() {
        // IFD0 claims 65,535 entries; only its real ones and whatever follows are there to read.
        var builder = Self.complete()
        builder.ifd0DeclaredCount = 0xFFFF
        let metadata = EXIF.read(EXIFFixtures.jpeg(exif: builder.build()))
        XCTAssertEqual(metadata?.make, "Maker")
        XCTAssertEqual(metadata?.orientation, 3)

        // 600 real entries: those past the cap of 512 are not read.
        var many = TIFFBuilder()
        many.ifd0 = (0 ..< 599).map { .short(0x1000 + UInt16($0), 1) } + [.short(0x0112, 5)]
        XCTAssertNil(EXIF.read(many.build()))
        many.ifd0 = [.short(0x0112, 5)] + (0 ..< 599).map { .short(0x1000 + UInt16($0), 1) }
        XCTAssertEqual(EXIF.read(many.build())?.orientation, 5)
    }

    func testZeroDenominatorsAndNonPositiveValuesAreIgnored() {
        var builder = TIFFBuilder(bigEndian: false)
        builder.ifd0 = [.ascii(0x010F, "M")]
        builder.exif = [.rational(0x829A, 1, 0), .rational(0x829D, 0, 0), .rational(0x920A, 0, 1),
                        .rational(0xA20E, 1000, 0), .short(0xA002, 3000), .short(0xA003, 2000), .short(0xA405, 0),
                        .rational(0x8827, 1, 1, signed: true)]
        let metadata = EXIF.read(builder.build())
        XCTAssertEqual(metadata, EXIFMetadata(make: "M", pixelWidth: 3000, pixelHeight: 2000))

        builder.exif = [.rational(0x829D, UInt32(bitPattern: -28), 10, signed: true), .rational(0x920A, 28, 1, signed: true)]
        XCTAssertEqual(EXIF.read(builder.build()), EXIFMetadata(make: "M", focalLengthMillimetres: 28))
    }

    func testOutOfRangeValuesAreIgnored() {
        for orientation: UInt16 in [0, 9, 255, 0xFFFF] {
            var builder = TIFFBuilder()
            builder.ifd0 = [.short(0x0112, orientation), .ascii(0x010F, "M")]
            XCTAssertNil(EXIF.read(builder.build())?.orientation, "orientation \(orientation)")
        }
        let dates: [(String, String?)] = [
            ("0000:00:00 00:00:00", nil), ("    :  :     :  :  ", nil), ("", nil), ("2026:11:21", nil),
            ("2026:02:29 10:00:00", nil), ("2024:02:29 10:00:00", "2024-02-29T10:00:00"), ("2026:13:01 10:00:00", nil),
            ("2026:11:21 24:00:00", nil), ("2026-11-21T10:15:00", "2026-11-21T10:15:00"),
            ("2026:11:21 10:15:00.123", "2026-11-21T10:15:00"), ("2026:11:21 10:15:0x", nil), ("2026:11-21 10:15:00", nil),
        ]
        for (text, expected) in dates {
            var builder = TIFFBuilder()
            builder.ifd0 = [.ascii(0x010F, "M")]
            builder.exif = [.ascii(0x9003, text), .ascii(0x9011, "+01:00")]
            XCTAssertEqual(EXIF.read(builder.build())?.dateTimeOriginal, expected.map { $0 + "+01:00" }, "date \(text)")
        }
        let offsets: [(String, String)] = [("   :  ", ""), ("+1:00", ""), ("+01:60", ""), ("Z", ""), ("-12:00", "-12:00"), ("+14:00", "+14:00")]
        for (text, expected) in offsets {
            var builder = TIFFBuilder()
            builder.exif = [.ascii(0x9003, "2026:11:21 10:15:00"), .ascii(0x9011, text)]
            XCTAssertEqual(EXIF.read(builder.build())?.dateTimeOriginal, "2026-11-21T10:15:00" + expected, "offset \(text)")
        }
    }

    func testStringsAreTrimmedCutAtNULAndCapped() {
        var builder = TIFFBuilder()
        builder.ifd0 = [.ascii(0x010F, bytes: Array("  Maker \t".utf8) + [0, 0, 0]), .ascii(0x0110, bytes: Array("Model".utf8) + [0] + Array("junk".utf8)),
                        .ascii(0x0112 - 1, "unrelated")]
        builder.exif = [.ascii(0xA434, String(repeating: "L", count: 10_000)), .ascii(0x9003, bytes: [0, 0, 0, 0])]
        let metadata = EXIF.read(builder.build())
        XCTAssertEqual(metadata?.make, "Maker")
        XCTAssertEqual(metadata?.model, "Model")
        XCTAssertEqual(metadata?.lensModel, String(repeating: "L", count: EXIF.Limits.stringBytes))
        XCTAssertNil(metadata?.dateTimeOriginal)
        // Invalid UTF-8 is repaired, not refused.
        builder.ifd0 = [.ascii(0x010F, bytes: [0x4D, 0xFF, 0xFE, 0x4E, 0])]
        XCTAssertEqual(EXIF.read(builder.build())?.make, "M\u{FFFD}\u{FFFD}N")
    }

    func testPNGEXIfChunk() {
        let tiff = Self.complete(bigEndian: false).build()
        XCTAssertEqual(EXIF.read(EXIFFixtures.png(exif: tiff)), Self.completeMetadata)
        XCTAssertEqual(EXIF.read(EXIFFixtures.png(exif: Array("Exif\0\0".utf8) + tiff)), Self.completeMetadata, "APP1 prefix kept by some writers")
        XCTAssertNil(EXIF.read(EXIFFixtures.png(exif: tiff, afterIDAT: true)), "eXIf after IDAT is not looked for")
        // A chunk length past the end of the file, or beyond the format's 2^31 - 1.
        let long = EXIFFixtures.png(exif: tiff, declaredLength: UInt32(tiff.count + 1000))
        XCTAssertEqual(EXIF.read(long), Self.completeMetadata, "the bytes that are there are read")
        XCTAssertNil(EXIF.read(EXIFFixtures.png(exif: tiff, declaredLength: 0xFFFF_FFF0)))
        XCTAssertNil(EXIF.read(EXIFFixtures.png(exif: [0x49, 0x49, 0x2A])))
    }

    /// Byte flips, interesting values, cuts and insertions on valid files: the reader must never
    /// trap (in debug builds every out-of-bounds read would) and what it returns must be in range.
    func testRandomMutationsNeverTrap() {
        var random = SplitMix64(seed: 0xE71F)
        let seeds = [true, false].flatMap { bigEndian -> [[UInt8]] in
            let tiff = Self.complete(bigEndian: bigEndian).build()
            return [EXIFFixtures.jpeg(exif: tiff), EXIFFixtures.png(exif: tiff), tiff]
        }
        let interesting: [UInt8] = [0x00, 0x01, 0x02, 0x05, 0x07, 0x0C, 0x7F, 0x80, 0xFE, 0xFF]
        var found = 0
        for iteration in 0 ..< 30_000 {
            var bytes = seeds[random.below(seeds.count)]
            for _ in 0 ... random.below(4) {
                guard !bytes.isEmpty else { break }
                let at = random.below(bytes.count)
                switch random.below(5) {
                case 0: bytes[at] ^= UInt8(1 << random.below(8))
                case 1: bytes[at] = interesting[random.below(interesting.count)]
                case 2: bytes.removeSubrange(at...)
                case 3: bytes.insert(contentsOf: [UInt8](repeating: 0xFF, count: 1 + random.below(8)), at: at)
                default: for i in at ..< min(bytes.count, at + 4) { bytes[i] = 0xFF }
                }
            }
            guard let metadata = EXIF.read(bytes) else { continue }
            found += 1
            XCTAssertFalse(metadata.isEmpty)
            if let orientation = metadata.orientation { XCTAssertTrue((1 ... 8).contains(orientation), "iteration \(iteration)") }
            for value in [metadata.focalLengthMillimetres, metadata.focalLength35mmMillimetres, metadata.exposureTimeSeconds, metadata.fNumber] {
                if let value { XCTAssertTrue(value > 0 && value.isFinite, "iteration \(iteration)") }
            }
            for text in [metadata.make, metadata.model, metadata.lensModel] {
                if let text { XCTAssertTrue(!text.isEmpty && text.utf8.count <= 3 * EXIF.Limits.stringBytes, "iteration \(iteration)") }
            }
        }
        XCTAssertGreaterThan(found, 10_000, "most mutations leave something readable")
    }

    /// Every field `partial` has equals the one in `full`.
    static func assertSubset(_ partial: EXIFMetadata, of full: EXIFMetadata, _ message: String, file: StaticString = #filePath, line: UInt = #line) {
        let fields: [(String, AnyHashable?, AnyHashable?)] = [
            ("orientation", partial.orientation, full.orientation), ("make", partial.make, full.make),
            ("model", partial.model, full.model), ("lensModel", partial.lensModel, full.lensModel),
            ("focalLength", partial.focalLengthMillimetres, full.focalLengthMillimetres),
            ("focalLength35mm", partial.focalLength35mmMillimetres, full.focalLength35mmMillimetres),
            ("exposure", partial.exposureTimeSeconds, full.exposureTimeSeconds), ("fNumber", partial.fNumber, full.fNumber),
            ("iso", partial.isoSpeed, full.isoSpeed), ("width", partial.pixelWidth, full.pixelWidth),
            ("height", partial.pixelHeight, full.pixelHeight),
        ]
        for (name, part, whole) in fields where part != nil {
            XCTAssertEqual(part, whole, "\(message): \(name)", file: file, line: line)
        }
        // A cut can lose DateTimeOriginal and fall back to DateTime, or lose only the offset.
        if let date = partial.dateTimeOriginal {
            XCTAssertTrue(["2026-11-21T10:15:00+01:00", "2026-11-21T10:15:00", "2020-01-01T00:00:00"].contains(date), "\(message): date \(date)")
        }
    }
}
