/// `0 ..< count` cut into contiguous chunks of `chunkSize`, run on up to `threads` threads.
///
/// The cut depends only on `count` and `chunkSize`, never on the thread count, and a sum is
/// taken per chunk and the chunk sums are added in chunk order, so bundle adjustment gives the
/// same bits on one thread or two. Work that writes only its own items' slots needs no sum.
struct ChunkedWork: Sendable {
    let count: Int
    let chunkSize: Int
    let threads: Int

    init(count: Int, chunkSize: Int, threads: Int) {
        self.count = count
        self.chunkSize = max(1, chunkSize)
        self.threads = max(1, threads)
    }

    var chunkCount: Int { (count + chunkSize - 1) / chunkSize }

    func range(ofChunk chunk: Int) -> Range<Int> {
        chunk * chunkSize ..< min(count, (chunk + 1) * chunkSize)
    }

    /// Calls `body` once for each chunk's range, in parallel.
    func forEach(_ body: @Sendable (Range<Int>) -> Void) {
        WorkSplitter(threads: threads).forEach(chunkCount) { chunk in body(range(ofChunk: chunk)) }
    }

    /// The sum over chunks of `body(range)`, added in chunk order.
    func sum(_ body: @Sendable (Range<Int>) -> SIMD4<Double>) -> SIMD4<Double> {
        let partial = WorkSplitter(threads: threads).map(chunkCount) { chunk in body(range(ofChunk: chunk)) }
        var total = SIMD4<Double>(repeating: 0)
        for value in partial { total += value }
        return total
    }
}
