import AtelierFormats

/// Lays the parts of the surface that no photo showed as flat as their seen edges allow.
///
/// Where no view saw a surface (the underside of a dress form photographed from above, the
/// inside of a fold), fusion closes the solid by the views' votes, and the surface it leaves
/// there is the visual hull's: a cone hanging below the overhang, as deep as the cameras are
/// high. Nothing seen supports that shape, and the least surprising surface across an unseen gap
/// is the smallest one spanning its seen rim (what screened Poisson reconstruction also assumes).
/// So the vertices that lie in no observed cell are put where each is the mean of its neighbours
/// while the observed vertices stay put (the umbrella Laplacian, solved by conjugate gradients):
/// the unseen patch becomes the harmonic membrane on its rim, flat when the rim is flat.
enum UnseenSurface {
    /// Returns how many vertices were free to move.
    @discardableResult
    static func relax(_ mesh: inout TexturedMesh, volume: ScalarVolume, observed: [Bool], maxIterations: Int = 1000) -> Int {
        let count = mesh.positions.count
        guard count > 0, observed.count == volume.values.count else { return 0 }
        // A vertex is seen when a corner of its grid cell is.
        var free = [Bool](repeating: false, count: count)
        for v in 0 ..< count {
            let c = (SIMD3<Double>(mesh.positions[v]) - volume.origin) / volume.spacing
            let x = max(0, min(volume.nx - 2, Int(c.x))), y = max(0, min(volume.ny - 2, Int(c.y))), z = max(0, min(volume.nz - 2, Int(c.z)))
            var seen = false
            for corner in 0 ..< 8 where observed[volume.index(x + corner & 1, y + (corner >> 1) & 1, z + (corner >> 2) & 1)] {
                seen = true
                break
            }
            free[v] = !seen
        }
        let movable = free.reduce(0) { $0 + ($1 ? 1 : 0) }
        guard movable > 0 else { return 0 }
        // Solve the Laplace equation for the free vertices with the seen ones as its boundary:
        // (deg + ε)·x_v − Σ free neighbours = Σ seen neighbours + ε·x_v⁰, by conjugate gradients.
        // (ε keeps a piece with no seen vertex at all where it is.)
        var slot = [Int32](repeating: -1, count: count), vertices: [Int] = []
        for v in 0 ..< count where free[v] {
            slot[v] = Int32(vertices.count)
            vertices.append(v)
        }
        var lists = [[Int32]](repeating: [], count: vertices.count)
        for t in mesh.triangles {
            for (a, b) in [(Int(t.x), Int(t.y)), (Int(t.y), Int(t.z)), (Int(t.z), Int(t.x))] {
                if slot[a] >= 0 { lists[Int(slot[a])].append(Int32(b)) }
                if slot[b] >= 0 { lists[Int(slot[b])].append(Int32(a)) }
            }
        }
        // Compressed rows: each free vertex's free neighbours by slot, its degree, and the sum of
        // its seen neighbours (each edge was met from both of its triangles: once each here).
        var rowStart = [Int](repeating: 0, count: vertices.count + 1), columns: [Int32] = []
        var degree = [Double](repeating: 0, count: vertices.count)
        let epsilon = 1e-6
        let original = vertices.map { SIMD3<Double>(mesh.positions[$0]) }
        var rhs = original.map { epsilon * $0 }
        for i in vertices.indices {
            let unique = Set(lists[i])
            degree[i] = Double(unique.count) + epsilon
            for n in unique {
                if slot[Int(n)] >= 0 { columns.append(slot[Int(n)]) } else { rhs[i] += SIMD3<Double>(mesh.positions[Int(n)]) }
            }
            rowStart[i + 1] = columns.count
        }
        lists = []
        func apply(_ x: [SIMD3<Double>], into out: inout [SIMD3<Double>]) {
            for i in x.indices {
                var sum = degree[i] * x[i]
                for k in rowStart[i] ..< rowStart[i + 1] { sum -= x[Int(columns[k])] }
                out[i] = sum
            }
        }
        func dot(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> SIMD3<Double> {
            var sum = SIMD3<Double>.zero
            for i in a.indices { sum += a[i] * b[i] }
            return sum
        }
        // The three coordinates are three independent systems with one matrix, solved together,
        // to a residual far below a grid step.
        var x = original, ad = [SIMD3<Double>](repeating: .zero, count: x.count)
        apply(x, into: &ad)
        var r = zip(rhs, ad).map { $0 - $1 }, d = r
        var rr = dot(r, r)
        let step = volume.spacing * 1e-3
        let goal = step * step
        for _ in 0 ..< maxIterations where rr.max() > goal {
            apply(d, into: &ad)
            let dad = dot(d, ad)
            let alpha = SIMD3<Double>(dad.x > 0 ? rr.x / dad.x : 0, dad.y > 0 ? rr.y / dad.y : 0, dad.z > 0 ? rr.z / dad.z : 0)
            for i in x.indices {
                x[i] += alpha * d[i]
                r[i] -= alpha * ad[i]
            }
            let next = dot(r, r)
            let beta = SIMD3<Double>(rr.x > 0 ? next.x / rr.x : 0, rr.y > 0 ? next.y / rr.y : 0, rr.z > 0 ? next.z / rr.z : 0)
            for i in d.indices { d[i] = r[i] + beta * d[i] }
            rr = next
        }
        for (i, v) in vertices.enumerated() { mesh.positions[v] = SIMD3<Float>(x[i]) }
        return movable
    }
}
