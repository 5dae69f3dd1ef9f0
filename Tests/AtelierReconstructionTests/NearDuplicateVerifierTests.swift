import AtelierImaging
@testable import AtelierReconstruction
import Foundation
import XCTest

/// The affine fit, and the verifier's verdicts on edited copies of a textured photo against a
/// different photo of the same kind.
final class NearDuplicateVerifierTests: XCTestCase {
    func testAffineFitRecoversAKnownMapAndRefusesCollinearPoints() throws {
        let truth = AffineTransform2D(a: 1.1 * cos(0.05), b: -1.1 * sin(0.05), c: 1.1 * sin(0.05), d: 1.1 * cos(0.05), tx: -0.05, ty: 0.02)
        let from: [SIMD2<Double>] = [[0.1, 0.2], [0.9, 0.1], [0.4, 0.7], [0.8, 0.6], [0.2, 0.5]]
        let fit = try XCTUnwrap(AffineTransform2D.fit(from: from, to: from.map(truth.apply)))
        for (got, want) in zip([fit.a, fit.b, fit.c, fit.d, fit.tx, fit.ty], [truth.a, truth.b, truth.c, truth.d, truth.tx, truth.ty]) {
            XCTAssertEqual(got, want, accuracy: 1e-12)
        }
        XCTAssertEqual(fit.rotationAngle, 0.05, accuracy: 1e-12)
        XCTAssertEqual(fit.singularValues.larger, 1.1, accuracy: 1e-12)
        XCTAssertEqual(fit.singularValues.smaller, 1.1, accuracy: 1e-12)
        let stretch = AffineTransform2D(a: 2, b: 0, c: 0, d: 0.5, tx: 0, ty: 0)
        XCTAssertEqual(stretch.singularValues.larger, 2, accuracy: 1e-12)
        XCTAssertEqual(stretch.singularValues.smaller, 0.5, accuracy: 1e-12)
        XCTAssertNil(AffineTransform2D.fit(from: [[0, 0], [1, 1], [2, 2]], to: [[0, 0], [1, 1], [2, 2]]))
        XCTAssertNil(AffineTransform2D.fit(from: [[0, 0], [1, 1]], to: [[0, 0], [1, 1]]))
    }

    func testRANSACFindsTheMapAmongOutliers() throws {
        let truth = AffineTransform2D(a: 0.9, b: 0.02, c: -0.02, d: 0.9, tx: 0.05, ty: 0.04)
        var state: UInt64 = 12345
        func unit() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var points1: [SIMD2<Double>] = [], points2: [SIMD2<Double>] = []
        for k in 0 ..< 100 {
            let p = SIMD2(Double(k % 10) / 10 + 0.03, Double(k / 10) / 10 + 0.07)
            points1.append(p)
            points2.append(k % 3 == 0 ? SIMD2(unit(), unit()) : truth.apply(p))
        }
        let result = try XCTUnwrap(RANSAC.estimate(AffineProblem(points1: points1, points2: points2), options: RANSACOptions(maxResidual: 0.002)))
        XCTAssertGreaterThanOrEqual(result.inliers.count, 66)
        XCTAssertEqual(result.model.a, 0.9, accuracy: 1e-9)
        XCTAssertEqual(result.model.tx, 0.05, accuracy: 1e-9)
    }

