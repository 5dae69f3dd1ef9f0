import AtelierWardrobe
import AtelierRecords
import XCTest
@testable import AtelierImaging

/// `GarmentColors.read` on synthetic garment photos whose truth is known: a T-shirt outline of
/// one colour, or striped in two, on plain white, grey and beige backdrops and on a busy one,
/// with sensor noise and a lighting gradient; and the colour science under it.
final class GarmentColorsTests: XCTestCase {
    // Garment colours from the brief, and backdrops as a photographer's sweep shows them.
    static let navy: UInt32 = 0x1f2a44, red: UInt32 = 0xc8102e, offWhite: UInt32 = 0xf5f5f0
    static let olive: UInt32 = 0x808000, palePink: UInt32 = 0xf4c2c2, jade: UInt32 = 0x00a86b
    static let whiteSweep: UInt32 = 0xfafafa, greySweep: UInt32 = 0x9a9a9c, beigeSweep: UInt32 = 0xd8c8a8

    // MARK: Solid garments on plain backdrops

    func testSolidGarmentsOnPlainBackdropsReadTheirColourNameAndGroup() {
        let cases: [(garment: UInt32, backdrop: UInt32, names: Set<String>, group: LaundryColorGroup)] = [
            (Self.navy, Self.whiteSweep, ["navy"], .darks),
            (Self.navy, Self.beigeSweep, ["navy"], .darks),
            (Self.red, Self.greySweep, ["red"], .vibrant),
            (Self.red, Self.whiteSweep, ["red"], .vibrant),
            (Self.offWhite, Self.greySweep, ["white", "ivory"], .whites),
            (Self.olive, Self.beigeSweep, ["olive"], .vibrant),
            (Self.olive, Self.whiteSweep, ["olive"], .vibrant),
            (Self.palePink, Self.greySweep, ["baby pink", "pink", "blush"], .pastels),
            (Self.jade, Self.whiteSweep, ["jade", "emerald", "green"], .vibrant),
            (Self.jade, Self.beigeSweep, ["jade", "emerald", "green"], .vibrant),
        ]
        for (index, item) in cases.enumerated() {
            let photo = SyntheticPhoto.make(backdrop: .plain(item.backdrop), garment: [item.garment], seed: UInt64(index + 1))
            let reading = GarmentColors.read(photo.image)
            let label = "\(hex(item.garment)) on \(hex(item.backdrop))"
            XCTAssertTrue(reading.backdropExcluded, label)
            guard let primary = reading.primary else { XCTFail("\(label): no colour"); continue }
            XCTAssertLessThan(deltaE(primary.hex, item.garment), 5, "\(label): read \(primary.hex)")
            XCTAssertTrue(item.names.contains(primary.name), "\(label): named \(primary.name)")
            XCTAssertEqual(primary.group, item.group, label)
            XCTAssertEqual(reading.colors.count, 1, "\(label): \(reading.colors.map(\.hex))")
            XCTAssertGreaterThan(primary.share, 0.9, label)
            assertBackdropNotReported(reading, backdrop: item.backdrop, label)
        }
    }

    /// JPEG at quality 85 with 4:2:0 chroma, as a phone saves it: the blurred colour edges must
    /// not turn into colours of their own.
    func testSolidGarmentSurvivesJPEGRoundTrip() throws {
        let photo = SyntheticPhoto.make(backdrop: .plain(Self.whiteSweep), garment: [Self.red], seed: 7)
        let bytes = try JPEG.encode(photo.image, quality: 85)
        let decoded = try bytes.withUnsafeBytes { try JPEG.decode($0) }
        let reading = GarmentColors.read(decoded)
        XCTAssertTrue(reading.backdropExcluded)
        XCTAssertEqual(reading.colors.count, 1, "\(reading.colors.map(\.hex))")
        XCTAssertLessThan(deltaE(try XCTUnwrap(reading.primary).hex, Self.red), 5)
        XCTAssertEqual(reading.primary?.name, "red")
    }

    /// A garment cut off by the bottom of the frame still leaves the border mostly backdrop.
    func testGarmentRunningOffTheFrameStillFindsTheBackdrop() {
        let photo = SyntheticPhoto.make(backdrop: .plain(Self.beigeSweep), garment: [Self.navy], shiftDown: 0.25, seed: 11)
        let reading = GarmentColors.read(photo.image)
        XCTAssertTrue(reading.backdropExcluded)
        XCTAssertEqual(reading.colors.count, 1, "\(reading.colors.map(\.hex))")
        XCTAssertLessThan(deltaE(reading.primary?.hex ?? "#000000", Self.navy), 5)
        assertBackdropNotReported(reading, backdrop: Self.beigeSweep, "navy running off the frame")
    }

