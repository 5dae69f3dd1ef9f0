import AtelierRecords
import AtelierTestSupport
import Foundation
import XCTest
@testable import AtelierImaging

/// `PhotoQuality` on a synthetic garment photo (a patterned T-shirt on a plain light backdrop,
/// 768×512) and on the same photo spoiled one way at a time: each defect must move its own
/// score the right way and bring its own advice, and the clean photo must pass untouched.
final class PhotoQualityTests: XCTestCase {
    // MARK: the clean photo

    func testCleanPhotoIsGoodWithNoAdvice() {
        let photo = GarmentPhoto()
        let quality = assess(photo.image)
        XCTAssertEqual(quality.verdict, .good)
        XCTAssertEqual(quality.advice, [])
        XCTAssertEqual(quality.analysedWidth, 768)
        XCTAssertEqual(quality.analysedHeight, 512)
        XCTAssertTrue(quality.subjectFound)
        XCTAssertEqual(quality.subjectFraction, photo.coverage, accuracy: 0.03, "the silhouette, print holes filled")
        XCTAssertEqual(quality.subjectCentreX, photo.centroid.x, accuracy: 0.03)
        XCTAssertEqual(quality.subjectCentreY, photo.centroid.y, accuracy: 0.03)
        XCTAssertEqual(quality.cutOffEdges, [])
        XCTAssertEqual(quality.cast, .none)
        XCTAssertLessThan(quality.noiseSigma, 1)
        XCTAssertLessThan(quality.clippedHighlightsFraction, 0.01)
        XCTAssertGreaterThan(quality.scores.sharpness, 0.9)
    }

    func testLargePhotoIsShrunkToTheWorkingSizeAndStillGood() {
        let quality = assess(upscaledTwice(GarmentPhoto().image))
        XCTAssertEqual(quality.analysedWidth, 768)
        XCTAssertEqual(quality.analysedHeight, 512)
        XCTAssertEqual(quality.verdict, .good, "\(quality.advice)")
    }

    // MARK: sharpness

    func testBlurLowersSharpnessAndAdvisesFocus() {
        let clean = assess(GarmentPhoto().image)
        let blurred = assess(boxBlurred(GarmentPhoto().image, passes: 4))
        XCTAssertLessThan(blurred.scores.sharpness, PhotoQuality.goodScore)
        XCTAssertLessThan(blurred.scores.sharpness, clean.scores.sharpness - 0.3)
        XCTAssertGreaterThan(blurred.blurRadiusPixels, clean.blurRadiusPixels + 0.5)
        XCTAssertNotEqual(blurred.verdict, .good)
        XCTAssertTrue(blurred.advice.contains { $0.hasPrefix("the photo is blurry (sharpness ") && $0.hasSuffix("hold the camera still or tap to focus") }, "\(blurred.advice)")
        XCTAssertTrue(blurred.subjectFound, "blur does not hide the garment")
    }

    func testGrainDoesNotPassForDetail() {
        // Noise adds fine structure that a plain Laplacian variance reads as sharpness.
        let quality = assess(withGreyNoise(boxBlurred(GarmentPhoto().image, passes: 4), sigma: 6, seed: 5))
        XCTAssertLessThan(quality.scores.sharpness, PhotoQuality.goodScore)
        XCTAssertGreaterThan(quality.blurRadiusPixels, 1.3)
        XCTAssertTrue(quality.advice.contains { $0.hasPrefix("the photo is blurry") }, "\(quality.advice)")
        XCTAssertTrue(quality.advice.contains { $0.hasPrefix("the photo is noisy") }, "\(quality.advice)")
    }

    func testLowContrastSharpPhotoIsNotBlurry() {
        let faint = assess(contrastReduced(GarmentPhoto().image, to: 0.25))
        XCTAssertGreaterThanOrEqual(faint.scores.sharpness, PhotoQuality.goodScore)
        XCTAssertFalse(faint.advice.contains { $0.contains("blurry") }, "\(faint.advice)")
    }

    // MARK: exposure

