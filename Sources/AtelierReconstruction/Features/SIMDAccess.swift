/// Unaligned eight-lane loads and stores for the plane loops. Eight floats are one AVX register
/// or two SSE registers; the loops that use them have no cross-lane work, so either is fast.
@inline(__always)
func load8(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func load8(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func store8(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
}