    /// Only the garment's region counts: a smaller object apart from it on the backdrop (a
    /// swing tag, a phone) is left out, though it is big enough to pass the 5% cut.
    func testSeparateSmallerObjectOnTheBackdropIsLeftOut() {
        let tag: UInt32 = 0xf5d033
        let photo = SyntheticPhoto.make(backdrop: .plain(Self.whiteSweep), garment: [Self.red],
                                        objects: [(x: 0.02 ... 0.30, y: 0.88 ... 0.98, color: tag)], seed: 12)
        let reading = GarmentColors.read(photo.image)
        XCTAssertTrue(reading.backdropExcluded)
        XCTAssertEqual(reading.colors.map(\.name), ["red"], "\(reading.colors.map { "\($0.hex) \($0.share)" })")
        XCTAssertFalse(reading.colors.contains { deltaE($0.hex, tag) < 10 })
    }

    // MARK: Stripes

    func testStripesReportBothColoursWithTheirShares() {
        let cases: [(colors: [UInt32], widths: [Int], backdrop: UInt32)] = [
            ([Self.navy, Self.offWhite], [24, 14], Self.greySweep),
            ([Self.red, Self.navy], [18, 18], Self.whiteSweep),
            ([Self.jade, Self.palePink], [30, 12], Self.beigeSweep),
            ([Self.olive, Self.offWhite], [16, 26], Self.greySweep),
        ]
        for (index, item) in cases.enumerated() {
            let photo = SyntheticPhoto.make(backdrop: .plain(item.backdrop), garment: item.colors, stripeWidths: item.widths, seed: UInt64(100 + index))
            let reading = GarmentColors.read(photo.image)
            let label = item.colors.map(hex).joined(separator: "/") + " on \(hex(item.backdrop))"
            XCTAssertTrue(reading.backdropExcluded, label)
            XCTAssertEqual(reading.colors.count, 2, "\(label): \(reading.colors.map { "\($0.hex) \($0.share)" })")
            for (stripe, truth) in zip(item.colors, photo.shares) {
                guard let found = reading.colors.min(by: { deltaE($0.hex, stripe) < deltaE($1.hex, stripe) }) else { continue }
                XCTAssertLessThan(deltaE(found.hex, stripe), 5, "\(label): \(hex(stripe)) read as \(found.hex)")
                XCTAssertEqual(found.share, truth, accuracy: 0.10, "\(label): share of \(hex(stripe))")
            }
            // Sorted by share: the wider stripe first.
            let wider = item.widths[0] >= item.widths[1] ? item.colors[0] : item.colors[1]
            if item.widths[0] != item.widths[1] {
                XCTAssertLessThan(deltaE(reading.primary?.hex ?? "#000000", wider), 5, "\(label): primary")
            }
            assertBackdropNotReported(reading, backdrop: item.backdrop, label)
        }
    }

    func testMaxColorsLimitsTheReading() {
        let photo = SyntheticPhoto.make(backdrop: .plain(Self.greySweep), garment: [Self.navy, Self.offWhite], stripeWidths: [24, 14], seed: 3)
        let reading = GarmentColors.read(photo.image, maxColors: 1)
        XCTAssertEqual(reading.colors.count, 1)
        XCTAssertLessThan(deltaE(reading.primary?.hex ?? "#000000", Self.navy), 5)
        XCTAssertTrue(GarmentColors.read(photo.image, maxColors: 0).colors.isEmpty)
    }

    // MARK: Busy backdrops and close-ups

    func testBusyBackdropFallsBackToTheCentreOfTheFrame() {
        for (index, garment) in [Self.navy, Self.red, Self.olive].enumerated() {
            let photo = SyntheticPhoto.make(backdrop: .busy, garment: [garment], seed: UInt64(200 + index))
            let reading = GarmentColors.read(photo.image)
            XCTAssertFalse(reading.backdropExcluded, hex(garment))
            guard let primary = reading.primary else { XCTFail("\(hex(garment)): no colour"); continue }
            XCTAssertLessThan(deltaE(primary.hex, garment), 5, "\(hex(garment)) read as \(primary.hex)")
            XCTAssertGreaterThan(primary.share, 0.5, hex(garment))
        }
        let navy = GarmentColors.read(SyntheticPhoto.make(backdrop: .busy, garment: [Self.navy], seed: 200).image)
        XCTAssertEqual(navy.primary?.name, "navy")
    }

