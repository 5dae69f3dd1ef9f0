import AtelierGeometry
import AtelierRecords
import XCTest

final class SimilarityTransformTests: XCTestCase {
    /// A known similarity applied to scattered points is recovered exactly, poses included.
    func testRecoversAKnownSimilarity() throws {
        let rotation = Matrix3.rotation(vector: [0.3, -1.2, 2.0])
        let truth = SimilarityTransform(scale: 2.5, rotation: rotation, translation: [1, -2, 3])
        var random = SplitMix64(seed: 7)
        func next() -> Double { random.unit() - 0.5 }
        let source = (0 ..< 40).map { _ in SIMD3(next(), next(), next()) * 4 }
        let target = source.map(truth.apply)
        let found = try XCTUnwrap(SimilarityTransform.aligning(source, to: target))
        XCTAssertEqual(found.scale, 2.5, accuracy: 1e-12)
        XCTAssertLessThan(Matrix3.angleBetween(found.rotation, rotation), 1e-12)
        XCTAssertLessThan((found.translation - truth.translation).length, 1e-12)

        let pose = CameraPose(centre: [3, 1, -4], lookingAt: .zero)
        let moved = found.apply(pose)
        XCTAssertLessThan((moved.centre - truth.apply(pose.centre)).length, 1e-12)
        // A point seen by the pose lands at the same normalised image position after the move.
        let point = SIMD3<Double>(0.2, 0.1, -0.3)
        let before = pose.pointInCam(point), after = moved.pointInCam(truth.apply(point))
        XCTAssertEqual(before.x / before.z, after.x / after.z, accuracy: 1e-12)
        XCTAssertEqual(before.y / before.z, after.y / after.z, accuracy: 1e-12)
    }

    /// A half-turn, where naive methods based on the rotation's trace lose accuracy.
    func testHalfTurn() throws {
        let rotation = Matrix3.rotation(axis: [1, 1, 0], angleRadians: .pi)
        let source: [SIMD3<Double>] = [[1, 0, 0], [0, 2, 0], [0, 0, 3], [1, 1, 1]]
        let found = try XCTUnwrap(SimilarityTransform.aligning(source, to: source.map { rotation * $0 }))
        XCTAssertLessThan(Matrix3.angleBetween(found.rotation, rotation), 1e-12)
        XCTAssertEqual(found.scale, 1, accuracy: 1e-12)
    }

    func testDegenerateInputs() {
        XCTAssertNil(SimilarityTransform.aligning([[1, 2, 3], [1, 2, 3]], to: [[0, 0, 0], [1, 1, 1]]))
        XCTAssertNil(SimilarityTransform.aligning([[1, 2, 3], [1, 2, 3], [1, 2, 3]], to: [[0, 0, 0], [1, 1, 1], [2, 2, 2]]))
        // On one line: the rotation about it is not determined.
        XCTAssertNil(SimilarityTransform.aligning([[0, 0, 0], [1, 1, 1], [3, 3, 3]], to: [[0, 0, 0], [1, 0, 0], [3, 0, 0]]))
    }

    /// Without scale: the rigid motion, even when the target is the source scaled.
    func testRigidMotionKeepsTheScaleAtOne() throws {
        let source: [SIMD3<Double>] = [[1, 0, 0], [0, 2, 0], [0, 0, 3], [1, 1, 1]]
        let rotation = Matrix3.rotation(vector: [0.1, 0.2, 0.3])
        let found = try XCTUnwrap(SimilarityTransform.aligning(source, to: source.map { 2 * (rotation * $0) }, withScale: false))
        XCTAssertEqual(found.scale, 1)
        XCTAssertLessThan(Matrix3.angleBetween(found.rotation, rotation), 1e-12)
    }
}
