import CJPEG
import Foundation
@testable import AtelierImaging

// libFuzzer harness for the JPEG and PNG decoders (build and run with `fuzz/run.sh image SECONDS`).
//
// Every input is a whole file. `ImageDecoder.decode` reads it to grey and to RGB, at full size and
// with a `minimumSide` that makes libjpeg scale in the DCT (to 1/8, and for a JPEG large enough
// to 1/4 and 1/2), and `PNG.decode` to RGBA; all under a limit of 4 megapixels, so that a few
// bytes declaring a 65535×65535 image cost a refusal, not gigabytes. None may trap, and
// AddressSanitizer sees any access outside a buffer in the C layers (compiled with it) or the
// Swift. On success:
//
// - the pixel buffer is width × height × channels, and the image is upright: its size is the
//   stored size, scaled by the DCT scale libjpeg was asked for, with width and height swapped
//   for EXIF orientations 5–8; the EXIF is the one `EXIF.read` finds;
// - every variant agrees on whether the file decodes (the channels and the scale change how
//   libjpeg writes its output, not what it reads), and on the error when it does not;
// - a PNG's RGBA, composited over white and oriented, is its RGB decode sample for sample;
// - `PerceptualHash.pHash` runs on the image.
//
// A JPEG is also decoded at 1/8 twice more, with the eighth-scale decoder (atl_jpeg_eighth.c) and
// with libjpeg alone: the outcomes must be the same, and on success the same bytes.
//
// Errors are checked too: `.tooLarge` only above the limit, `.unsupportedFormat` only for bytes
// that are neither JPEG nor PNG, `.corrupt` with a reason. A libjpeg or libpng object left
// behind is LeakSanitizer's to report (run.sh turns it on for this target, Swift's runtime
// suppressed), and a file that takes libjpeg too long (10 s) libFuzzer's.
//
// libjpeg and libpng are the system's, not instrumented: coverage guides the fuzzer through the
// C layers and the Swift only, so the seeds in fuzz/corpus/image cover each format's flavours.

let maxPixels = 4_000_000

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    let hex = bytes.prefix(512).map { String($0, radix: 16) }.joined(separator: " ")
    FileHandle.standardError.write(Data("image fuzz: \(message)\n  input (\(bytes.count) bytes): \(hex)\n".utf8))
    abort()
}

/// A decode's outcome, comparable across variants: the stored size, or the error.
enum Outcome: Equatable {
    case decoded(storedWidth: Int, storedHeight: Int)
    case failed(ImagingError)
}

func decode(_ raw: UnsafeRawBufferPointer, channels: Int, minimumSide: Int?, _ bytes: [UInt8]) -> (Outcome, ImageDecoder.Decoded?) {
    do {
        let decoded = try ImageDecoder.decode(raw, channels: channels, minimumSide: minimumSide, maxPixels: maxPixels)
        return (.decoded(storedWidth: decoded.storedWidth, storedHeight: decoded.storedHeight), decoded)
    } catch {
        checkError(error, raw, bytes)
        return (.failed(error), nil)
    }
}

func checkError(_ error: ImagingError, _ raw: UnsafeRawBufferPointer, _ bytes: [UInt8]) {
    switch error {
    case .tooLarge(let width, let height, let limit):
        if limit != maxPixels || width.multipliedReportingOverflow(by: height).partialValue <= limit || width <= 0 || height <= 0 {
            fail("refused as too large: \(width)×\(height), limit \(limit)", bytes)
        }
    case .unsupportedFormat:
        if ImageDecoder.format(of: raw) != nil { fail("\(error) for a file that starts like one", bytes) }
    case .corrupt(let why):
        if ImageDecoder.format(of: raw) == nil { fail("\(error) for a file that is neither JPEG nor PNG", bytes) }
        if why.isEmpty { fail("corrupt, with no reason given", bytes) }
    case .encodingFailed:
        fail("\(error) while decoding", bytes)
    }
}