    func testDarkPhotoAdvisesMoreLight() {
        let clean = assess(GarmentPhoto().image)
        let dark = assess(mapped(GarmentPhoto().image) { $0 * 0.3 })
        XCTAssertEqual(dark.meanLuma, clean.meanLuma * 0.3, accuracy: 2)
        XCTAssertLessThan(dark.scores.exposure, PhotoQuality.goodScore)
        XCTAssertTrue(dark.advice.contains { $0.hasPrefix("the photo is dark (mean luma ") && $0.hasSuffix("add light or raise exposure") }, "\(dark.advice)")
    }

    func testBrightPhotoReportsClippedHighlights() {
        let bright = assess(mapped(GarmentPhoto().image) { $0 + 70 })
        XCTAssertGreaterThan(bright.clippedHighlightsFraction, 0.4, "the backdrop burns out")
        XCTAssertLessThan(bright.scores.exposure, PhotoQuality.fairScore)
        XCTAssertEqual(bright.verdict, .poor)
        let percent = Int((bright.clippedHighlightsFraction * 100).rounded())
        XCTAssertEqual(bright.advice.first, "highlights clipped on \(percent)% of pixels: reduce exposure")
    }

    // MARK: framing

    func testSmallSubjectAdvisesMovingCloser() {
        let small = GarmentPhoto(scale: 0.2)
        let quality = assess(small.image)
        XCTAssertTrue(quality.subjectFound)
        XCTAssertEqual(quality.subjectFraction, small.coverage, accuracy: 0.01)
        XCTAssertLessThan(quality.scores.framing, PhotoQuality.fairScore)
        XCTAssertLessThan(quality.scores.framing, assess(GarmentPhoto().image).scores.framing)
        let percent = PhotoQuality.percent(quality.subjectFraction)
        XCTAssertEqual(quality.advice.first, "the garment fills \(percent) of the frame: move closer")
    }

    func testSubjectRunningOffTheLeftEdgeIsCutOff() {
        let shifted = assess(GarmentPhoto(centreX: 110).image)
        XCTAssertTrue(shifted.subjectFound)
        XCTAssertEqual(shifted.cutOffEdges, [.left])
        XCTAssertLessThan(shifted.subjectCentreX, 0.3)
        XCTAssertLessThanOrEqual(shifted.scores.framing, 0.5)
        XCTAssertTrue(shifted.advice.contains("the garment is cut off at the left edge: step back or re-centre"), "\(shifted.advice)")
    }

    func testGarmentCloseToTheEdgeIsNotCutOff() {
        // The left sleeve's tip is 8 px from the edge: tight, not cut.
        let quality = assess(GarmentPhoto(centreX: 208).image)
        XCTAssertTrue(quality.subjectFound)
        XCTAssertEqual(quality.cutOffEdges, [])
        XCTAssertFalse(quality.advice.contains { $0.contains("cut off") }, "\(quality.advice)")
    }

    func testPrintInTheBackdropColourCountsAsGarment() {
        let photo = GarmentPhoto(logo: true)
        let quality = assess(photo.image)
        XCTAssertTrue(quality.subjectFound)
        XCTAssertEqual(quality.subjectFraction, photo.coverage, accuracy: 0.015, "the logo is a hole to fill, not backdrop")
        XCTAssertEqual(quality.verdict, .good, "\(quality.advice)")
    }

    func testSubjectOffTheBottomAndRightReportsBothEdges() {
        let quality = assess(GarmentPhoto(centreX: 690, centreY: 420).image)
        XCTAssertEqual(quality.cutOffEdges, [.bottom, .right])
        XCTAssertTrue(quality.advice.contains("the garment is cut off at the bottom and right edges: step back or re-centre"), "\(quality.advice)")
    }

    func testBusyBackgroundHasNoSubjectAndNeutralFraming() {
        let quality = assess(busyScene())
        XCTAssertFalse(quality.subjectFound)
        XCTAssertEqual(quality.scores.framing, PhotoQuality.neutralScore)
        XCTAssertEqual(quality.subjectFraction, 0)
        XCTAssertEqual(quality.cutOffEdges, [])
        XCTAssertFalse(quality.advice.contains { $0.contains("garment") }, "\(quality.advice)")
    }

