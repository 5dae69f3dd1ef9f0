import Foundation
import XCTest
@testable import AtelierImaging

/// `Image.resized` against Pillow's resampler on the same samples: the hashes (imagehash works
/// on Pillow's resize) and the thumbnails rely on it giving Pillow's pixels, so the comparison
/// is exact, for grey and RGB, shrinking and enlarging, in one direction and in both.
final class ResizeTests: XCTestCase {
    func testMatchesPillowBitForBit() throws {
        let dir = NSTemporaryDirectory() + "atelier-resize-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let cases: [(channels: Int, width: Int, height: Int, to: (Int, Int), filter: ResampleFilter, name: String)] = [
            (3, 500, 375, (256, 192), .lanczos3, "lanczos3"),  // a photo's 1/8 decode to its thumbnail
            (3, 375, 375, (256, 256), .lanczos3, "lanczos3"),  // its centre square
            (1, 500, 375, (32, 32), .lanczos3, "lanczos3"),    // the pHash's resize
            (1, 500, 375, (9, 8), .lanczos3, "lanczos3"),      // the dHash's
            (3, 97, 61, (150, 90), .lanczos3, "lanczos3"),     // enlarged
            (3, 97, 61, (97, 20), .bilinear, "bilinear"),      // the vertical pass alone
            (1, 97, 61, (40, 61), .box, "box"),                // the horizontal pass alone
        ]
        for (index, item) in cases.enumerated() {
            let image = Self.texture(width: item.width, height: item.height, channels: item.channels, seed: index)
            let input = "\(dir)/\(index).raw", output = "\(dir)/\(index).out"
            try Data(image.pixels).write(to: URL(fileURLWithPath: input))
            try Self.runPillow([input, "\(item.width)", "\(item.height)", "\(item.channels)", "\(item.to.0)", "\(item.to.1)", item.name, output])
            let reference = try Data(contentsOf: URL(fileURLWithPath: output))
            let ours = image.resized(width: item.to.0, height: item.to.1, filter: item.filter)
            XCTAssertEqual(ours.width, item.to.0)
            XCTAssertEqual(ours.height, item.to.1)
            let differing = zip(ours.pixels, reference).filter { $0 != $1 }.count
            XCTAssertEqual(ours.pixels.count, reference.count, "case \(index)")
            XCTAssertEqual(differing, 0, "case \(index): \(item.channels) channels \(item.width)×\(item.height) → \(item.to), \(item.name)")
        }
    }

    /// Resizing the same sizes twice (the second time from the kernel cache) gives the same pixels.
    func testCachedKernelsGiveTheSamePixels() {
        let image = Self.texture(width: 123, height: 77, channels: 3, seed: 9)
        let first = image.resized(width: 50, height: 31)
        for _ in 0 ..< 3 { XCTAssertEqual(image.resized(width: 50, height: 31).pixels, first.pixels) }
        XCTAssertNotEqual(image.resized(width: 51, height: 31).width, first.width)
    }

    /// Edges, gradients and noise, so that every tap's weight matters.
    static func texture(width: Int, height: Int, channels: Int, seed: Int) -> Image {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0 ..< height {
            for x in 0 ..< width {
                for c in 0 ..< channels {
                    state ^= state << 13; state ^= state >> 7; state ^= state << 17
                    let stripe = (x / 7 + y / 5 + c) % 2 == 0 ? 200 : 40
                    let ramp = (x * 255 / max(1, width - 1) + y * 3) % 256
                    pixels[(y * width + x) * channels + c] = UInt8(truncatingIfNeeded: (stripe + ramp) / 2 + Int(state % 32) - 16)
                }
            }
        }
        return Image(width: width, height: height, channels: channels, pixels: pixels)
    }

    static func runPillow(_ arguments: [String]) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/pillow_resize.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script] + arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "pillow_resize.py failed: is Pillow installed? (make test installs it)")
    }
}
