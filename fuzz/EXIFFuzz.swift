import Foundation
@testable import AtelierImaging

// libFuzzer harness for the EXIF reader (build and run with `fuzz/run.sh exif SECONDS`).
//
// Every input is a whole file: a JPEG, a PNG or a bare TIFF/EXIF block, whichever its first
// bytes say. `EXIF.read` must never trap (AddressSanitizer sees any read outside the input, and
// Swift's own traps any overflow), and what it returns must be in range. Two oracles more:
// the EXIF block it found, rewrapped in a fresh JPEG APP1 segment and a fresh PNG eXIf chunk,
// must read the same (container walking is independent of the block); and the orientation it
// found, applied to a small image and then undone, must give the image back.

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    let hex = bytes.prefix(512).map { String($0, radix: 16) }.joined(separator: " ")
    FileHandle.standardError.write(Data("EXIF fuzz: \(message)\n  input (\(bytes.count) bytes): \(hex)\n".utf8))
    abort()
}

/// Fields in range: what every caller of `EXIF.read` relies on.
func checkRanges(_ metadata: EXIFMetadata, _ bytes: [UInt8]) {
    if metadata.isEmpty { fail("an empty result instead of nil", bytes) }
    if let orientation = metadata.orientation, !(1 ... 8).contains(orientation) { fail("orientation \(orientation)", bytes) }
    for value in [metadata.focalLengthMillimetres, metadata.focalLength35mmMillimetres, metadata.exposureTimeSeconds, metadata.fNumber] {
        if let value, !(value > 0 && value.isFinite) { fail("a measure of \(value)", bytes) }
    }
    for value in [metadata.isoSpeed, metadata.pixelWidth, metadata.pixelHeight] {
        if let value, value <= 0 { fail("a count of \(value)", bytes) }
    }
    for text in [metadata.make, metadata.model, metadata.lensModel] {
        guard let text else { continue }
        if text.isEmpty || text.utf8.count > 3 * EXIF.Limits.stringBytes || text.utf8.contains(0) { fail("text \(text.debugDescription)", bytes) }
        if text.unicodeScalars.first!.properties.isWhitespace || text.unicodeScalars.last!.properties.isWhitespace {
            fail("untrimmed text \(text.debugDescription)", bytes)
        }
    }
    if let date = metadata.dateTimeOriginal {
        // YYYY-MM-DDTHH:MM:SS, optionally ±HH:MM.
        let c = Array(date.utf8)
        let digits = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard c.count == 19 || c.count == 25, digits.allSatisfy({ (0x30 ... 0x39).contains(c[$0]) }),
              c[4] == 0x2D, c[7] == 0x2D, c[10] == 0x54, c[13] == 0x3A, c[16] == 0x3A,
              c.count == 19 || ((c[19] == 0x2B || c[19] == 0x2D) && c[22] == 0x3A) else { fail("date \(date.debugDescription)", bytes) }
    }
}

func jpeg(exif tiff: [UInt8]) -> [UInt8] {
    let length = tiff.count + 8
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif".utf8) + [0, 0] + tiff
        + [0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]
}

func png(exif tiff: [UInt8]) -> [UInt8] {
    let n = tiff.count
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        + [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array("eXIf".utf8) + tiff + [0, 0, 0, 0]
        + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEXIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let metadata = bytes.withUnsafeBytes { EXIF.read($0) }
    if let metadata { checkRanges(metadata, bytes) }

    // The TIFF structure read straight, and rewrapped in both containers.
    let payload = bytes.withUnsafeBytes { EXIF.tiffPayload(in: $0) }
    if let payload {
        let tiff = Array(bytes[payload])
        let direct = tiff.withUnsafeBytes { EXIF.read(tiff: $0) }
        if direct != metadata { fail("the block read alone gives \(String(describing: direct)), in its file \(String(describing: metadata))", bytes) }
        // A payload that starts "Exif\0\0" would lose those bytes inside a PNG (they are taken as an APP1 prefix there).
        let hasPrefix = tiff.starts(with: Array("Exif".utf8) + [0, 0])
        if tiff.count <= 65_527, EXIF.read(jpeg(exif: tiff)) != direct { fail("rewrapped in a JPEG it reads differently", bytes) }
        if !hasPrefix, EXIF.read(png(exif: tiff)) != direct { fail("rewrapped in a PNG it reads differently", bytes) }
    } else if metadata != nil {
        fail("metadata without an EXIF block", bytes)
    }

    // Orientation applied and undone on a 5×3 image of every channel count.
    if let orientation = metadata?.orientation {
        let inverse = [6: 8, 8: 6][orientation] ?? orientation
        for channels in 1 ... 4 {
            let image = Image(width: 5, height: 3, channels: channels, pixels: (0 ..< 15 * channels).map { UInt8($0) })
            let turned = image.oriented(orientation)
            let swaps = EXIF.swapsAxes(orientation: orientation)
            if turned.width != (swaps ? 3 : 5) || turned.oriented(inverse) != image { fail("orientation \(orientation) does not invert", bytes) }
        }
    }
    return 0
}
