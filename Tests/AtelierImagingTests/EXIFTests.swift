import Foundation
import XCTest
@testable import AtelierImaging

/// `EXIF.read` against an independent reader: exiftool writes the tags into a real JPEG or PNG,
/// then its own `-j -n` reading of the same file is what our reader must find, field by field.
final class EXIFExiftoolTests: XCTestCase {
    struct Case {
        var name: String
        var png = false
        var arguments: [String]
    }

    static func everything(_ byteOrder: String, offset: String = "+01:00") -> [String] {
        ["-ExifByteOrder=\(byteOrder)", "-EXIF:Orientation#=6", "-EXIF:DateTimeOriginal=2026:11:21 10:15:00",
         "-EXIF:OffsetTimeOriginal=\(offset)", "-EXIF:Make=Atelier Optics", "-EXIF:Model=AO-1 Mark II",
         "-EXIF:FocalLength=4.25", "-EXIF:FocalLengthIn35mmFormat=26", "-EXIF:ExposureTime=0.01", "-EXIF:FNumber=1.8",
         "-EXIF:ISO=100", "-EXIF:LensModel=AO 4.25mm f/1.8", "-EXIF:ExifImageWidth=4032", "-EXIF:ExifImageHeight=3024"]
    }

    static let cases: [Case] = [
        Case(name: "everything-MM", arguments: everything("MM")),
        Case(name: "everything-II", arguments: everything("II", offset: "-05:30")),
    ] + (1 ... 8).map { orientation in
        Case(name: "orientation-\(orientation)", arguments: [
            "-ExifByteOrder=\(orientation % 2 == 0 ? "II" : "MM")", "-EXIF:Orientation#=\(orientation)", "-EXIF:Model=Turn \(orientation)",
            "-EXIF:ExifImageWidth=\(300 + orientation)", "-EXIF:ExifImageHeight=200"])
    } + [
        Case(name: "ifd0-only", arguments: ["-ExifByteOrder=II", "-EXIF:Make=OnlyMake"]),
        Case(name: "exif-ifd-only", arguments: ["-ExifByteOrder=MM", "-EXIF:LensModel=Lens Only", "-EXIF:ISO=800"]),
        Case(name: "date-falls-back-to-DateTime", arguments: [
            "-ExifByteOrder=II", "-EXIF:ModifyDate=2025:01:02 03:04:05", "-EXIF:OffsetTime=-05:30"]),
        Case(name: "original-date-wins-no-offset", arguments: [
            "-ExifByteOrder=MM", "-EXIF:ModifyDate=2025:01:02 03:04:05", "-EXIF:DateTimeOriginal=2024:02:29 23:59:59"]),
        Case(name: "35mm-from-focal-plane-cm", arguments: [
            "-ExifByteOrder=II", "-EXIF:FocalLength=5.2", "-EXIF:FocalPlaneXResolution=2000", "-EXIF:FocalPlaneYResolution=2000",
            "-EXIF:FocalPlaneResolutionUnit#=3", "-EXIF:ExifImageWidth=4000", "-EXIF:ExifImageHeight=3000"]),
        Case(name: "35mm-from-focal-plane-inch", arguments: [
            "-ExifByteOrder=MM", "-EXIF:FocalLength=24", "-EXIF:FocalPlaneXResolution=5000", "-EXIF:FocalPlaneYResolution=5000",
            "-EXIF:FocalPlaneResolutionUnit#=2", "-EXIF:ExifImageWidth=6000", "-EXIF:ExifImageHeight=4000"]),
        Case(name: "35mm-from-focal-plane-mm-unequal", arguments: [
            "-ExifByteOrder=II", "-EXIF:FocalLength=3.99", "-EXIF:FocalPlaneXResolution=250", "-EXIF:FocalPlaneYResolution=200",
            "-EXIF:FocalPlaneResolutionUnit#=4", "-EXIF:ExifImageWidth=1600", "-EXIF:ExifImageHeight=1200"]),
        Case(name: "35mm-from-focal-plane-no-y-no-unit", arguments: [
            "-ExifByteOrder=MM", "-EXIF:FocalLength=50", "-EXIF:FocalPlaneXResolution=1000",
            "-EXIF:ExifImageWidth=3000", "-EXIF:ExifImageHeight=2000"]),
        Case(name: "35mm-zero-means-unknown", arguments: [
            "-ExifByteOrder=II", "-EXIF:FocalLength=8", "-EXIF:FocalLengthIn35mmFormat=0", "-EXIF:FocalPlaneXResolution=3000",
            "-EXIF:FocalPlaneYResolution=3000", "-EXIF:FocalPlaneResolutionUnit#=2", "-EXIF:ExifImageWidth=3264", "-EXIF:ExifImageHeight=2448"]),
        Case(name: "35mm-focal-plane-without-dimensions", arguments: [
            "-ExifByteOrder=MM", "-EXIF:FocalLength=8", "-EXIF:FocalPlaneXResolution=3000", "-EXIF:FocalPlaneResolutionUnit#=2"]),
        Case(name: "exposure-and-saturated-iso", arguments: [
            "-ExifByteOrder=MM", "-EXIF:ExposureTime=0.000125", "-EXIF:FNumber=22", "-EXIF:ISO=65535", "-EXIF:ISOSpeed=102400"]),
        Case(name: "long-exposure", arguments: ["-ExifByteOrder=II", "-EXIF:ExposureTime=2.5", "-EXIF:FNumber=5.6", "-EXIF:ISO=64"]),
        Case(name: "padded-and-utf8-strings", arguments: [
            "-ExifByteOrder=II", "-EXIF:Make=  Padded Maker  ", "-EXIF:Model=Café Modèle", "-EXIF:LensModel=Wide   "]),
        Case(name: "png-everything-MM", png: true, arguments: everything("MM")),
        Case(name: "png-orientation-II", png: true, arguments: ["-ExifByteOrder=II", "-EXIF:Orientation#=8", "-EXIF:Make=PNG Maker"]),
    ]

