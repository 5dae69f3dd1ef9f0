import Foundation

/// Keeps large buffers in the malloc heap instead of fresh `mmap`s.
///
/// glibc serves every allocation above its mmap threshold (128 KiB to start) with a new mapping
/// and unmaps it on free, so each 1 MiB frame that swift-crypto seals or opens (it returns a
/// new buffer each time) cost 256 page faults and page clears: a fifth of the CPU of a
/// transfer, measured with perf. Raising the threshold (and the trim threshold with it) lets
/// the freed megabyte be reused. Looked up with `dlsym` because Swift's Glibc module does not
/// import `<malloc.h>`; without glibc it does nothing.
enum HeapTuning {
    static func keepLargeBuffersInHeap() {
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
        let trimThreshold: Int32 = -1, mmapThreshold: Int32 = -3  // M_TRIM_THRESHOLD, M_MMAP_THRESHOLD
        _ = mallopt(mmapThreshold, 32 << 20)
        _ = mallopt(trimThreshold, 64 << 20)
    }
}
