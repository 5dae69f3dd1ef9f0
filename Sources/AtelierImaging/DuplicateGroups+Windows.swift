extension DuplicateGroups {
    /// Calls `link(a, b)` (a < b) once for every pair where one photo's pHash lies within
    /// `threshold` bits of one of the other's window pHashes (`PerceptualHash.windowPHashes`):
    /// one shows a crop of the other. Photos without windows (`[]`) are only looked for. Pairs
    /// come in order of `a`, then `b`; `link` is called on the caller's thread.
    ///
    /// Multi-index hashing as in `forEachPair`, done as a join: for each 16-bit chunk, the
    /// windows and the pHashes are bucketed by its value, and each bucket of windows is checked
    /// against the buckets of pHashes within ⌊threshold/4⌋ bits of its value. A bucket of
    /// windows is read once for all its probes, where probing window by window would look up
    /// a few hundred buckets at random for each of 48 windows a photo (100,000 photos: 2.6
    /// billion lookups, a minute).
    public static func forEachWindowPair(_ hashes: [UInt64], windows: [[UInt64]], threshold: Int, _ link: (Int, Int) -> Void) {
        precondition(hashes.count == windows.count && (0 ... 64).contains(threshold))
        let table = windows.flatMap { $0 }
        let owner = windows.enumerated().flatMap { i, list in repeatElement(Int32(i), count: list.count) }
        guard hashes.count > 1, !table.isEmpty else { return }
        let found: [[Int64]]
        if threshold >= 16 || table.count < 4096 {
            // Wide thresholds defeat the chunks; a small table does not need them.
            found = inStripes(table.count) { rows, pairs in
                for k in rows {
                    for (a, h) in hashes.enumerated() where a != Int(owner[k]) && (h ^ table[k]).nonzeroBitCount <= threshold {
                        pairs.append(pair(a, Int(owner[k])))
                    }
                }
            }
        } else {
            let probes = masks(bits: 16, upTo: threshold / 4)
            found = (0 ..< 4).flatMap { c in
                let photos = ChunkBuckets(hashes, chunk: c), tiles = ChunkBuckets(table, ids: owner, chunk: c)
                return inStripes(65536) { values, pairs in
                    for v in values {
                        let windowRun = tiles.range(of: UInt16(v))
                        guard !windowRun.isEmpty else { continue }
                        for mask in probes {
                            for p in photos.range(of: UInt16(v) ^ mask) {
                                let h = photos.keys[p], a = Int(photos.ids[p])
                                for k in windowRun where (h ^ tiles.keys[k]).nonzeroBitCount <= threshold && a != Int(tiles.ids[k]) {
                                    pairs.append(pair(a, Int(tiles.ids[k])))
                                }
                            }
                        }
                    }
                }
            }
        }
        // A pair can be found from several windows, chunks and either photo's side: each once.
        linkInOrder(found, link)
    }
}
