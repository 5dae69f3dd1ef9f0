import Foundation

/// A count shared by worker threads, for progress reports: each `increment` returns the new
/// total, so the worker that finishes an item can report it without another read.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int { add(1) }

    /// Adds `count` done; the new total.
    func add(_ count: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += count
        return value
    }
}
