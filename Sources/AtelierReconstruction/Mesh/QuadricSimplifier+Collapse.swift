import AtelierFormats

/// The working state of `QuadricSimplifier`: vertices, faces, adjacency and a heap of candidate
/// collapses, re-checked lazily (a candidate whose ends changed since it was pushed is dropped).
struct CollapseState {
    var positions: [SIMD3<Double>]
    var uvs: [SIMD2<Double>]
    var normals: [SIMD3<Double>]
    var faces: [SIMD3<Int32>]
    var faceAlive: [Bool]
    var vertexFaces: [[Int32]]
    var vertexAlive: [Bool]
    var version: [UInt32]
    var quadrics: [Quadric]
    var heap = CandidateHeap()
    var liveFaces: Int
    /// Per-vertex scratch marks for set tests in linear time (see `nextStamp`).
    var mark: [UInt32]
    var stamp: UInt32 = 0

    init(_ mesh: TexturedMesh) {
        positions = mesh.positions.map { SIMD3<Double>($0) }
        uvs = mesh.textureCoordinates.map { SIMD2<Double>($0) }
        normals = mesh.normals.map { SIMD3<Double>($0) }
        faces = mesh.triangles.map { SIMD3<Int32>(Int32($0.x), Int32($0.y), Int32($0.z)) }
        faceAlive = [Bool](repeating: true, count: faces.count)
        vertexFaces = [[Int32]](repeating: [], count: positions.count)
        vertexAlive = [Bool](repeating: true, count: positions.count)
        version = [UInt32](repeating: 0, count: positions.count)
        quadrics = [Quadric](repeating: Quadric(), count: positions.count)
        mark = [UInt32](repeating: 0, count: positions.count)
        liveFaces = faces.count
        var edgeFaces: [Int64: (count: Int, face: Int)] = [:]
        for (f, face) in faces.enumerated() {
            let (a, b, c) = (Int(face.x), Int(face.y), Int(face.z))
            for v in [a, b, c] { vertexFaces[v].append(Int32(f)) }
            let cross = (positions[b] - positions[a]).cross(positions[c] - positions[a])
            let area2 = cross.length
            guard area2 > 0 else { continue }
            let n = cross / area2
            let q = Quadric(plane: n, d: -n.dot(positions[a]), weight: area2 / 2)
            for v in [a, b, c] { quadrics[v] = quadrics[v] + q }
            for (u, w) in [(a, b), (b, c), (c, a)] {
                let key = Self.key(u, w)
                edgeFaces[key] = ((edgeFaces[key]?.count ?? 0) + 1, f)
            }
        }
        // Boundary edges: a steep plane through the edge, perpendicular to its face.
        for (key, info) in edgeFaces where info.count == 1 {
            let (u, w) = (Int(key >> 32), Int(key & 0xFFFF_FFFF))
            let face = faces[info.face]
            let (a, b, c) = (positions[Int(face.x)], positions[Int(face.y)], positions[Int(face.z)])
            let n = (b - a).cross(c - a).normalized
            let edge = positions[w] - positions[u]
            let planeNormal = edge.cross(n).normalized
            guard planeNormal.length > 0 else { continue }
            let q = Quadric(plane: planeNormal, d: -planeNormal.dot(positions[u]), weight: 1000 * edge.dot(edge))
            quadrics[u] = quadrics[u] + q
            quadrics[w] = quadrics[w] + q
        }
        for key in edgeFaces.keys.sorted() { push(Int(key >> 32), Int(key & 0xFFFF_FFFF)) }
    }

    static func key(_ a: Int, _ b: Int) -> Int64 { Int64(min(a, b)) << 32 | Int64(max(a, b)) }

    /// The best place to collapse edge (u, w) to, its cost, and where it lies along u → w.
    func candidate(_ u: Int, _ w: Int) -> (cost: Double, position: SIMD3<Double>, t: Double) {
        let q = quadrics[u] + quadrics[w]
        let pu = positions[u], pw = positions[w]
        var best = (cost: Double.infinity, position: pu, t: 0.0)
        func consider(_ p: SIMD3<Double>, _ t: Double) {
            let e = q.error(p)
            if e < best.cost { best = (e, p, t) }
        }
        if let p = q.minimiser() {
            let edge = pw - pu, length2 = edge.dot(edge)
            let t = length2 > 0 ? min(1, max(0, (p - pu).dot(edge) / length2)) : 0.5
            // Keep the optimum only near the edge: far away it means a nearly flat quadric.
            if (p - (pu + t * edge)).length <= 2 * length2.squareRoot() { consider(p, t) }
        }
        consider(pu, 0)
        consider(pw, 1)
        consider((pu + pw) / 2, 0.5)
        return (max(0, best.cost), best.position, best.t)
    }

