import Foundation
import XCTest
@testable import AtelierImaging

/// The decoders against Pillow's decode of the same files (an independent reader with its own
/// libjpeg and PNG code), and the encoders through a round trip.
final class CodecTests: XCTestCase {
    struct Case: Decodable {
        var name: String
        var file: String
        var width: Int
        var height: Int
        var scale: Int
    }

    /// Made once for the class, named by the process so the class can remove it when it is done.
    static let fixtureDirectory = PythonFixtures.directory("pillow")

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: fixtureDirectory)
        super.tearDown()
    }

    static let fixtures: (dir: String, cases: [Case]) = (fixtureDirectory, PythonFixtures.make("pillow_fixtures.py", into: fixtureDirectory))

    func testDecodesMatchPillowWithinLibjpegTolerance() throws {
        let (dir, cases) = Self.fixtures
        XCTAssertGreaterThanOrEqual(cases.count, 15)
        for item in cases {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + item.file))
            let reference = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + item.name + ".rgb"))
            let image: Image = try bytes.withUnsafeBytes { raw in
                item.file.hasSuffix(".png") ? try PNG.decode(raw) : try JPEG.decode(raw, scaleDenominator: item.scale)
            }
            XCTAssertEqual(image.width, item.width, item.name)
            XCTAssertEqual(image.height, item.height, item.name)
            guard image.pixels.count == reference.count else { XCTFail("\(item.name): size"); continue }
            var worst = 0, total = 0
            for (a, b) in zip(image.pixels, reference) {
                let d = abs(Int(a) - Int(b))
                worst = max(worst, d)
                total += d
            }
            let mean = Double(total) / Double(reference.count)
            // PNG is lossless: exact. JPEG decoders may differ by rounding in the IDCT and the
            // colour conversion; Pillow's bundled libjpeg-turbo is a different build.
            // Compositing alpha over white may round differently from Pillow's alpha_composite.
            let (maxAllowed, meanAllowed) = item.file.hasSuffix(".png") ? (item.name == "png-rgba8" ? 1 : 0, 0.5) : (item.name == "cmyk" ? 3 : 2, 0.5)
            XCTAssertLessThanOrEqual(worst, maxAllowed, "\(item.name): worst difference")
            XCTAssertLessThanOrEqual(mean, meanAllowed, "\(item.name): mean difference")
        }
    }

    func testEncodersRoundTrip() throws {
        let (dir, _) = Self.fixtures
        let original = try Data(contentsOf: URL(fileURLWithPath: dir + "/png-rgb8.png")).withUnsafeBytes { try PNG.decode($0) }
        let png = try PNG.encode(original)
        XCTAssertEqual(try png.withUnsafeBytes { try PNG.decode($0) }, original, "PNG is lossless")
        var previous = 0
        for quality in [95, 75, 40] {
            let jpeg = try JPEG.encode(original, quality: quality)
            let back = try jpeg.withUnsafeBytes { try JPEG.decode($0) }
            XCTAssertEqual(back.width, original.width)
            let error = zip(back.pixels, original.pixels).map { abs(Int($0) - Int($1)) }.reduce(0, +)
            XCTAssertGreaterThan(error, previous, "lower quality, larger error")
            previous = error
            XCTAssertEqual(try jpeg.withUnsafeBytes { try JPEG.header($0) }, JPEG.Header(width: 197, height: 131, components: 3, progressive: false))
        }
        let grey = try JPEG.encode(original.grey())
        XCTAssertEqual(try grey.withUnsafeBytes { try JPEG.header($0) }.components, 1)
    }

    func testDamagedAndHostileInputsFailCleanly() throws {
        let (dir, _) = Self.fixtures
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: dir + "/baseline.jpg"))
        let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/png-rgb8.png"))
        func jpegError(_ bytes: Data) -> ImagingError? {
            do { _ = try bytes.withUnsafeBytes { try JPEG.decode($0) }; return nil } catch { return error as? ImagingError }
        }
        func pngError(_ bytes: Data) -> ImagingError? {
            do { _ = try bytes.withUnsafeBytes { try PNG.decode($0) }; return nil } catch { return error as? ImagingError }
        }
        XCTAssertEqual(jpegError(Data()), .unsupportedFormat("empty file"))
        XCTAssertEqual(jpegError(Data("hello, not a photo".utf8)), .unsupportedFormat("no JPEG signature"))
        for cut in [10, 200, jpeg.count / 2, jpeg.count - 2] {
            guard case .corrupt? = jpegError(jpeg.prefix(cut)) else { return XCTFail("a JPEG cut at \(cut) bytes must be an error") }
        }
        for cut in [9, 40, png.count / 2, png.count - 20] {
            guard case .corrupt? = pngError(png.prefix(cut)) else { return XCTFail("a PNG cut at \(cut) bytes must be an error") }
        }
        var flipped = png
        flipped[png.count / 2] ^= 0xFF
        guard case .corrupt? = pngError(flipped) else { return XCTFail("a PNG with a damaged IDAT (CRC) must be an error") }
        // Declared dimensions beyond the limit are refused from the header, before allocation.
        var huge = jpeg
        if let sof = (2 ..< jpeg.count - 8).first(where: { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }) {
            // 60,000 × 60,000: 3.6 gigapixels from a 20 kB file.
            huge[sof + 5] = 0xEA; huge[sof + 6] = 0x60; huge[sof + 7] = 0xEA; huge[sof + 8] = 0x60
        }
        XCTAssertEqual(jpegError(huge), .tooLarge(width: 60000, height: 60000, limit: Image.defaultMaxPixels))
        var hugePNG = png
        hugePNG.replaceSubrange(16 ..< 24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])
        let crc = Self.crc32(hugePNG[12 ..< 29])  // the IHDR chunk's type and data, with a valid CRC
        hugePNG.replaceSubrange(29 ..< 33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        XCTAssertEqual(pngError(hugePNG), .tooLarge(width: 60000, height: 60000, limit: Image.defaultMaxPixels))
    }

    /// A progressive scan covers the whole image in a few bytes and may be repeated, so a 60 kB
    /// JPEG of 3,300 scans over 100 megapixels kept libjpeg busy for a minute (libjpeg-turbo's
    /// LJT-01-003; found fuzzing the decoders). Past 500 scans a file is refused.
    func testJPEGOfThousandsOfScansIsRefusedInsteadOfDecodingForMinutes() throws {
        // 8×8 grey, progressive, arithmetic-coded: a DC scan, then AC scans (1–63), none with data.
        let head: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
            + [0xFF, 0xCA, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
            + [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00]
        let acScan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x3F, 0x00]
        func jpeg(scans: Int) -> [UInt8] { head + Array(repeating: acScan, count: scans - 1).joined() + [0xFF, 0xD9] }

        let atLimit = try jpeg(scans: 500).withUnsafeBytes { try ImageDecoder.decode($0, channels: 1) }
        XCTAssertEqual(atLimit.image, Image(width: 8, height: 8, channels: 1, value: 128))
        for scans in [501, 3000] {
            let bytes = jpeg(scans: scans)
            XCTAssertThrowsError(try bytes.withUnsafeBytes { try ImageDecoder.decode($0, minimumSide: 1) }, "\(scans) scans") {
                XCTAssertEqual($0 as? ImagingError, .corrupt("more than 500 scans"))
            }
            XCTAssertEqual(try bytes.withUnsafeBytes { try JPEG.header($0) }, JPEG.Header(width: 8, height: 8, components: 1, progressive: true))
        }
    }

    func testDCTScaleIsTheSmallestThatKeepsTheSideAsked() {
        let header = JPEG.Header(width: 4000, height: 3000, components: 3, progressive: false)
        XCTAssertEqual(JPEG.scaleDenominator(for: header, minimumSide: 256), 8)
        XCTAssertEqual(JPEG.scaleDenominator(for: header, minimumSide: 500), 4)
        XCTAssertEqual(JPEG.scaleDenominator(for: header, minimumSide: 3000), 1)
    }

    static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
