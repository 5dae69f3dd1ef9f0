import AtelierFormats
import AtelierReconstruction
import Foundation
import XCTest

final class QuadricSimplifierTests: XCTestCase {
    /// A closed unit sphere: `rings` latitude bands of `segments` quads, poles as single vertices.
    static func sphere(rings: Int = 20, segments: Int = 40) -> TexturedMesh {
        var positions: [SIMD3<Float>] = [[0, 1, 0]], triangles: [SIMD3<UInt32>] = []
        for r in 1 ..< rings {
            let theta = Float.pi * Float(r) / Float(rings)
            for s in 0 ..< segments {
                let phi = 2 * Float.pi * Float(s) / Float(segments)
                positions.append([sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi)])
            }
        }
        positions.append([0, -1, 0])
        func ring(_ r: Int, _ s: Int) -> UInt32 { UInt32(1 + (r - 1) * segments + (s % segments)) }
        let south = UInt32(positions.count - 1)
        for s in 0 ..< segments {
            triangles.append([0, ring(1, s + 1), ring(1, s)])
            triangles.append([south, ring(rings - 1, s), ring(rings - 1, s + 1)])
        }
        for r in 1 ..< rings - 1 {
            for s in 0 ..< segments {
                triangles.append([ring(r, s), ring(r, s + 1), ring(r + 1, s + 1)])
                triangles.append([ring(r, s), ring(r + 1, s + 1), ring(r + 1, s)])
            }
        }
        return TexturedMesh(positions: positions, triangles: triangles)
    }

    /// Each undirected edge of the mesh with the number of faces on it.
    static func edgeUse(_ mesh: TexturedMesh) -> [Int64: Int] {
        var use: [Int64: Int] = [:]
        for t in mesh.triangles {
            for (a, b) in [(t.x, t.y), (t.y, t.z), (t.z, t.x)] { use[Int64(min(a, b)) << 32 | Int64(max(a, b)), default: 0] += 1 }
        }
        return use
    }

    func testSphereStaysAClosedSphere() {
        let sphere = Self.sphere()
        XCTAssertEqual(sphere.triangles.count, 1520)
        let simple = QuadricSimplifier.simplify(sphere, targetTriangles: 300)
        XCTAssertLessThanOrEqual(simple.triangles.count, 300)
        XCTAssertGreaterThan(simple.triangles.count, 250)
        XCTAssertNil(simple.inconsistency)
        XCTAssertTrue(Self.edgeUse(simple).values.allSatisfy { $0 == 2 }, "still closed and manifold")
        let radii = simple.positions.map { (($0 * $0).sum()).squareRoot() }
        XCTAssertLessThan(radii.map { abs($0 - 1) }.max()!, 0.03)
        // Faces still point outwards.
        for t in simple.triangles {
            let a = simple.positions[Int(t.x)], b = simple.positions[Int(t.y)], c = simple.positions[Int(t.z)]
            let n = SIMD3<Float>((b - a).y * (c - a).z - (b - a).z * (c - a).y, (b - a).z * (c - a).x - (b - a).x * (c - a).z,
                                 (b - a).x * (c - a).y - (b - a).y * (c - a).x)
            XCTAssertGreaterThan((n * (a + b + c)).sum(), 0)
        }
    }

    /// A flat square grid with texture coordinates: it collapses to a handful of triangles, keeps
    /// its outline (corners and bounds) and its texture mapping (u = x, v = z everywhere).
    func testFlatGridKeepsItsOutlineAndTextureMapping() {
        let n = 12
        var positions: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = [], triangles: [SIMD3<UInt32>] = []
        for j in 0 ... n {
            for i in 0 ... n {
                positions.append([Float(i) / Float(n), 0, Float(j) / Float(n)])
                uvs.append([Float(i) / Float(n), Float(j) / Float(n)])
            }
        }
        for j in 0 ..< n {
            for i in 0 ..< n {
                let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1), d = c + 1
                triangles.append([a, c, b]); triangles.append([b, c, d])
            }
        }
        let grid = TexturedMesh(positions: positions, textureCoordinates: uvs, triangles: triangles)
        let simple = QuadricSimplifier.simplify(grid, targetTriangles: 20)
        XCTAssertLessThanOrEqual(simple.triangles.count, 60)
        XCTAssertNil(simple.inconsistency)
        XCTAssertEqual(simple.bounds.minimum, [0, 0, 0])
        XCTAssertEqual(simple.bounds.maximum, [1, 0, 1])
        for (p, uv) in zip(simple.positions, simple.textureCoordinates) {
            XCTAssertEqual(p.x, uv.x, accuracy: 1e-5)
            XCTAssertEqual(p.z, uv.y, accuracy: 1e-5)
            XCTAssertEqual(p.y, 0, accuracy: 1e-6)
        }
        // Every boundary edge lies on the square's outline.
        for (key, count) in Self.edgeUse(simple) where count == 1 {
            let a = simple.positions[Int(key >> 32)], b = simple.positions[Int(key & 0xFFFF_FFFF)]
            let onOutline = (a.x == b.x && (a.x == 0 || a.x == 1)) || (a.z == b.z && (a.z == 0 || a.z == 1))
            XCTAssertTrue(onOutline, "\(a) – \(b)")
        }
    }

    func testNothingToDoReturnsTheMesh() {
        let sphere = Self.sphere(rings: 4, segments: 6)
        XCTAssertEqual(QuadricSimplifier.simplify(sphere, targetTriangles: 10_000), sphere)
    }
}