    func testAgreesWithExiftoolFieldByField() throws {
        guard let exiftool = Self.executable("exiftool") else {
            return XCTFail("exiftool is needed for this test: apt-get install libimage-exiftool-perl")
        }
        let dir = NSTemporaryDirectory() + "atelier-exif-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }

        // One exiftool process writes every file (argument groups separated by -execute), one reads them all.
        var writeArguments: [String] = []
        var paths: [String] = []
        for (index, testCase) in Self.cases.enumerated() {
            let path = dir + "/\(index)-\(testCase.name).\(testCase.png ? "png" : "jpg")"
            let base = testCase.png ? EXIFFixtures.png(exif: nil) : EXIFFixtures.tinyJPEG
            try Data(base).write(to: URL(fileURLWithPath: path))
            writeArguments += ["-overwrite_original"] + testCase.arguments + [path, "-execute"]
            paths.append(path)
        }
        let argumentFile = dir + "/arguments"
        try writeArguments.joined(separator: "\n").write(toFile: argumentFile, atomically: true, encoding: .utf8)
        let written = try Self.run(exiftool, ["-q", "-@", argumentFile])
        XCTAssertEqual(written.status, 0, "exiftool could not write the test files: \(written.err)")

        let reading = try Self.run(exiftool, ["-j", "-n", "-EXIF:all", "-Composite:ScaleFactor35efl", "-Composite:FocalLength35efl"] + paths)
        XCTAssertEqual(reading.status, 0, reading.err)
        let objects = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reading.out.utf8)) as? [[String: Any]])
        let bySource = Dictionary(objects.map { ($0["SourceFile"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })

        var compared = 0
        for (index, testCase) in Self.cases.enumerated() {
            let json = try XCTUnwrap(bySource[paths[index]], "exiftool did not read \(testCase.name)")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: paths[index])))
            let actual = EXIF.read(bytes)
            let expected = Self.expected(from: json)
            XCTAssertNotNil(expected, "\(testCase.name): exiftool found no EXIF; the case tests nothing")
            Self.assertSame(actual, expected, testCase.name)
            compared += 1
        }
        XCTAssertEqual(compared, Self.cases.count)

        // The comparison must not be vacuous: spot-check values the cases wrote.
        func metadata(_ name: String) throws -> EXIFMetadata? {
            let index = try XCTUnwrap(Self.cases.firstIndex { $0.name == name })
            return EXIF.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: paths[index]))))
        }
        let everything = try metadata("everything-MM")
        XCTAssertEqual(everything?.orientation, 6)
        XCTAssertEqual(everything?.dateTimeOriginal, "2026-11-21T10:15:00+01:00")
        XCTAssertEqual(everything?.make, "Atelier Optics")
        XCTAssertEqual(everything?.focalLength35mmMillimetres, 26)
        XCTAssertEqual(everything?.isoSpeed, 100)
        XCTAssertEqual(everything?.pixelWidth, 4032)
        // A 20 × 15 mm sensor: 5.2 mm × 43.267 / 25.
        let derived = try metadata("35mm-from-focal-plane-cm")?.focalLength35mmMillimetres
        let fullFrameDiagonal: Double = (36.0 * 36.0 + 24.0 * 24.0).squareRoot()
        XCTAssertEqual(derived ?? 0, 5.2 * fullFrameDiagonal / 25.0, accuracy: 1e-9)
        XCTAssertEqual(try metadata("date-falls-back-to-DateTime")?.dateTimeOriginal, "2025-01-02T03:04:05-05:30")
        XCTAssertEqual(try metadata("exposure-and-saturated-iso")?.isoSpeed, 102400)
        XCTAssertEqual(try metadata("padded-and-utf8-strings")?.model, "Café Modèle")
        XCTAssertEqual(try metadata("png-orientation-II")?.orientation, 8)
    }

    /// What our reader should report, computed from exiftool's JSON (`-n`: raw values).
    static func expected(from json: [String: Any]) -> EXIFMetadata? {
        func number(_ key: String) -> Double? { (json[key] as? NSNumber)?.doubleValue }
        func integer(_ key: String) -> Int? { number(key).map { Int($0) } }
        func text(_ key: String) -> String? {
            guard let value = json[key] else { return nil }
            let trimmed = "\(value)".trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty ? nil : trimmed
        }
        func iso8601(_ date: String?, _ offset: String?) -> String? {
            guard let date else { return nil }
            var characters = Array(date)
            characters[4] = "-"; characters[7] = "-"; characters[10] = "T"
            return String(characters) + (offset ?? "")
        }
        var metadata = EXIFMetadata()
        metadata.orientation = integer("Orientation").flatMap { (1 ... 8).contains($0) ? $0 : nil }
        metadata.dateTimeOriginal = iso8601(text("DateTimeOriginal"), text("OffsetTimeOriginal"))
            ?? iso8601(text("ModifyDate"), text("OffsetTime"))
        metadata.make = text("Make")
        metadata.model = text("Model")
        metadata.lensModel = text("LensModel")
        metadata.focalLengthMillimetres = number("FocalLength")
        if let recorded = number("FocalLengthIn35mmFormat"), recorded > 0 {
            metadata.focalLength35mmMillimetres = recorded
        } else if number("ScaleFactor35efl") != nil {
            // Without a scale factor exiftool reports FocalLength35efl = FocalLength; we report nothing.
            metadata.focalLength35mmMillimetres = number("FocalLength35efl")
        }
        metadata.exposureTimeSeconds = number("ExposureTime")
        metadata.fNumber = number("FNumber")
        if let iso = integer("ISO"), iso < 65535 {
            metadata.isoSpeed = iso
        } else {
            metadata.isoSpeed = integer("ISOSpeed") ?? integer("RecommendedExposureIndex") ?? integer("ISO")
        }
        metadata.pixelWidth = integer("ExifImageWidth")
        metadata.pixelHeight = integer("ExifImageHeight")
        return metadata.isEmpty ? nil : metadata
    }

    /// Field by field, doubles to 1e-9 relative (exiftool prints 15 significant digits).
    static func assertSame(_ actual: EXIFMetadata?, _ expected: EXIFMetadata?, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let actual, let expected else {
            return XCTAssertEqual(actual, expected, name, file: file, line: line)
        }
        XCTAssertEqual(actual.orientation, expected.orientation, "\(name): orientation", file: file, line: line)
        XCTAssertEqual(actual.dateTimeOriginal, expected.dateTimeOriginal, "\(name): dateTimeOriginal", file: file, line: line)
        XCTAssertEqual(actual.make, expected.make, "\(name): make", file: file, line: line)
        XCTAssertEqual(actual.model, expected.model, "\(name): model", file: file, line: line)
        XCTAssertEqual(actual.lensModel, expected.lensModel, "\(name): lensModel", file: file, line: line)
        XCTAssertEqual(actual.isoSpeed, expected.isoSpeed, "\(name): isoSpeed", file: file, line: line)
        XCTAssertEqual(actual.pixelWidth, expected.pixelWidth, "\(name): pixelWidth", file: file, line: line)
        XCTAssertEqual(actual.pixelHeight, expected.pixelHeight, "\(name): pixelHeight", file: file, line: line)
        let doubles: [(String, Double?, Double?)] = [
            ("focalLengthMillimetres", actual.focalLengthMillimetres, expected.focalLengthMillimetres),
            ("focalLength35mmMillimetres", actual.focalLength35mmMillimetres, expected.focalLength35mmMillimetres),
            ("exposureTimeSeconds", actual.exposureTimeSeconds, expected.exposureTimeSeconds),
            ("fNumber", actual.fNumber, expected.fNumber),
        ]
        for (field, a, e) in doubles {
            if let a, let e {
                XCTAssertEqual(a, e, accuracy: 1e-9 * max(1, abs(e)), "\(name): \(field)", file: file, line: line)
            } else {
                XCTAssertEqual(a, e, "\(name): \(field)", file: file, line: line)
            }
        }
    }

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe cannot block exiftool.
        let errData = SendableBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData.data = err.fileHandleForReading.readDataToEndOfFile() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData.data, as: UTF8.self))
    }

    final class SendableBox: @unchecked Sendable {
        var data = Data()
    }
}
