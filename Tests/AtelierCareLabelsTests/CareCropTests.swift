import AtelierImaging
import AtelierWardrobe
import Foundation
import XCTest
@testable import AtelierCareLabels

/// The networks see at run time what they were trained on: CareCrop cuts and levels pixels as
/// training/care/data.py does (the fixture is that code's output, Support/make_crop_fixture.py).
final class CareCropTests: XCTestCase {
    struct Fixture: Decodable {
        struct Case: Decodable {
            let box: [Double]
            let crop: [UInt8]
            let normalized: [Float]
        }
        struct Scaled: Decodable {
            let factor: Double
            let width, height: Int
            let pixels: [UInt8]
            let normalized: [Float]
        }
        let width, height, size: Int
        let pixels: [UInt8]
        let cases: [Case]
        let scaled: Scaled
    }

    static func fixture() throws -> Fixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/crop-fixture.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    func testCropsMatchTheTrainingCode() throws {
        let f = try Self.fixture()
        let image = Image(width: f.width, height: f.height, channels: 1, pixels: f.pixels)
        for c in f.cases {
            let box = SymbolBox(x: c.box[0], y: c.box[1], width: c.box[2], height: c.box[3])
            let crop = CareCrop.resample(image, CareCrop.square(around: box), width: f.size, height: f.size)
            let worst = zip(crop, c.crop).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "box \(c.box): at most a rounding tie apart")
            XCTAssertGreaterThan(zip(crop, c.crop).filter { $0 == $1 }.count, crop.count * 99 / 100, "box \(c.box)")
            let levelled = CareCrop.normalizedCrop(c.crop)
            XCTAssertEqual(levelled.count, c.normalized.count)
            for (a, b) in zip(levelled, c.normalized) { XCTAssertEqual(a, b, accuracy: 1e-5, "box \(c.box)") }
        }
    }

    func testPyramidLevelMatchesTheTrainingCode() throws {
        let f = try Self.fixture()
        let image = Image(width: f.width, height: f.height, channels: 1, pixels: f.pixels)
        let level = CareCrop.resample(image, PixelRegion(x0: 0, y0: 0, x1: Double(f.width), y1: Double(f.height)),
                                      width: f.scaled.width, height: f.scaled.height)
        XCTAssertLessThanOrEqual(zip(level, f.scaled.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0, 1)
        for (a, b) in zip(CareCrop.normalizedImage(f.scaled.pixels), f.scaled.normalized) { XCTAssertEqual(a, b, accuracy: 1e-5) }
    }

    func testABlankCropStaysFlatAndInkEndsUpDark() {
        let blank = [UInt8](repeating: 200, count: 48 * 48)
        XCTAssertEqual(Set(CareCrop.normalizedCrop(blank)).count, 1)
        // Light ink on a dark label is turned round: the background (the median) becomes light.
        var crop = [UInt8](repeating: 30, count: 48 * 48)
        for i in 0 ..< 48 { crop[20 * 48 + i] = 220 }
        let levelled = CareCrop.normalizedCrop(crop)
        XCTAssertEqual(levelled[0], 1, accuracy: 1e-6)
        XCTAssertEqual(levelled[20 * 48 + 5], 0, accuracy: 1e-6)
    }

    func testReadingOrderIsRowsThenLeftToRight() {
        let boxes = [SymbolBox(x: 300, y: 12, width: 50, height: 50), SymbolBox(x: 10, y: 100, width: 50, height: 50),
                     SymbolBox(x: 100, y: 0, width: 50, height: 50), SymbolBox(x: 10, y: 5, width: 50, height: 48),
                     SymbolBox(x: 90, y: 96, width: 50, height: 50)]
        let order = ReadingOrder.sorted(boxes) { $0 }
        XCTAssertEqual(order.map(\.x), [10, 100, 300, 10, 90])
    }

    func testAFindInsideALargerSymbolIsDroppedAndNeighboursStay() throws {
        func read(_ code: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double) throws -> ReadSymbol {
            ReadSymbol(symbol: try XCTUnwrap(CareSymbol.named(code)), confidence: 0.9, box: SymbolBox(x: x, y: y, width: w, height: h))
        }
        let symbols = [
            try read("iron-any", 110, 10, 60, 40),        // the iron of iron-no-steam, read alone
            try read("iron-no-steam", 100, 0, 80, 80),
            try read("wash-40", 0, 0, 105, 80),           // a neighbour overlapping the iron a little
            try read("bleach-any", 200, 5, 70, 70),
            try read("bleach-any", 205, 10, 66, 66),      // the same symbol found twice
        ]
        let kept = CareLabelReader.withoutNested(symbols)
        XCTAssertEqual(Set(kept.map(\.symbol.code)), ["iron-no-steam", "wash-40", "bleach-any"])
        XCTAssertEqual(kept.count, 3)
    }

    func testALabelMistakenForASymbolGoesAndItsSymbolsStay() throws {
        func read(_ code: String, _ confidence: Double, _ x: Double, _ y: Double, _ side: Double) throws -> ReadSymbol {
            ReadSymbol(symbol: try XCTUnwrap(CareSymbol.named(code)), confidence: confidence, box: SymbolBox(x: x, y: y, width: side, height: side))
        }
        // A square label read as a tumble-drying square, around three symbols a fiftieth its size.
        let label = try read("tumble-no-heat", 0.8, 0, 0, 560)
        let row = [try read("wash-40", 0.7, 40, 100, 80), try read("bleach-any", 0.9, 160, 100, 80), try read("dry-no", 0.95, 280, 100, 80)]
        XCTAssertEqual(Set(CareLabelReader.withoutNested([label] + row).map(\.symbol.code)), ["wash-40", "bleach-any", "dry-no"])
        // One small, less sure find inside a symbol stays a part of it; one as sure as the box wins.
        XCTAssertEqual(CareLabelReader.withoutNested([label, row[0]]).map(\.symbol.code), ["tumble-no-heat"])
        XCTAssertEqual(CareLabelReader.withoutNested([label, row[2]]).map(\.symbol.code), ["dry-no"])
    }

    func testOnlyACropShapedPhotoIsAlsoReadWhole() throws {
        // A square photo: the centred square's middle 80 %, so the classifier's crop is the photo.
        let square = try XCTUnwrap(CareLabelReader.wholeImageBox(width: 100, height: 100))
        XCTAssertEqual(CareCrop.square(around: square), PixelRegion(x0: 0, y0: 0, x1: 100, y1: 100))
        let tall = try XCTUnwrap(CareLabelReader.wholeImageBox(width: 60, height: 90))
        XCTAssertEqual(tall.width, 48, accuracy: 1e-9)
        XCTAssertEqual(tall.centreY, 45, accuracy: 1e-9)
        // A label photo is wider than a crop; a sliver is no photo of a symbol.
        XCTAssertNil(CareLabelReader.wholeImageBox(width: 1000, height: 400))
        XCTAssertNil(CareLabelReader.wholeImageBox(width: 5, height: 5))
    }
}
