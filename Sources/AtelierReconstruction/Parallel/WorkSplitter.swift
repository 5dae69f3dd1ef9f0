import AtelierRecords
import Dispatch
import Foundation

/// Spreads independent work items over a fixed number of threads.
///
/// Items are dealt out round-robin (worker `k` takes items `k`, `k + n`, `k + 2n`, …). Every
/// item writes only its own output, so results never depend on the thread count: the feature
/// extractor gives the same bytes on one thread or two.
struct WorkSplitter: Sendable {
    let threads: Int

    /// `threads` workers; 0 or less means one per active core.
    init(threads: Int) {
        self.threads = threads > 0 ? threads : max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Calls `body` once for each index in `0 ..< count`, in parallel.
    func forEach(_ count: Int, _ body: @Sendable (Int) -> Void) {
        let workers = min(threads, count)
        if workers <= 1 {
            for index in 0 ..< count { body(index) }
            return
        }
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: count, by: workers) { body(index) }
        }
    }

    /// Calls `body` once for each index in `0 ..< count`, in parallel, each worker taking the
    /// next index not yet taken: for items of very different cost (image pairs, where RANSAC
    /// stops early on a good pair and runs to its cap on a bad one), which a fixed deal would
    /// leave to one worker. Each item still writes only its own output.
    func forEachBalanced(_ count: Int, _ body: @Sendable (Int) -> Void) {
        let workers = min(threads, count)
        if workers <= 1 {
            for index in 0 ..< count { body(index) }
            return
        }
        let next = ProgressCounter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.increment() - 1
                guard index < count else { return }
                body(index)
            }
        }
    }

    /// `body` of each index in `0 ..< count`, computed in parallel, returned in index order;
    /// `balanced` deals the items out one at a time (see `forEachBalanced`).
    func map<T>(_ count: Int, balanced: Bool = false, _ body: @Sendable (Int) -> T) -> [T] {
        ParallelArray.make(count: count) { slots in
            if balanced {
                forEachBalanced(count) { index in slots.put(body(index), at: index) }
            } else {
                forEach(count) { index in slots.put(body(index), at: index) }
            }
        }
    }
}
