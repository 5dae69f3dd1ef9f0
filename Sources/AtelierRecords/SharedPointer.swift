/// Memory handed to the workers of `DispatchQueue.concurrentPerform` (or any other threads), each
/// of which touches only its own slots or rows: that is what makes sharing it sound, and the
/// compiler cannot see it, hence the `@unchecked`. One type for the imaging, rendering and
/// reconstruction loops that write into shared rows; `ParallelArray` covers making an array.
public struct SharedPointer<Pointee>: @unchecked Sendable {
    public let base: UnsafeMutablePointer<Pointee>

    @inlinable
    public init(base: UnsafeMutablePointer<Pointee>) {
        self.base = base
    }
}
