import CHamming

extension DuplicateGroups {
    /// Calls `link(a, b)` (a < b) once for every pair where one photo's pHash lies within
    /// `threshold` bits of one of the other's window pHashes (`PerceptualHash.windowPHashes`):
    /// one shows a crop of the other. Photos without windows (`[]`) are only looked for. Pairs
    /// come in order of `a`, then `b`; `link` is called on the caller's thread.
    ///
    /// Multi-index hashing as in `forEachPair`, done as a join: for each 16-bit chunk, the
    /// windows and the pHashes are bucketed by its value, and each bucket of windows is checked
    /// against the pHashes of the buckets within that chunk's radius of its value
    /// (`probeMasks`), gathered in a row. A bucket of windows is read once for all its probes,
    /// where probing window by window would look up a few hundred buckets at random for each of
    /// 48 windows a photo (100,000 photos: 2.6 billion lookups, a minute).
    public static func forEachWindowPair(_ hashes: [UInt64], windows: [[UInt64]], threshold: Int, _ link: (Int, Int) -> Void) {
        precondition(hashes.count == windows.count && (0 ... 64).contains(threshold))
        let table = windows.flatMap { $0 }
        let owner = windows.enumerated().flatMap { i, list in repeatElement(Int32(i), count: list.count) }
        guard hashes.count > 1, !table.isEmpty else { return }
        let found: [[Int64]]
        if threshold >= 16 || table.count < 4096 {
            // Wide thresholds defeat the chunks; a small table does not need them. Each window
            // is scanned against every pHash.
            found = inStripes(table.count) { rows, pairs in
                hashes.withUnsafeBufferPointer { all in
                    let hits = UnsafeMutablePointer<UInt32>.allocate(capacity: all.count)
                    defer { hits.deallocate() }
                    for k in rows {
                        let b = Int(owner[k])
                        for i in 0 ..< scan(table[k], all.baseAddress!, all.count, threshold, hits) where Int(hits[i]) != b {
                            pairs.append(pair(Int(hits[i]), b))
                        }
                    }
                }
            }
        } else {
            let probes = probeMasks(threshold: threshold)
            let photos = ChunkBuckets(capacity: hashes.count), tiles = ChunkBuckets(capacity: table.count)
            found = (0 ..< 4).filter { !probes[$0].isEmpty }.flatMap { c in
                photos.fill(hashes, chunk: c)
                tiles.fill(table, ids: owner, chunk: c)
                let reach = probes[c].count * photos.largest  // the most pHashes one value's probes gather
                return probes[c].withUnsafeBufferPointer { masks in
                    let shared = SharedBuffer(buffer: masks)
                    return inStripes(65536) { values, pairs in
                        // The pHashes in the buckets a value probes are gathered in a row, so each
                        // window is scanned against a few hundred at once (CHamming).
                        let near = UnsafeMutablePointer<UInt64>.allocate(capacity: max(1, reach))
                        let nearIDs = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, reach))
                        let hits = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, reach))
                        var out = [Int64](repeating: 0, count: 1024)
                        defer { near.deallocate(); nearIDs.deallocate(); hits.deallocate() }
                        let scratch = atl_join_scratch(keys: near, ids: nearIDs, hits: hits)
                        for v in values {
                            let windowRun = tiles.range(of: UInt16(v))
                            guard !windowRun.isEmpty else { continue }
                            func join(_ out: inout [Int64]) -> Int {
                                out.withUnsafeMutableBufferPointer {
                                    atl_hamming_join(photos.cBuckets, UInt16(v), shared.buffer.baseAddress, shared.buffer.count,
                                                     tiles.keys + windowRun.lowerBound, tiles.ids + windowRun.lowerBound, windowRun.count,
                                                     UInt32(threshold), scratch, $0.baseAddress, $0.count)
                                }
                            }
                            var n = join(&out)
                            if n > out.count {
                                out = [Int64](repeating: 0, count: n)
                                n = join(&out)
                            }
                            pairs.append(contentsOf: out[..<n])
                        }
                    }
                }
            }
        }
        // A pair can be found from several windows, chunks and either photo's side: each once.
        linkInOrder(found, link)
    }
}