    mutating func push(_ u: Int, _ w: Int) {
        let c = candidate(u, w)
        heap.push(Candidate(cost: c.cost, u: Int32(u), w: Int32(w), versionU: version[u], versionW: version[w]))
    }

    mutating func run(target: Int) {
        while liveFaces > target, let next = heap.pop() {
            let u = Int(next.u), w = Int(next.w)
            guard vertexAlive[u], vertexAlive[w], version[u] == next.versionU, version[w] == next.versionW else { continue }
            let c = candidate(u, w)
            guard linkConditionHolds(u, w), collapseKeepsFaces(u, w, to: c.position) else { continue }
            collapse(u, w, to: c.position, t: c.t)
        }
    }

    /// Whether collapsing u–w keeps the surface a manifold (Dey et al.'s link condition): the
    /// vertices joined to both u and w must be exactly the far corners of the faces on the edge.
    /// Otherwise the collapse would glue two sheets together along an edge or at a vertex.
    ///
    /// Linear in the two valences: vertices are marked with stamps rather than gathered in
    /// arrays, which made this quadratic and most of the time on large meshes.
    mutating func linkConditionHolds(_ u: Int, _ w: Int) -> Bool {
        let aroundU = nextStamp(), shared = nextStamp(), opposite = nextStamp()
        for f in vertexFaces[u] where faceAlive[Int(f)] {
            let c = corners(f)
            for k in 0..<3 where c[k] != u && c[k] != w { mark[c[k]] = aroundU }
        }
        var sharedCount = 0
        for f in vertexFaces[w] where faceAlive[Int(f)] {
            let c = corners(f)
            for k in 0..<3 where c[k] != u && c[k] != w && mark[c[k]] == aroundU {
                mark[c[k]] = shared
                sharedCount += 1
            }
        }
        // The far corners of the faces on the edge are joined to both ends, so they are among
        // the shared ones: the condition holds when they are all of them.
        var oppositeCount = 0
        for f in vertexFaces[u] where faceAlive[Int(f)] {
            let c = corners(f)
            guard c.x == w || c.y == w || c.z == w else { continue }
            for k in 0..<3 where c[k] != u && c[k] != w && mark[c[k]] == shared {
                mark[c[k]] = opposite
                oppositeCount += 1
            }
        }
        return sharedCount == oppositeCount
    }

    /// Whether moving u and w to `p` leaves every surviving face of either non-degenerate and
    /// facing the same way as before.
    func collapseKeepsFaces(_ u: Int, _ w: Int, to p: SIMD3<Double>) -> Bool {
        facesKeep(around: u, u, w, to: p) && facesKeep(around: w, u, w, to: p)
    }

    private func facesKeep(around v: Int, _ u: Int, _ w: Int, to p: SIMD3<Double>) -> Bool {
        for f in vertexFaces[v] where faceAlive[Int(f)] {
            let face = faces[Int(f)]
            let (a, b, c) = (Int(face.x), Int(face.y), Int(face.z))
            let hasU = a == u || b == u || c == u, hasW = a == w || b == w || c == w
            if hasU && hasW { continue }   // it disappears
            let (pa, pb, pc) = (positions[a], positions[b], positions[c])
            let n0 = (pb - pa).cross(pc - pa)
            let qa = a == u || a == w ? p : pa, qb = b == u || b == w ? p : pb, qc = c == u || c == w ? p : pc
            let n1 = (qb - qa).cross(qc - qa)
            guard n1.length > 1e-12 * max(1e-30, n0.length), n0.dot(n1) > 0.2 * n0.length * n1.length else { return false }
        }
        return true
    }