    /// A close-up where the cloth fills the frame has a plain border that is the garment: it
    /// must be read, not removed as backdrop.
    func testClothFillingTheFrameIsReadNotRemoved() {
        let photo = SyntheticPhoto.make(backdrop: .plain(Self.olive), garment: [], seed: 9)
        let reading = GarmentColors.read(photo.image)
        XCTAssertFalse(reading.backdropExcluded)
        XCTAssertEqual(reading.colors.count, 1)
        XCTAssertLessThan(deltaE(reading.primary?.hex ?? "#000000", Self.olive), 5)
        XCTAssertEqual(reading.primary?.name, "olive")
    }

    func testGreyAlphaAndDegenerateImages() {
        XCTAssertEqual(GarmentColors.read(Image(width: 0, height: 0, channels: 3)).colors, [])
        let grey = GarmentColors.read(Image(width: 300, height: 300, channels: 1, value: 128))
        XCTAssertEqual(grey.primary?.hex, "#808080")
        XCTAssertEqual(grey.primary?.name, "grey")
        let tiny = GarmentColors.read(Image(width: 2, height: 1, channels: 3, pixels: [200, 16, 46, 200, 16, 46]))
        XCTAssertEqual(tiny.primary?.hex, "#c8102e")
        // Fully transparent RGBA composites over white.
        let clear = GarmentColors.read(Image(width: 64, height: 64, channels: 4, value: 0))
        XCTAssertEqual(clear.primary?.hex, "#ffffff")
        XCTAssertEqual(clear.primary?.group, .whites)
    }

