import Dispatch

/// A read-only buffer handed to the workers.
struct SharedBuffer<Element>: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<Element>
}
