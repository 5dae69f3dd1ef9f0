/// Contiguous storage with a fixed address for as long as the object lives, so render loops can
/// hold plain pointers into it (no bounds checks, no reference counting per access). Written
/// while it is being built, read-only afterwards, which is what makes sharing it between
/// threads sound.
final class FixedBuffer<Element>: @unchecked Sendable {
    let pointer: UnsafeMutableBufferPointer<Element>

    init(_ elements: [Element]) {
        pointer = .allocate(capacity: elements.count)
        _ = pointer.initialize(from: elements)
    }

    init(repeating value: Element, count: Int) {
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: value)
    }

    var count: Int { pointer.count }
    var base: UnsafeMutablePointer<Element> { pointer.baseAddress! }

    deinit {
        pointer.deinitialize()
        pointer.deallocate()
    }
}
