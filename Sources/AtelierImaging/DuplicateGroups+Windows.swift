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
        let index = ChunkIndex(table)
        let probes = masks(bits: 16, upTo: threshold / 4)
        for (a, h) in hashes.enumerated() {
            index.forEachSharingAChunk(with: h, probes: probes) { entry in
                if (h ^ table[entry]).nonzeroBitCount <= threshold { report(a, Int(owner[entry])) }
            }
        }
    }
}