    // MARK: noise

    func testNoiseEstimateFollowsTheAddedSigma() {
        for sigma in [4.0, 12.0] {
            let quality = assess(withGreyNoise(GarmentPhoto().image, sigma: sigma, seed: 7))
            XCTAssertEqual(quality.noiseSigma, sigma, accuracy: 0.3 * sigma, "σ = \(sigma)")
            XCTAssertTrue(quality.subjectFound, "σ = \(sigma): noise does not hide the garment")
        }
        let noisy = assess(withGreyNoise(GarmentPhoto().image, sigma: 12, seed: 11))
        XCTAssertLessThan(noisy.scores.noise, PhotoQuality.fairScore)
        XCTAssertTrue(noisy.advice.contains { $0.hasPrefix("the photo is noisy (noise ") }, "\(noisy.advice)")
    }

    // MARK: colour cast

    func testBlueBackdropIsACoolCast() {
        let quality = assess(GarmentPhoto(backdrop: (196, 210, 246)).image)
        XCTAssertTrue(quality.subjectFound)
        XCTAssertEqual(quality.cast, .cool)
        XCTAssertLessThan(quality.castYellowBlue, -0.1)
        XCTAssertLessThan(quality.scores.colour, PhotoQuality.fairScore)
        XCTAssertTrue(quality.advice.contains { $0.hasPrefix("strong blue cast (chroma ") && $0.hasSuffix("set white balance or use daylight") }, "\(quality.advice)")
    }

    func testWarmBackdropIsAWarmCast() {
        let quality = assess(GarmentPhoto(backdrop: (236, 214, 170)).image)
        XCTAssertEqual(quality.cast, .warm)
        XCTAssertGreaterThan(quality.castYellowBlue, 0.1)
    }

    // MARK: odd inputs

    func testTinyAndGreyImagesAreAssessedWithoutTrapping() {
        for image in [Image(width: 1, height: 1, channels: 3, value: 128), Image(width: 5, height: 3, channels: 3, value: 200),
                      Image(width: 0, height: 0, channels: 3), GarmentPhoto().image.grey()] {
            let quality = PhotoQuality.assess(image)
            XCTAssertEqual(quality.verdict == .good, quality.advice.isEmpty, "\(image.width)×\(image.height)")
        }
        XCTAssertTrue(PhotoQuality.assess(GarmentPhoto().image.grey()).subjectFound)
    }

    func testNumbersInAdviceAreLocaleFree() {
        XCTAssertEqual(PhotoQuality.percent(0.12), "12%")
        XCTAssertEqual(PhotoQuality.percent(0.004), "0.4%")
        XCTAssertEqual(PhotoQuality.percent(0.09), "9%")
        XCTAssertEqual(PhotoQuality.decimal(0.184, places: 2), "0.18")
        XCTAssertEqual(PhotoQuality.decimal(9.96, places: 1), "10.0")
        XCTAssertEqual(PhotoQuality.list(["bottom", "right"]), "bottom and right")
    }

    /// Assesses and checks the rule that ties the verdict to the advice.
    private func assess(_ image: Image, file: StaticString = #filePath, line: UInt = #line) -> PhotoQuality {
        let quality = PhotoQuality.assess(image)
        XCTAssertEqual(quality.verdict == .good, quality.advice.isEmpty, "good exactly when there is no advice: \(quality.advice)", file: file, line: line)
        for score in [quality.scores.exposure, quality.scores.sharpness, quality.scores.noise, quality.scores.framing, quality.scores.colour] {
            XCTAssertTrue((0 ... 1).contains(score), "score \(score)", file: file, line: line)
        }
        return quality
    }
}

// MARK: - The synthetic photo and its defects

