import AtelierSynthetic
import XCTest

/// The garment mesh: size, topology, orientation and texture coordinates.
final class DrapedGarmentTests: XCTestCase {
    static let mesh = DrapedGarment().mesh(seed: 1)

    func testDefaultGarmentHasRealWorldSizeAndStandsOnTheGround() {
        let mesh = Self.mesh
        XCTAssertTrue((20_000 ... 100_000).contains(mesh.triangles.count), "\(mesh.triangles.count) triangles")
        let box = mesh.boundingBox
        XCTAssertTrue((0.5 ... 0.7).contains(box.size.x), "width \(box.size.x) m")
        XCTAssertTrue((0.35 ... 0.7).contains(box.size.z), "depth \(box.size.z) m")
        XCTAssertTrue((0.55 ... 0.75).contains(box.size.y), "height \(box.size.y) m")
        XCTAssertGreaterThan(box.min.y, 0, "the hem must stay above the ground plane")
        XCTAssertLessThan(box.min.y, 0.02, "the hem should nearly touch the ground")
        XCTAssertEqual(box.centre.x, 0, accuracy: 0.03)
        XCTAssertEqual(box.centre.z, 0, accuracy: 0.03)
    }

    func testSurfaceIsAManifoldOpenOnlyAtTheHem() {
        let mesh = Self.mesh
        var edges: [UInt64: Int] = [:]
        for t in mesh.triangles {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                let key = UInt64(min(a, b)) << 32 | UInt64(max(a, b))
                edges[key, default: 0] += 1
            }
        }
        XCTAssertTrue(edges.values.allSatisfy { $0 <= 2 }, "an edge is shared by more than two triangles")
        let boundary = edges.filter { $0.value == 1 }.keys
        XCTAssertEqual(boundary.count, DrapedGarment().segments, "one boundary loop, the hem")
        for key in boundary {
            XCTAssertLessThan(mesh.positions[Int(key >> 32)].y, 0.05)
            XCTAssertLessThan(mesh.positions[Int(key & 0xFFFF_FFFF)].y, 0.05)
        }
        // Consistent winding: every interior edge is used once in each direction.
        var directed = Set<UInt64>()
        for t in Self.mesh.triangles {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                XCTAssertTrue(directed.insert(UInt64(a) << 32 | UInt64(b)).inserted, "edge \(a)→\(b) appears twice in one direction")
            }
        }
    }

    func testNormalsPointOutwards() {
        let mesh = Self.mesh
        var sides = 0, outwards = 0, tops = 0, upwards = 0
        for (p, n) in zip(mesh.positions, mesh.normals) {
            XCTAssertEqual(Double((n.x * n.x + n.y * n.y + n.z * n.z).squareRoot()), 1, accuracy: 1e-4)
            if p.y < 0.4 {
                sides += 1
                if n.x * p.x + n.z * p.z > 0 { outwards += 1 }
            } else if p.x * p.x + p.z * p.z < 0.01 {
                tops += 1
                if n.y > 0 { upwards += 1 }
            }
        }
        XCTAssertGreaterThan(Double(outwards), 0.97 * Double(sides))
        XCTAssertEqual(upwards, tops)
    }

    func testTextureCoordinatesStayInsideTheTextureAndWrapWithoutASeam() {
        let mesh = Self.mesh
        for uv in mesh.uvs {
            XCTAssertTrue((0.005 ... 0.995).contains(uv.x) && (0.005 ... 0.995).contains(uv.y), "uv \(uv)")
        }
        // Neighbouring vertices have neighbouring coordinates everywhere, across θ = 0 too.
        for t in mesh.triangles {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] {
                let d = mesh.uvs[Int(a)] - mesh.uvs[Int(b)]
                XCTAssertLessThan((d.x * d.x + d.y * d.y).squareRoot(), 0.05)
            }
        }
    }

    func testFoldsDependOnTheSeedAndOnlyOnTheSeed() {
        var garment = DrapedGarment()
        garment.rings = 24
        garment.segments = 48
        XCTAssertEqual(garment.mesh(seed: 4).positions, garment.mesh(seed: 4).positions)
        XCTAssertNotEqual(garment.mesh(seed: 4).positions, garment.mesh(seed: 5).positions)
    }

    func testOcclusionDarkensTheHollowsOfTheFolds() {
        let occlusion = Self.mesh.occlusion
        XCTAssertTrue(occlusion.allSatisfy { (0.55 ... 1).contains($0) })
        let hollows = occlusion.filter { $0 < 0.95 }.count
        XCTAssertGreaterThan(hollows, occlusion.count / 50, "folds should leave some hollows")
        XCTAssertGreaterThan(occlusion.reduce(0, +) / Float(occlusion.count), 0.9)
    }

    func testInvalidDimensionsAreRefused() {
        var garment = DrapedGarment()
        garment.hemHeightMetres = 0.7
        XCTAssertThrowsError(try garment.validate())
        garment = DrapedGarment()
        garment.rings = 2
        XCTAssertThrowsError(try garment.validate())
        XCTAssertNoThrow(try DrapedGarment().validate())
    }
}
