import AtelierRecords
import CJPEG
import Foundation
import XCTest
@testable import AtelierImaging

/// The eighth-scale decoder (`atl_jpeg_eighth.c`) against libjpeg-turbo itself: the same bytes for
/// every file it takes, the files it should leave to libjpeg left, and on damaged files and on
/// hand-written streams of one-bit zero-run codes running past a block the same outcome (the same
/// pixels, or both refusing).
final class JPEGEighthScaleTests: XCTestCase {
    struct Fixture: Decodable {
        var name: String
        var eighth: Bool
        /// Only the outcome is libjpeg's to match, whichever decoder gives it (hostile streams).
        var outcomeOnly: Bool?
    }

    /// Made once for the class, named by the process so the class can remove it when it is done.
    static let fixtureDirectory = PythonFixtures.directory("eighth")

    override class func tearDown() {
        try? FileManager.default.removeItem(atPath: fixtureDirectory)
        super.tearDown()
    }

    static let fixtures: (dir: String, files: [Fixture]) = (fixtureDirectory, PythonFixtures.make("eighth_fixtures.py", into: fixtureDirectory, quiet: true))

    /// Decodes at 1/8 with the eighth-scale decoder on or off; also says whether it did the work.
    static func decode(_ bytes: [UInt8], channels: Int, eighth: Bool) -> (result: Result<Image, ImagingError>, usedEighth: Bool) {
        let previous = atl_jpeg_use_eighth(eighth ? 1 : 0)
        defer { _ = atl_jpeg_use_eighth(previous) }
        let before = atl_jpeg_eighth_decodes()
        let result = bytes.withUnsafeBytes { raw in Result { () throws(ImagingError) in try JPEG.decode(raw, channels: channels, scaleDenominator: 8) } }
        return (result, atl_jpeg_eighth_decodes() > before)
    }

    func testTheFilesItTakesGiveLibjpegsBytes() throws {
        let (dir, files) = Self.fixtures
        XCTAssertGreaterThan(files.count, 300)
        // Written by hand with a one-bit zero-run code: a legal file and four with runs past a block.
        XCTAssertEqual(files.filter { $0.name.hasPrefix("zrl-") }.count, 5)
        var taken = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(file.name).jpg")))
            for channels in [1, 3] {
                let (ours, used) = Self.decode(bytes, channels: channels, eighth: true)
                let (libjpeg, _) = Self.decode(bytes, channels: channels, eighth: false)
                if file.outcomeOnly != true { XCTAssertEqual(used, file.eighth, "\(file.name): taken by the eighth-scale decoder") }
                taken += used ? 1 : 0
                if file.outcomeOnly == true, case .failure = ours, case .failure = libjpeg { continue }
                guard case .success(let a) = ours, case .success(let b) = libjpeg else {
                    XCTFail("\(file.name): \(ours), \(libjpeg)")
                    continue
                }
                XCTAssertEqual(a.width, b.width, file.name)
                XCTAssertEqual(a.height, b.height, file.name)
                XCTAssert(a.pixels == b.pixels, "\(file.name), \(channels) channels: pixels differ from libjpeg's")
            }
        }
        XCTAssertGreaterThan(taken, 500)
    }

    /// libjpeg-turbo's vector 2x2 inverse DCT (chroma at 1/8) multiplies in 16 bits, so a term
    /// past that range gives other pixels than the arithmetic the decoder copies: such a file is
    /// left to libjpeg. Here every chroma quantiser of a quality-100 file is raised to 200.
    func testLargeChromaTermsAreLeftToLibjpeg() throws {
        let (dir, _) = Self.fixtures
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/203x151-RGB-q100-s2-plain.jpg")))
        var at = 2, raised = 0
        while at + 4 < bytes.count, bytes[at] == 0xFF, bytes[at + 1] != 0xDA {
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if bytes[at + 1] == 0xDB {
                var table = at + 4
                while table < at + 2 + length {
                    let id = bytes[table] & 15
                    if id == 1 { for i in 1 ... 64 { bytes[table + i] = 200 }; raised += 1 }
                    table += 65
                }
            }
            at += 2 + length
        }
        XCTAssertEqual(raised, 1, "the chroma table is found")
        for channels in [1, 3] {
            let (ours, used) = Self.decode(bytes, channels: channels, eighth: true)
            let (libjpeg, _) = Self.decode(bytes, channels: channels, eighth: false)
            guard case .success(let a) = ours, case .success(let b) = libjpeg else { return XCTFail("\(ours), \(libjpeg)") }
            XCTAssert(a.pixels == b.pixels, "\(channels) channels: pixels differ from libjpeg's")
            // Grey output reads no chroma term, so the file is the decoder's; colour is libjpeg's.
            XCTAssertEqual(used, channels == 1)
        }
    }

    /// Damaged files (bits flipped, bytes replaced, markers planted, the end cut off) in the
    /// tables and the entropy-coded data: the decoder either gives libjpeg's pixels or leaves the
    /// file to libjpeg, so the outcome is libjpeg's either way.
    func testDamagedFilesGiveWhatLibjpegGives() throws {
        let (dir, files) = Self.fixtures
        let chosen = files.filter { $0.eighth && ($0.name.hasPrefix("17x33") || $0.name.hasPrefix("203x151")) && $0.name.contains("q90") }
        XCTAssertGreaterThan(chosen.count, 10)
        var random = SplitMix64(seed: 29)
        var accepted = 0, refused = 0
        for round in 0 ..< 3_000 {
            let file = chosen[Int(random.next() % UInt64(chosen.count))]
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(dir)/\(file.name).jpg")))
            for _ in 0 ... random.next() % 3 {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[at] ^= 1 << UInt8(random.next() % 8)
                case 1: bytes[at] = UInt8(truncatingIfNeeded: random.next())
                case 2: bytes[at] = 0xFF
                default: bytes.removeLast(min(bytes.count - 4, Int(random.next() % 8) + 1))
                }
            }
            let channels = round % 2 == 0 ? 3 : 1
            let (ours, used) = Self.decode(bytes, channels: channels, eighth: true)
            let (libjpeg, _) = Self.decode(bytes, channels: channels, eighth: false)
            switch (ours, libjpeg) {
            case (.success(let a), .success(let b)):
                XCTAssert(a.width == b.width && a.height == b.height && a.pixels == b.pixels, "round \(round), \(file.name): pixels differ")
                if used { accepted += 1 }
            case (.failure, .failure):
                refused += 1
            default:
                XCTFail("round \(round), \(file.name): \(ours) against libjpeg's \(libjpeg)")
            }
        }
        // Not vacuous: many damaged files still decode through it, and many are refused.
        XCTAssertGreaterThan(accepted, 300)
        XCTAssertGreaterThan(refused, 300)
    }
}
