import AtelierFormats
import Foundation

/// How much of a mesh can be seen from outside it (issue 27's measure of hidden surfaces): a
/// point on a face is visible when at least one ray from it, among `directions` spread evenly
/// over the sphere, leaves the mesh's bounds without hitting another face. Test support with its
/// own uniform-grid ray caster (Amanatides–Woo traversal, Möller–Trumbore triangle tests), sharing
/// nothing with the code it measures.
struct OutsideVisibility {
    let positions: [SIMD3<Double>]
    let triangles: [SIMD3<Int>]
    let lower: SIMD3<Double>, cell: Double
    let counts: SIMD3<Int>
    var cells: [[Int32]]

    init(_ mesh: TexturedMesh) {
        positions = mesh.positions.map { SIMD3<Double>($0) }
        triangles = mesh.triangles.map { SIMD3<Int>(Int($0.x), Int($0.y), Int($0.z)) }
        var lo = SIMD3<Double>(repeating: .infinity), hi = -lo
        for p in positions { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
        let size = hi - lo
        // About 8 triangles a cell on a surface: cells of a few mean edge lengths.
        let side = max(size.x, size.y, size.z)
        let n = max(4, min(128, Int((Double(triangles.count) / 2).squareRoot())))
        cell = side / Double(n) * 1.0001
        lower = lo - cell * 0.5
        counts = SIMD3<Int>(Int((size.x + cell) / cell) + 1, Int((size.y + cell) / cell) + 1, Int((size.z + cell) / cell) + 1)
        cells = Array(repeating: [], count: counts.x * counts.y * counts.z)
        for (t, tri) in triangles.enumerated() {
            let a = positions[tri.x], b = positions[tri.y], c = positions[tri.z]
            let l = cellOf(pointwiseMin(a, pointwiseMin(b, c))), h = cellOf(pointwiseMax(a, pointwiseMax(b, c)))
            for z in l.z ... h.z { for y in l.y ... h.y { for x in l.x ... h.x { cells[index(x, y, z)].append(Int32(t)) } } }
        }
    }

    func cellOf(_ p: SIMD3<Double>) -> SIMD3<Int> {
        let c = (p - lower) / cell
        return SIMD3(max(0, min(counts.x - 1, Int(c.x))), max(0, min(counts.y - 1, Int(c.y))), max(0, min(counts.z - 1, Int(c.z))))
    }

    func index(_ x: Int, _ y: Int, _ z: Int) -> Int { (z * counts.y + y) * counts.x + x }

    /// Directions spread evenly over the sphere (a Fibonacci lattice).
    static func directions(_ n: Int) -> [SIMD3<Double>] {
        let golden = Double.pi * (3 - 5.0.squareRoot())
        return (0 ..< n).map { i in
            let y = 1 - 2 * (Double(i) + 0.5) / Double(n), r = (1 - y * y).squareRoot()
            return SIMD3(cos(golden * Double(i)) * r, y, sin(golden * Double(i)) * r)
        }
    }

    /// Whether a ray from `origin` along `direction` hits a face other than `skip` before
    /// leaving the grid.
    func blocked(_ origin: SIMD3<Double>, _ direction: SIMD3<Double>, skip: Int) -> Bool {
        var c = cellOf(origin)
        let step = SIMD3<Int>(direction.x >= 0 ? 1 : -1, direction.y >= 0 ? 1 : -1, direction.z >= 0 ? 1 : -1)
        var tMax = SIMD3<Double>(), tDelta = SIMD3<Double>()
        for k in 0 ..< 3 {
            let boundary = lower[k] + Double(c[k] + (step[k] > 0 ? 1 : 0)) * cell
            tMax[k] = direction[k] == 0 ? .infinity : (boundary - origin[k]) / direction[k]
            tDelta[k] = direction[k] == 0 ? .infinity : cell / abs(direction[k])
        }
        while true {
            for t in cells[index(c.x, c.y, c.z)] where Int(t) != skip {
                // Every face lies inside the grid, so any hit ahead blocks the ray.
                if intersect(origin, direction, Int(t)) != nil { return true }
            }
            let k = tMax.x < tMax.y ? (tMax.x < tMax.z ? 0 : 2) : (tMax.y < tMax.z ? 1 : 2)
            c[k] += step[k]
            if c[k] < 0 || c[k] >= counts[k] { return false }
            tMax[k] += tDelta[k]
        }
    }

    /// Möller–Trumbore: the distance along the ray to face `t`, if it is hit ahead.
    func intersect(_ o: SIMD3<Double>, _ d: SIMD3<Double>, _ t: Int) -> Double? {
        let tri = triangles[t]
        let a = positions[tri.x], e1 = positions[tri.y] - a, e2 = positions[tri.z] - a
        let p = cross(d, e2), det = dot(e1, p)
        guard abs(det) > 1e-18 else { return nil }
        let s = o - a, u = dot(s, p) / det
        guard u >= 0, u <= 1 else { return nil }
        let q = cross(s, e1), v = dot(d, q) / det
        guard v >= 0, u + v <= 1 else { return nil }
        let distance = dot(e2, q) / det
        return distance > 1e-9 ? distance : nil
    }

    /// The area-weighted share of faces whose centroid sees out along one of `directions` rays.
    func visibleShare(directions count: Int = 96) -> Double {
        let rays = Self.directions(count)
        var visible = 0.0, total = 0.0
        for (t, tri) in triangles.enumerated() {
            let a = positions[tri.x], b = positions[tri.y], c = positions[tri.z]
            let n = cross(b - a, c - a), area = 0.5 * length(n)
            guard area > 0 else { continue }
            total += area
            let centre = (a + b + c) / 3
            // Both sides: a wall inside is hidden whichever way it faces.
            if rays.contains(where: { !blocked(centre, $0, skip: t) }) { visible += area }
        }
        return total > 0 ? visible / total : 0
    }

    /// The mesh's surface area.
    var area: Double {
        triangles.reduce(0) { sum, tri in
            sum + 0.5 * length(cross(positions[tri.y] - positions[tri.x], positions[tri.z] - positions[tri.x]))
        }
    }
}

private func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
private func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