/// A T-shirt (red, with mustard stripes, navy and white dots) on a plain backdrop, 768×512,
/// rasterised by hand: four sub-scanlines per row with exact horizontal coverage, so its edges
/// are anti-aliased as a photo's are, and the true coverage and centroid are known.
struct GarmentPhoto {
    static let width = 768, height = 512
    var image: Image
    /// Fraction of the frame the shirt covers.
    var coverage: Double
    /// The shirt's centroid as fractions of the frame.
    var centroid: (x: Double, y: Double)

    /// The outline in units of the shirt's half-size (200 px at scale 1), y down.
    static let outline: [(x: Double, y: Double)] = [
        (-0.25, -1.0), (-0.55, -0.9), (-1.0, -0.45), (-0.8, -0.2), (-0.55, -0.45),
        (-0.55, 1.0), (0.55, 1.0), (0.55, -0.45), (0.8, -0.2), (1.0, -0.45),
        (0.55, -0.9), (0.25, -1.0), (0.0, -0.8),
    ]

    /// With `logo`, a 160×100 panel printed in the backdrop's own colour on the chest: a hole in
    /// any mask that does not fill holes.
    init(scale: Double = 1, centreX: Double = 384, centreY: Double = 256, backdrop: (UInt8, UInt8, UInt8) = (226, 224, 220), logo: Bool = false) {
        let (w, h) = (Self.width, Self.height)
        let points = Self.outline.map { (x: centreX + $0.x * 200 * scale, y: centreY + $0.y * 200 * scale) }
        var alpha = [Double](repeating: 0, count: w * h)
        let subrows = 4
        for row in 0 ..< h {
            for sub in 0 ..< subrows {
                let y = Double(row) + (Double(sub) + 0.5) / Double(subrows)
                var crossings: [Double] = []
                for i in points.indices {
                    let a = points[i], b = points[(i + 1) % points.count]
                    if (a.y <= y) != (b.y <= y) { crossings.append(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)) }
                }
                crossings.sort()
                for pair in stride(from: 0, to: crossings.count - 1, by: 2) {
                    let left = max(0, crossings[pair]), right = min(Double(w), crossings[pair + 1])
                    guard left < right else { continue }
                    for x in Int(left.rounded(.down)) ..< Int(right.rounded(.up)) {
                        let overlap = min(right, Double(x + 1)) - max(left, Double(x))
                        alpha[row * w + x] += overlap / Double(subrows)
                    }
                }
            }
        }
        let period = max(6, 28 * scale)
        var pixels = [UInt8](repeating: 0, count: w * h * 3)
        var total = 0.0, sumX = 0.0, sumY = 0.0
        for y in 0 ..< h {
            for x in 0 ..< w {
                let a = alpha[y * w + x]
                total += a
                sumX += a * (Double(x) + 0.5)
                sumY += a * (Double(y) + 0.5)
                let back = [backdrop.0, backdrop.1, backdrop.2]
                let onLogo = logo && abs(Double(x) + 0.5 - centreX) < 80 && abs(Double(y) + 0.5 - centreY - 10) < 50
                let garment = onLogo ? back.map(Double.init) : Self.print(x: Double(x) - centreX, y: Double(y) - centreY, period: period)
                for c in 0 ..< 3 {
                    pixels[(y * w + x) * 3 + c] = UInt8((Double(back[c]) * (1 - a) + garment[c] * a).rounded())
                }
            }
        }
        image = Image(width: w, height: h, channels: 3, pixels: pixels)
        coverage = total / Double(w * h)
        centroid = (sumX / total / Double(w), sumY / total / Double(h))
    }

    /// The fabric: red, mustard stripes, navy dots and small white dots between them.
    static func print(x: Double, y: Double, period: Double) -> [Double] {
        let v = y / period - (y / period).rounded(.down)
        if v < 0.22 { return [230, 190, 80] }
        let u = x / period - (x / period).rounded(.down)
        let (du, dv) = (u - 0.5, v - 0.6)
        if du * du + dv * dv < 0.02 { return [28, 36, 72] }
        if u < 0.12 && v > 0.5 && v < 0.62 { return [242, 240, 236] }
        return [176, 48, 56]
    }
}