/// The invariants of one successful decode.
func check(_ decoded: ImageDecoder.Decoded, channels: Int, minimumSide: Int?, _ raw: UnsafeRawBufferPointer, _ bytes: [UInt8]) {
    let image = decoded.image
    let label = "\(decoded.format) to \(channels) channels, minimumSide \(minimumSide.map(String.init) ?? "none")"
    if decoded.format != ImageDecoder.format(of: raw) { fail("\(label): decoded as \(decoded.format)", bytes) }
    if image.channels != channels || image.pixels.count != image.width * image.height * channels {
        fail("\(label): \(image.pixels.count) samples for \(image.width)×\(image.height)×\(image.channels)", bytes)
    }
    if decoded.exif != EXIF.read(raw) { fail("\(label): EXIF \(String(describing: decoded.exif)), EXIF.read finds another", bytes) }
    let (storedWidth, storedHeight) = (decoded.storedWidth, decoded.storedHeight)
    if storedWidth <= 0 || storedHeight <= 0 || storedWidth * storedHeight > maxPixels {
        fail("\(label): stored size \(storedWidth)×\(storedHeight) (limit \(maxPixels))", bytes)
    }
    // The DCT scale asked of libjpeg; a PNG is always decoded whole.
    var denominator = 1
    if decoded.format == .jpeg {
        guard let header = try? JPEG.header(raw) else { fail("\(label): decoded, but the header cannot be read alone", bytes) }
        if header.width != storedWidth || header.height != storedHeight { fail("\(label): stored size is not the header's", bytes) }
        denominator = minimumSide.map { JPEG.scaleDenominator(for: header, minimumSide: $0) } ?? 1
    }
    let scaledWidth = (storedWidth + denominator - 1) / denominator
    let scaledHeight = (storedHeight + denominator - 1) / denominator
    let swaps = EXIF.swapsAxes(orientation: decoded.exif?.orientation ?? 1)
    if (image.width, image.height) != (swaps ? (scaledHeight, scaledWidth) : (scaledWidth, scaledHeight)) {
        fail("\(label): \(image.width)×\(image.height) for stored \(storedWidth)×\(storedHeight) at 1/\(denominator), "
             + "orientation \(decoded.exif?.orientation ?? 1)", bytes)
    }
    if (decoded.uprightWidth, decoded.uprightHeight) != (swaps ? (storedHeight, storedWidth) : (storedWidth, storedHeight)) {
        fail("\(label): upright size \(decoded.uprightWidth)×\(decoded.uprightHeight) for stored \(storedWidth)×\(storedHeight)", bytes)
    }
    if let minimumSide, min(image.width, image.height) < min(minimumSide, storedWidth, storedHeight) {
        fail("\(label): shorter side \(min(image.width, image.height)) below the \(minimumSide) asked", bytes)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    bytes.withUnsafeBytes { raw in
        // Grey and RGB at full size and at 1/8 (every side is at least 1 pixel); for a JPEG also
        // the scales that keep a quarter and a half of the shorter side (1/4 and 1/2, for images
        // large enough).
        var variants: [(channels: Int, minimumSide: Int?)] = [(3, nil), (1, nil), (3, 1), (1, 1)]
        if JPEG.looksLike(raw), let header = try? JPEG.header(raw) {
            let shorter = min(header.width, header.height)
            variants += [(3, (shorter + 3) / 4), (1, (shorter + 1) / 2)]
        }
        var first: (outcome: Outcome, label: String)?
        var rgb: ImageDecoder.Decoded?
        for (channels, minimumSide) in variants {
            let (outcome, decoded) = decode(raw, channels: channels, minimumSide: minimumSide, bytes)
            let label = "\(channels) channels, minimumSide \(minimumSide.map(String.init) ?? "none")"
            if let first, first.outcome != outcome { fail("\(first.label) gives \(first.outcome), \(label) gives \(outcome)", bytes) }
            if first == nil { first = (outcome, label) }
            guard let decoded else { continue }
            check(decoded, channels: channels, minimumSide: minimumSide, raw, bytes)
            if rgb == nil {
                rgb = decoded
                // One hash per input: a pHash resamples the whole image, as costly as a decode.
                _ = PerceptualHash.pHash(decoded.image)
            }
        }

        // The eighth-scale decoder gives libjpeg's outcome: its pixels, or its refusal.
        if JPEG.looksLike(raw) {
            for channels in [1, 3] {
                var outcomes: [Result<Image, ImagingError>] = []
                for eighth: Int32 in [1, 0] {
                    let previous = atl_jpeg_use_eighth(eighth)
                    outcomes.append(Result { () throws(ImagingError) in try JPEG.decode(raw, channels: channels, scaleDenominator: 8, maxPixels: maxPixels) })
                    _ = atl_jpeg_use_eighth(previous)
                }
                switch (outcomes[0], outcomes[1]) {
                case (.success(let a), .success(let b)) where a == b: break
                case (.failure(let a), .failure(let b)) where a == b: break
                default: fail("\(channels) channels at 1/8: the eighth-scale decoder gives \(outcomes[0]), libjpeg \(outcomes[1])", bytes)
                }
            }
        }

        // RGBA, which only PNG gives: composited over white and turned upright it is the RGB decode.
        guard PNG.looksLike(raw) else { return }
        do throws(ImagingError) {
            let rgba = try PNG.decode(raw, channels: 4, maxPixels: maxPixels)
            guard rgba.channels == 4, rgba.pixels.count == rgba.width * rgba.height * 4 else {
                fail("RGBA: \(rgba.pixels.count) samples for \(rgba.width)×\(rgba.height)", bytes)
            }
            guard let rgb else { fail("RGBA decodes, RGB gives \(String(describing: first?.outcome))", bytes) }
            if rgba.rgb().oriented(rgb.exif?.orientation ?? 1) != rgb.image { fail("RGBA over white differs from RGB", bytes) }
        } catch {
            checkError(error, raw, bytes)
            if first?.outcome != .failed(error) { fail("RGBA: \(error), RGB: \(String(describing: first?.outcome))", bytes) }
        }
    }
    return 0
}
