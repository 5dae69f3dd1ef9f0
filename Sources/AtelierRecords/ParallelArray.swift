import Dispatch

/// An array whose elements are made on several threads at once, each into its own slot, and
/// handed back in index order without a copy. The one place the unsafe part of that lives:
/// parsing a batch of records, reading a hundred thousand photos' hashes, and the stripes of
/// a candidate search each used to allocate, initialise and copy out slots of their own.
public enum ParallelArray {
    /// The slots being filled; `put` is safe from any thread as long as every index is put
    /// exactly once, which `make`'s caller promises.
    public struct Slots<Element>: @unchecked Sendable {
        fileprivate let base: UnsafeMutablePointer<Element>
        public let count: Int

        /// Fills slot `index` (once).
        @inline(__always)
        public func put(_ value: Element, at index: Int) {
            precondition(index >= 0 && index < count, "slot \(index) of \(count)")
            (base + index).initialize(to: value)
        }
    }

    /// `count` elements, made by `fill`, which must put every index of the slots exactly once
    /// before it returns (on as many threads as it likes).
    public static func make<Element>(count: Int, _ fill: (Slots<Element>) -> Void) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { fill(Slots(base: buffer.baseAddress!, count: count)) }
            initialized = count
        }
    }

    /// `body(index)` for every index below `count`, made on every core in `parts` runs of
    /// neighbouring indices (each thread reads its own stretch of the input).
    public static func map<Element>(_ count: Int, parts: Int, _ body: @Sendable (Int) -> Element) -> [Element] {
        make(count: count) { slots in
            let parts = max(1, min(parts, count))
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for index in part * count / parts ..< (part + 1) * count / parts { slots.put(body(index), at: index) }
            }
        }
    }
}