/// Every sample through `transform`, rounded and clamped to 0–255.
func mapped(_ image: Image, _ transform: (Double) -> Double) -> Image {
    Image(width: image.width, height: image.height, channels: image.channels,
          pixels: image.pixels.map { UInt8(max(0, min(255, transform(Double($0)).rounded()))) })
}

func contrastReduced(_ image: Image, to factor: Double) -> Image {
    mapped(image) { 128 + ($0 - 128) * factor }
}

/// `passes` 3×3 box blurs (separable, edges replicated).
func boxBlurred(_ image: Image, passes: Int) -> Image {
    let (w, h, c) = (image.width, image.height, image.channels)
    var current = image.pixels
    var scratch = current
    for _ in 0 ..< passes {
        current.withUnsafeMutableBufferPointer { src in
            scratch.withUnsafeMutableBufferPointer { tmp in
                for y in 0 ..< h {
                    for x in 0 ..< w {
                        for k in 0 ..< c {
                            let sum = Int(src[(y * w + max(0, x - 1)) * c + k]) + Int(src[(y * w + x) * c + k]) + Int(src[(y * w + min(w - 1, x + 1)) * c + k])
                            tmp[(y * w + x) * c + k] = UInt8((sum + 1) / 3)
                        }
                    }
                }
                for y in 0 ..< h {
                    for x in 0 ..< w {
                        for k in 0 ..< c {
                            let sum = Int(tmp[(max(0, y - 1) * w + x) * c + k]) + Int(tmp[(y * w + x) * c + k]) + Int(tmp[(min(h - 1, y + 1) * w + x) * c + k])
                            src[(y * w + x) * c + k] = UInt8((sum + 1) / 3)
                        }
                    }
                }
            }
        }
    }
    return Image(width: w, height: h, channels: c, pixels: current)
}

/// Twice the size, each pixel repeated 2×2.
func upscaledTwice(_ image: Image) -> Image {
    let (w, c) = (image.width, image.channels)
    var pixels = [UInt8](repeating: 0, count: image.pixels.count * 4)
    for y in 0 ..< image.height * 2 {
        for x in 0 ..< w * 2 {
            for k in 0 ..< c { pixels[(y * w * 2 + x) * c + k] = image.pixels[((y / 2) * w + x / 2) * c + k] }
        }
    }
    return Image(width: w * 2, height: image.height * 2, channels: c, pixels: pixels)
}

/// Gaussian noise of deviation `sigma`, the same in every channel (so luma's is `sigma` too),
/// from a seeded generator.
func withGreyNoise(_ image: Image, sigma: Double, seed: UInt64) -> Image {
    var random = SplitMix64(seed: seed)
    var pixels = image.pixels
    for i in 0 ..< image.pixelCount {
        let noise = random.gaussian() * sigma
        for k in 0 ..< 3 { pixels[i * 3 + k] = UInt8(max(0, min(255, (Double(pixels[i * 3 + k]) + noise).rounded()))) }
    }
    return Image(width: image.width, height: image.height, channels: 3, pixels: pixels)
}

/// A cluttered room: 400 overlapping rectangles of random colours, no backdrop.
func busyScene() -> Image {
    let (w, h) = (GarmentPhoto.width, GarmentPhoto.height)
    var random = SplitMix64(seed: 3)
    var pixels = [UInt8](repeating: 120, count: w * h * 3)
    for _ in 0 ..< 400 {
        let x0 = Int(random.next() % UInt64(w)), y0 = Int(random.next() % UInt64(h))
        let x1 = min(w, x0 + 16 + Int(random.next() % 80)), y1 = min(h, y0 + 16 + Int(random.next() % 80))
        let colour = (0 ..< 3).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for y in y0 ..< y1 {
            for x in x0 ..< x1 {
                for k in 0 ..< 3 { pixels[(y * w + x) * 3 + k] = colour[k] }
            }
        }
    }
    return Image(width: w, height: h, channels: 3, pixels: pixels)
}
