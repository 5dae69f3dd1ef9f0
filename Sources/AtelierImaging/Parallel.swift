import Dispatch

/// A pointer handed to the workers of `DispatchQueue.concurrentPerform`. Each worker touches
/// its own rows only, which is what makes sharing it sound; the compiler cannot see that.
struct SharedPointer<Pointee>: @unchecked Sendable {
    let base: UnsafeMutablePointer<Pointee>
}

/// A read-only buffer handed to the workers.
struct SharedBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Element>
}
