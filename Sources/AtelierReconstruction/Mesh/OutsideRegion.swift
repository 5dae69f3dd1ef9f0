/// Keeps only the surface that can be seen from outside (issue 27): every sample of the volume
/// that is outside (positive) but cannot be reached from the grid's border through outside space
/// is set inside, so the level set is the boundary of the one outside region and nothing else: no
/// cavity inside the object, and no pocket joined to the outside through a channel too narrow to
/// be real.
///
/// Why both: fusion decides each sample from the views alone, and a photo whose silhouette or
/// depth is wrong in one place carves space inside a closed object; most such space is sealed
/// off by the views that saw the surface around it (a cavity), but where few views look (a neck,
/// a base) it breaks through in a thin channel. A morphological opening of the outside region
/// with radius `channelSteps` (erode, flood from the border, grow back within the outside)
/// closes the channels as well: a gap narrower than about `2 · channelSteps + 1` grid steps is
/// taken as inside.
enum OutsideRegion {
    /// Returns how many samples were set inside.
    @discardableResult
    static func keepReachable(_ volume: inout ScalarVolume, channelSteps: Int) -> Int {
        let nx = volume.nx, ny = volume.ny, nz = volume.nz, count = volume.values.count
        let outside = volume.values.map { $0 > 0 }
        // The core of the outside: samples whose whole neighbourhood within `channelSteps` is
        // outside (a cube, eroded one axis at a time).
        var core = outside
        for _ in 0 ..< max(0, channelSteps) { core = eroded(core, nx: nx, ny: ny, nz: nz) }
        // Flood the core from the border.
        var reached = [Bool](repeating: false, count: count)
        var queue: [Int] = []
        queue.reserveCapacity(count / 8)
        for z in 0 ..< nz {
            for y in 0 ..< ny {
                for x in 0 ..< nx where x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1 {
                    let i = (z * ny + y) * nx + x
                    if core[i], !reached[i] { reached[i] = true; queue.append(i) }
                }
            }
        }
        flood(&reached, through: core, queue: &queue, nx: nx, ny: ny, nz: nz)
        // Grow back the outside samples within `channelSteps` of the reached core. Not flooded
        // again from there: that would reopen the channels (a crevice narrower than the core is
        // filled; the price of closing them).
        var kept = reached
        for _ in 0 ..< max(0, channelSteps) { kept = dilated(kept, within: outside, nx: nx, ny: ny, nz: nz) }
        var changed = 0
        for i in 0 ..< count where outside[i] && !kept[i] {
            volume.values[i] = -1
            changed += 1
        }
        return changed
    }

    /// Breadth-first flood over the six neighbours, within `allowed`.
    static func flood(_ reached: inout [Bool], through allowed: [Bool], queue: inout [Int], nx: Int, ny: Int, nz: Int) {
        var head = 0
        let plane = nx * ny
        while head < queue.count {
            let i = queue[head]
            head += 1
            let x = i % nx, y = (i / nx) % ny, z = i / plane
            @inline(__always) func visit(_ j: Int) {
                if allowed[j], !reached[j] { reached[j] = true; queue.append(j) }
            }
            if x > 0 { visit(i - 1) }
            if x < nx - 1 { visit(i + 1) }
            if y > 0 { visit(i - nx) }
            if y < ny - 1 { visit(i + nx) }
            if z > 0 { visit(i - plane) }
            if z < nz - 1 { visit(i + plane) }
        }
    }

    /// A sample stays set when it and its 26 neighbours are set (the grid's border counts as set:
    /// the outside goes on beyond it).
    static func eroded(_ set: [Bool], nx: Int, ny: Int, nz: Int) -> [Bool] {
        var out = set
        for axis in 0 ..< 3 { out = shifted(out, axis: axis, nx: nx, ny: ny, nz: nz, combine: { $0 && $1 }, edge: true) }
        return out
    }

    /// A sample is set when it or one of its 26 neighbours is set, and it is in `within`.
    static func dilated(_ set: [Bool], within: [Bool], nx: Int, ny: Int, nz: Int) -> [Bool] {
        var out = set
        for axis in 0 ..< 3 { out = shifted(out, axis: axis, nx: nx, ny: ny, nz: nz, combine: { $0 || $1 }, edge: false) }
        for i in out.indices where !within[i] { out[i] = false }
        return out
    }

    /// One axis of a 3×3×3 min or max filter: each sample combined with its two neighbours along
    /// `axis`; a neighbour beyond the grid reads as `edge`.
    static func shifted(_ set: [Bool], axis: Int, nx: Int, ny: Int, nz: Int, combine: (Bool, Bool) -> Bool, edge: Bool) -> [Bool] {
        let stride = axis == 0 ? 1 : axis == 1 ? nx : nx * ny
        let length = axis == 0 ? nx : axis == 1 ? ny : nz
        var out = set
        for i in set.indices {
            let position = axis == 0 ? i % nx : axis == 1 ? (i / nx) % ny : i / (nx * ny)
            let before = position > 0 ? set[i - stride] : edge
            let after = position < length - 1 ? set[i + stride] : edge
            out[i] = combine(combine(set[i], before), after)
        }
        return out
    }
}
