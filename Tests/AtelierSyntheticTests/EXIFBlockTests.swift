import AtelierImaging
import AtelierSynthetic
import XCTest

/// The EXIF we write is the EXIF Atelier's own reader (and so atl-reconstruct) reads.
final class EXIFBlockTests: XCTestCase {
    func jpeg() throws -> [UInt8] {
        try JPEG.encode(Image(width: 64, height: 48, channels: 3, value: 90), quality: 90)
    }

    func testOurReaderReadsBackWhatWeWrite() throws {
        let block = EXIFBlock(pixelWidth: 64, pixelHeight: 48, focalLength35mm: 35)
        let bytes = block.inserted(into: try jpeg())
        let exif = try XCTUnwrap(EXIF.read(bytes))
        XCTAssertEqual(exif.focalLength35mmMillimetres, 35)
        XCTAssertEqual(exif.pixelWidth, 64)
        XCTAssertEqual(exif.pixelHeight, 48)
        XCTAssertEqual(exif.orientation, 1)
        XCTAssertEqual(exif.make, "Atelier")
        XCTAssertEqual(exif.model, "synthetic pinhole camera")
        XCTAssertNil(exif.dateTimeOriginal, "no invented capture time")
        // The picture itself is untouched and still decodes, with the EXIF seen by the decoder.
        let decoded = try bytes.withUnsafeBytes { try ImageDecoder.decode($0) }
        XCTAssertEqual(decoded.image.width, 64)
        XCTAssertEqual(decoded.exif?.focalLength35mmMillimetres, 35)
    }

    func testTheBlockFollowsTheJFIFHeader() throws {
        let original = try jpeg()
        let bytes = EXIFBlock(pixelWidth: 64, pixelHeight: 48, focalLength35mm: 28).inserted(into: original)
        XCTAssertEqual(Array(bytes[0 ..< 4]), [0xFF, 0xD8, 0xFF, 0xE0])
        let app1 = 4 + (Int(bytes[4]) << 8 | Int(bytes[5]))
        XCTAssertEqual(Array(bytes[app1 ..< app1 + 2]), [0xFF, 0xE1])
        XCTAssertEqual(Array(bytes[app1 + 4 ..< app1 + 10]), Array("Exif".utf8) + [0, 0])
        let length = Int(bytes[app1 + 2]) << 8 | Int(bytes[app1 + 3])
        XCTAssertEqual(Array(bytes[(app1 + 2 + length)...]), Array(original[app1...]), "everything after the new segment is the original file")
    }

    func testLongStringsAndOddLengthsKeepTheDirectoryAligned() throws {
        let block = EXIFBlock(make: "Make with an odd length", model: String(repeating: "m", count: 300), software: "s",
                              pixelWidth: 4000, pixelHeight: 3000, focalLength35mm: 26)
        let exif = try XCTUnwrap(EXIF.read(block.inserted(into: try jpeg())))
        XCTAssertEqual(exif.make, "Make with an odd length")
        XCTAssertEqual(exif.focalLength35mmMillimetres, 26)
        XCTAssertEqual(exif.pixelWidth, 4000)
        XCTAssertEqual(exif.pixelHeight, 3000)
    }
}
