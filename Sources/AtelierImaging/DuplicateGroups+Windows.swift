extension DuplicateGroups {
    /// Calls `link(a, b)` (a < b) once for every pair where one photo's pHash lies within
    /// `threshold` bits of one of the other's window pHashes (`PerceptualHash.windowPHashes`):
    /// one shows a crop of the other. Photos without windows (`[]`) are only looked for.
    ///
    /// The same multi-index hashing as `forEachPair`, with the windows of all photos as the
    /// table and each photo's own pHash as the probe.
    public static func forEachWindowPair(_ hashes: [UInt64], windows: [[UInt64]], threshold: Int, _ link: (Int, Int) -> Void) {
        precondition(hashes.count == windows.count && (0 ... 64).contains(threshold))
        var table: [UInt64] = [], owner: [Int32] = []
        for (i, list) in windows.enumerated() {
            table.append(contentsOf: list)
            owner.append(contentsOf: repeatElement(Int32(i), count: list.count))
        }
        guard hashes.count > 1, !table.isEmpty else { return }
        var found = Set<Int64>()
        func report(_ a: Int, _ b: Int) {
            guard a != b else { return }
            let key = Int64(min(a, b)) << 32 | Int64(max(a, b))
            if found.insert(key).inserted { link(min(a, b), max(a, b)) }
        }
        if threshold >= 16 || table.count < 4096 {
            for (a, h) in hashes.enumerated() {
                for (k, w) in table.enumerated() where (h ^ w).nonzeroBitCount <= threshold { report(a, Int(owner[k])) }
            }
            return
        }
        let radius = threshold / 4
        var starts = [[Int32]](repeating: [], count: 4)
        var entries = [[Int32]](repeating: [], count: 4)
        for c in 0 ..< 4 {
            var counts = [Int32](repeating: 0, count: 65537)
            for w in table { counts[Int(chunk(w, c)) + 1] += 1 }
            for v in 0 ..< 65536 { counts[v + 1] += counts[v] }
            var fill = counts
            var list = [Int32](repeating: 0, count: table.count)
            for (k, w) in table.enumerated() {
                let v = Int(chunk(w, c))
                list[Int(fill[v])] = Int32(k)
                fill[v] += 1
            }
            starts[c] = counts
            entries[c] = list
        }
        let probes = masks(bits: 16, upTo: radius)
        for (a, h) in hashes.enumerated() {
            for c in 0 ..< 4 {
                let value = chunk(h, c)
                for mask in probes {
                    let v = Int(value ^ mask)
                    for k in Int(starts[c][v]) ..< Int(starts[c][v + 1]) {
                        let entry = Int(entries[c][k])
                        if (h ^ table[entry]).nonzeroBitCount <= threshold { report(a, Int(owner[entry])) }
                    }
                }
            }
        }
    }
}