    mutating func collapse(_ u: Int, _ w: Int, to p: SIMD3<Double>, t: Double) {
        positions[u] = p
        if !uvs.isEmpty { uvs[u] = uvs[u] + t * (uvs[w] - uvs[u]) }
        if !normals.isEmpty { normals[u] = (normals[u] + t * (normals[w] - normals[u])).normalized }
        quadrics[u] = quadrics[u] + quadrics[w]
        var merged: [Int32] = []
        merged.reserveCapacity(vertexFaces[u].count + vertexFaces[w].count)
        for v in [u, w] {
            for f in vertexFaces[v] where faceAlive[Int(f)] {
                var face = faces[Int(f)]
                let hasU = face.x == Int32(u) || face.y == Int32(u) || face.z == Int32(u)
                let hasW = face.x == Int32(w) || face.y == Int32(w) || face.z == Int32(w)
                if hasU && hasW {
                    faceAlive[Int(f)] = false
                    liveFaces -= 1
                    continue
                }
                if hasW {
                    if face.x == Int32(w) { face.x = Int32(u) }
                    if face.y == Int32(w) { face.y = Int32(u) }
                    if face.z == Int32(w) { face.z = Int32(u) }
                    faces[Int(f)] = face
                }
                // A face of w alone cannot be one of u's: no face is listed twice.
                merged.append(f)
            }
        }
        vertexFaces[u] = merged
        vertexFaces[w] = []
        vertexAlive[w] = false
        version[u] &+= 1
        let seen = nextStamp()
        var neighbours: [Int] = []
        for f in merged {
            let c = corners(f)
            for k in 0..<3 where c[k] != u && mark[c[k]] != seen {
                mark[c[k]] = seen
                neighbours.append(c[k])
            }
        }
        for v in neighbours.sorted() { push(u, v) }
    }

    /// The corners of face `f`.
    @inline(__always) func corners(_ f: Int32) -> SIMD3<Int> {
        let face = faces[Int(f)]
        return SIMD3(Int(face.x), Int(face.y), Int(face.z))
    }

    /// A stamp no vertex carries yet (the marks are cleared when the counter wraps).
    mutating func nextStamp() -> UInt32 {
        if stamp == .max {
            mark = [UInt32](repeating: 0, count: mark.count)
            stamp = 0
        }
        stamp += 1
        return stamp
    }

    /// The surviving vertices and faces, renumbered in their original order.
    func result(from mesh: TexturedMesh) -> TexturedMesh {
        var newIndex = [Int32](repeating: -1, count: positions.count)
        var used = [Bool](repeating: false, count: positions.count)
        for (f, face) in faces.enumerated() where faceAlive[f] {
            used[Int(face.x)] = true; used[Int(face.y)] = true; used[Int(face.z)] = true
        }
        var out = TexturedMesh(positions: [], triangles: [], texturePNG: mesh.texturePNG, name: mesh.name)
        for v in positions.indices where used[v] {
            newIndex[v] = Int32(out.positions.count)
            out.positions.append(SIMD3<Float>(positions[v]))
            if !uvs.isEmpty { out.textureCoordinates.append(SIMD2<Float>(uvs[v])) }
            if !normals.isEmpty { out.normals.append(SIMD3<Float>(normals[v])) }
        }
        for (f, face) in faces.enumerated() where faceAlive[f] {
            out.triangles.append(SIMD3(UInt32(newIndex[Int(face.x)]), UInt32(newIndex[Int(face.y)]), UInt32(newIndex[Int(face.z)])))
        }
        return out
    }
}

/// A collapse waiting in the heap, with the versions of its ends when it was pushed.
struct Candidate {
    var cost: Double
    var u: Int32
    var w: Int32
    var versionU: UInt32
    var versionW: UInt32
}

/// A binary min-heap of candidates by cost (ties by vertex ids, so the order is deterministic).
struct CandidateHeap {
    private var items: [Candidate] = []

    private static func less(_ a: Candidate, _ b: Candidate) -> Bool {
        a.cost != b.cost ? a.cost < b.cost : (a.u != b.u ? a.u < b.u : a.w < b.w)
    }

    mutating func push(_ item: Candidate) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.less(items[i], items[parent]) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Candidate? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var smallest = i
                if l < items.count && Self.less(items[l], items[smallest]) { smallest = l }
                if r < items.count && Self.less(items[r], items[smallest]) { smallest = r }
                if smallest == i { break }
                items.swapAt(i, smallest)
                i = smallest
            }
        }
        return first
    }
}