    func testReadingIsDeterministic() {
        let photo = SyntheticPhoto.make(backdrop: .busy, garment: [Self.jade, Self.palePink], stripeWidths: [20, 12], seed: 42)
        let first = GarmentColors.read(photo.image)
        XCTAssertEqual(first, GarmentColors.read(photo.image))
        let results = ConcurrentResults()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in results.append(GarmentColors.read(photo.image)) }
        XCTAssertEqual(results.all, [GarmentColors](repeating: first, count: 4))
    }

    // MARK: Names, groups and colour science

    func testNamesAndGroupsOfKnownColours() throws {
        let names: [(String, Set<String>)] = [
            ("#1f2a44", ["navy"]), ("#c8102e", ["red"]), ("#f5f5f0", ["white", "ivory"]), ("#808000", ["olive"]),
            ("#000000", ["black"]), ("#ffffff", ["white"]), ("#808080", ["grey"]), ("#36454f", ["charcoal", "slate"]),
            ("#800020", ["burgundy"]), ("#ff7f50", ["coral"]), ("#40e0d0", ["turquoise"]), ("#b57edc", ["lavender", "lilac", "violet"]),
            ("#f5f5dc", ["beige", "cream", "ivory", "ecru"]), ("#c19a6b", ["camel"]), ("#d2b48c", ["tan"]), ("#ffd700", ["yellow", "gold"]),
            ("#ff69b4", ["hot pink"]), ("#4169e1", ["royal blue", "blue"]), ("#87ceeb", ["sky blue"]), ("#008080", ["teal"]),
        ]
        for (hexValue, expected) in names {
            let color = try XCTUnwrap(DominantColor(hex: hexValue))
            XCTAssertTrue(expected.contains(color.name), "\(hexValue) named \(color.name)")
        }
        let groups: [(String, LaundryColorGroup)] = [
            ("#f5f5f0", .whites), ("#ffffff", .whites), ("#1f2a44", .darks), ("#000000", .darks), ("#36454f", .darks),
            ("#800020", .darks), ("#f4c2c2", .pastels), ("#aec6e8", .pastels), ("#d3d3d3", .pastels), ("#00a86b", .vibrant),
            ("#c8102e", .vibrant), ("#ff7f00", .vibrant), ("#ffd700", .vibrant),
        ]
        for (hexValue, group) in groups {
            XCTAssertEqual(DominantColor(hex: hexValue)?.group, group, hexValue)
        }
        XCTAssertNil(DominantColor(hex: "#12345"))
        XCTAssertNil(DominantColor(hex: "#12345g"))
        XCTAssertEqual(DominantColor(hex: "C8102E")?.hex, "#c8102e")
    }

    func testNameTableIsUniqueAndEachEntryNamesItself() {
        let table = GarmentColors.namedColors
        XCTAssertTrue((60 ... 100).contains(table.count), "\(table.count) names")
        XCTAssertEqual(Set(table.map(\.name)).count, table.count)
        for entry in table { XCTAssertEqual(GarmentColors.colorName(of: entry.lab), entry.name) }
    }

    /// Test pairs from Sharma, Wu and Dalal (2005), table 1, to four decimals.
    func testCIEDE2000MatchesSharmasTestData() {
        typealias Lab = GarmentColors.Lab
        let pairs: [(Lab, Lab, Double)] = [
            (Lab(l: 50, a: 2.6772, b: -79.7751), Lab(l: 50, a: 0, b: -82.7485), 2.0425),
            (Lab(l: 50, a: -1.3802, b: -84.2814), Lab(l: 50, a: 0, b: -82.7485), 1.0000),
            (Lab(l: 50, a: 2.5, b: 0), Lab(l: 50, a: 0, b: -2.5), 4.3065),
            (Lab(l: 50, a: 2.5, b: 0), Lab(l: 73, a: 25, b: -18), 27.1492),
            (Lab(l: 50, a: 2.5, b: 0), Lab(l: 50, a: 3.1736, b: 0.5854), 1.0000),
            (Lab(l: 60.2574, a: -34.0099, b: 36.2677), Lab(l: 60.4626, a: -34.1751, b: 39.4387), 1.2644),
            (Lab(l: 22.7233, a: 20.0904, b: -46.6940), Lab(l: 23.0331, a: 14.9730, b: -42.5619), 2.0373),
            (Lab(l: 90.8027, a: -2.0831, b: 1.4410), Lab(l: 91.1528, a: -1.6435, b: 0.0447), 1.4441),
            (Lab(l: 2.0776, a: 0.0795, b: -1.1350), Lab(l: 0.9033, a: -0.0636, b: -0.5514), 0.9082),
        ]
        for (one, two, expected) in pairs {
            XCTAssertEqual(GarmentColors.deltaE2000(one, two), expected, accuracy: 0.0001, "\(one) \(two)")
            XCTAssertEqual(GarmentColors.deltaE2000(two, one), expected, accuracy: 0.0001, "symmetric")
        }
    }

    func testLabConversionMatchesReferenceAndRoundTrips() {
        // Reference values from the CIE formulas in double precision (colormath / skimage agree).
        let white = GarmentColors.Lab(red: 255, green: 255, blue: 255)
        XCTAssertEqual(white.l, 100, accuracy: 0.01)
        XCTAssertEqual(white.chroma, 0, accuracy: 0.02)
        let red = GarmentColors.Lab(red: 255, green: 0, blue: 0)
        XCTAssertEqual(red.l, 53.24, accuracy: 0.02)
        XCTAssertEqual(red.a, 80.09, accuracy: 0.05)
        XCTAssertEqual(red.b, 67.20, accuracy: 0.05)
        let grey = GarmentColors.Lab(red: 119, green: 119, blue: 119)
        XCTAssertEqual(grey.l, 50.03, accuracy: 0.02)
        var random = SplitMix64(seed: 1)
        for _ in 0 ..< 2000 {
            let bits = random.next()
            let (r, g, b) = (UInt8(truncatingIfNeeded: bits >> 24), UInt8(truncatingIfNeeded: bits >> 32), UInt8(truncatingIfNeeded: bits >> 40))
            let back = GarmentColors.Lab(red: r, green: g, blue: b).rgb
            XCTAssertTrue(back == (r, g, b), "\(r),\(g),\(b) came back as \(back)")
        }
    }

    // MARK: Helpers

    func hex(_ value: UInt32) -> String { DominantColor(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xff), blue: UInt8(value & 0xff)).hex }

    /// ΔE*ab (CIE76) between a reported "#rrggbb" and a true colour.
    func deltaE(_ hexValue: String, _ truth: UInt32) -> Double {
        guard let value = UInt32(hexValue.dropFirst(), radix: 16) else { return .infinity }
        func lab(_ v: UInt32) -> GarmentColors.Lab { GarmentColors.Lab(red: UInt8(v >> 16), green: UInt8((v >> 8) & 0xff), blue: UInt8(v & 0xff)) }
        let (p, q) = (lab(value), lab(truth))
        return ((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b)).squareRoot()
    }

    func assertBackdropNotReported(_ reading: GarmentColors, backdrop: UInt32, _ label: String, line: UInt = #line) {
        for color in reading.colors {
            XCTAssertGreaterThan(deltaE(color.hex, backdrop), 10, "\(label): the backdrop reported as \(color.hex) \(color.share)", line: line)
        }
    }
}