    /// A photo-like texture: soft blobs of many sizes and greys, seeded.
    static func texture(seed: UInt64, width: Int = 480, height: Int = 360) -> Image {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func next() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state % 1_000_000) / 1_000_000
        }
        var field = [Double](repeating: 0.5, count: width * height)
        for _ in 0 ..< 260 {
            let cx = next() * Double(width), cy = next() * Double(height), r = 3 + next() * 22, v = next() - 0.5
            let x0 = max(0, Int(cx - 2 * r)), x1 = min(width - 1, Int(cx + 2 * r))
            let y0 = max(0, Int(cy - 2 * r)), y1 = min(height - 1, Int(cy + 2 * r))
            guard x0 <= x1, y0 <= y1 else { continue }
            for y in y0 ... y1 {
                for x in x0 ... x1 {
                    let d2 = (Double(x) - cx) * (Double(x) - cx) + (Double(y) - cy) * (Double(y) - cy)
                    field[y * width + x] += v * exp(-d2 / (2 * r * r))
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for k in 0 ..< width * height {
            let g = UInt8(max(0, min(255, field[k] * 255)))
            pixels[3 * k] = g
            pixels[3 * k + 1] = g &+ 10
            pixels[3 * k + 2] = g / 2
        }
        return Image(width: width, height: height, channels: 3, pixels: pixels)
    }

    private func write(_ image: Image, _ name: String, in directory: URL, quality: Int = 90) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(JPEG.encode(image, quality: quality)).write(to: url)
        return url.path
    }

    func testCropsAndResizesAreConfirmedAndADifferentPhotoIsRefuted() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("near-dup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = Self.texture(seed: 1)
        let (w, h) = (original.width, original.height)
        let paths = [
            try write(original, "original.jpg", in: directory),
            try write(original.cropped(x: w / 20, y: h / 20, width: w - w / 10, height: h - h / 10).resized(width: w, height: h), "crop5.jpg", in: directory),
            try write(original.cropped(x: w / 10, y: 0, width: w - w / 10, height: h), "crop-side.jpg", in: directory),
            try write(original.resized(width: w / 2, height: h / 2), "half.jpg", in: directory, quality: 60),
            try write(Self.texture(seed: 2), "other.jpg", in: directory),
            directory.appendingPathComponent("missing.jpg").path,
            directory.appendingPathComponent("fifo.jpg").path,  // opening it must not wait for a writer
        ]
        XCTAssertEqual(mkfifo(paths[6], 0o600), 0)
        let verifier = try NearDuplicateVerifier()
        let result = verifier.verify(pairs: [(0, 1), (0, 2), (0, 3), (0, 4), (1, 4), (0, 5), (6, 1)], paths: paths, threads: 2)
        XCTAssertEqual(result.verdicts, [true, true, true, false, false, nil, nil])
        XCTAssertEqual(result.unreadable, [5: "cannot read: No such file or directory", 6: "not a regular file"])
        XCTAssertEqual(result.features.keys.sorted(), [0, 1, 2, 3, 4])
    }

    func testAMirrorOrAQuarterTurnIsNotAnEdit() throws {
        let verifier = try NearDuplicateVerifier()
        XCTAssertFalse(verifier.isEdit(AffineTransform2D(a: -1, b: 0, c: 0, d: 1, tx: 1, ty: 0)))
        XCTAssertFalse(verifier.isEdit(AffineTransform2D(a: 0, b: -1, c: 1, d: 0, tx: 1, ty: 0)))
        XCTAssertFalse(verifier.isEdit(AffineTransform2D(a: 1.6, b: 0, c: 0, d: 0.8, tx: 0, ty: 0)))
        XCTAssertTrue(verifier.isEdit(AffineTransform2D(a: 1.11 * cos(0.06), b: -1.11 * sin(0.06), c: 1.11 * sin(0.06), d: 1.11 * cos(0.06), tx: -0.05, ty: -0.04)))
    }
}

/// The matcher's product through OpenBLAS, opened at run time, and through the portable loop.
final class RuntimeBLASTests: XCTestCase {
    func testOpenBLASIsFoundAndAgreesWithThePortableLoop() {
        XCTAssertTrue(RuntimeBLAS.usesOpenBLAS, "libopenblas.so.0 could not be opened (Debian: libopenblas0); matching falls back to the slower loop")
        let (rows, columns, depth) = (37, 53, 131)
        var state: UInt32 = 7
        func value() -> Float {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Float(state >> 8) / Float(1 << 24) - 0.5
        }
        let a = (0 ..< rows * depth).map { _ in value() }, b = (0 ..< columns * depth).map { _ in value() }
        var blas = [Float](repeating: .nan, count: rows * columns), portable = blas
        RuntimeBLAS.multiplyTransposed(a, b, into: &blas, rows: rows, columns: columns, depth: depth)
        RuntimeBLAS.portableMultiplyTransposed(a, b, into: &portable, rows: rows, columns: columns, depth: depth)
        for i in 0 ..< rows {
            for j in 0 ..< columns {
                let exact = (0 ..< depth).reduce(0.0) { $0 + Double(a[i * depth + $1]) * Double(b[j * depth + $1]) }
                XCTAssertEqual(Double(blas[i * columns + j]), exact, accuracy: 1e-4)
                XCTAssertEqual(Double(portable[i * columns + j]), exact, accuracy: 1e-4)
            }
        }
    }
}