extension GarmentColorsTests {
    /// Results gathered from concurrent workers.
    final class ConcurrentResults: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [GarmentColors] = []
        func append(_ item: GarmentColors) { lock.lock(); items.append(item); lock.unlock() }
        var all: [GarmentColors] { lock.lock(); defer { lock.unlock() }; return items }
    }

    /// Garment photos drawn in code: a T-shirt outline (body, sleeves, neckline) filling about a
    /// third of a 384×512 frame, in one colour or horizontal stripes, on a plain backdrop or a
    /// busy one of random 24-pixel blocks; then ±4 levels of noise per sample and a ±3% lighting
    /// gradient from top to bottom, as a phone photo of a garment on a sweep shows.
    enum SyntheticPhoto {
        enum Backdrop {
            case plain(UInt32)
            case busy
        }

        /// The photo, and the true share of each garment colour among the garment's pixels.
        struct Photo {
            var image: Image
            var shares: [Double]
        }

        /// The outline, as fractions of the width and height, clockwise from the left shoulder.
        static let tee: [(Double, Double)] = [
            (0.32, 0.14), (0.42, 0.11), (0.50, 0.15), (0.58, 0.11), (0.68, 0.14), (0.86, 0.32), (0.76, 0.40),
            (0.70, 0.33), (0.71, 0.86), (0.29, 0.86), (0.30, 0.33), (0.24, 0.40), (0.14, 0.32),
        ]

        /// `garment` empty draws no garment (the backdrop alone). `stripeWidths[i]` is how many rows
        /// of colour i each period of stripes has.
        static func make(width: Int = 384, height: Int = 512, backdrop: Backdrop, garment: [UInt32],
                         stripeWidths: [Int]? = nil, shiftDown: Double = 0, objects: [(x: ClosedRange<Double>, y: ClosedRange<Double>, color: UInt32)] = [],
                         seed: UInt64) -> Photo {
            var random = SplitMix64(seed: seed)
            let outline = tee.map { (Double(width) * $0.0, Double(height) * ($0.1 + shiftDown)) }
            let widths = stripeWidths ?? [Int](repeating: 1, count: max(1, garment.count))
            let period = widths.reduce(0, +)
            var counts = [Int](repeating: 0, count: garment.count)
            let blockColours = (0 ..< 1024).map { _ in UInt32(truncatingIfNeeded: random.next() & 0xffffff) }
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            for y in 0 ..< height {
                let light = 0.97 + 0.06 * Double(y) / Double(height - 1)
                // The outline's crossings of this row (even-odd rule at pixel centres).
                let cy = Double(y) + 0.5
                var crossings: [Double] = []
                for i in outline.indices {
                    let (a, b) = (outline[i], outline[(i + 1) % outline.count])
                    if (a.1 <= cy) != (b.1 <= cy) { crossings.append(a.0 + (cy - a.1) / (b.1 - a.1) * (b.0 - a.0)) }
                }
                crossings.sort()
                var stripe = 0, offset = y % period
                while offset >= widths[stripe] { offset -= widths[stripe]; stripe += 1 }
                var passed = 0
                for x in 0 ..< width {
                    let cx = Double(x) + 0.5
                    while passed < crossings.count && crossings[passed] < cx { passed += 1 }
                    let inside = !garment.isEmpty && passed % 2 == 1
                    var colour: UInt32
                    if inside {
                        colour = garment[stripe]
                        counts[stripe] += 1
                    } else if let object = objects.first(where: { $0.x.contains(cx / Double(width)) && $0.y.contains(cy / Double(height)) }) {
                        colour = object.color
                    } else {
                        switch backdrop {
                        case .plain(let value): colour = value
                        case .busy: colour = blockColours[(y / 24 * 37 + x / 24 * 11) % blockColours.count]
                        }
                    }
                    for c in 0 ..< 3 {
                        let level = Double((colour >> (16 - 8 * UInt32(c))) & 0xff)
                        let noise = Double(Int(random.next() % 9) - 4)
                        pixels[(y * width + x) * 3 + c] = UInt8(max(0, min(255, (level * light + noise).rounded())))
                    }
                }
            }
            let total = max(1, counts.reduce(0, +))
            return Photo(image: Image(width: width, height: height, channels: 3, pixels: pixels), shares: counts.map { Double($0) / Double(total) })
        }
    }
}
