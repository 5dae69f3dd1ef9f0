/// Short copies for the layers' inner loops, eight floats at a time.
///
/// Rows here are often a few dozen values, too short for a `memset`/`memcpy` call to pay and
/// too irregular for the compiler to vectorise on its own. `copy` and `gather` round up to
/// whole blocks of eight, so they read and write past the end of what they are asked for: a
/// caller writes its output in order (what is written past a run is written again after) and
/// `InferencePlan` leaves `InferencePlan.slack` floats after every buffer.
enum FloatCopy {
    /// Zeroes exactly `count` values.
    @inline(__always)
    static func zero(_ target: UnsafeMutablePointer<Float>, count: Int) {
        var to = UnsafeMutableRawPointer(target)
        var left = count
        while left >= 8 {
            to.storeBytes(of: SIMD8<Float>(), as: SIMD8<Float>.self)
            to += 32
            left &-= 8
        }
        while left > 0 {
            to.storeBytes(of: 0, as: Float.self)
            to += 4
            left &-= 1
        }
    }

    /// Copies `count` values, reading and writing up to 7 more.
    @inline(__always)
    static func copy(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, count: Int) {
        var from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        var left = count
        while left > 0 {
            to.storeBytes(of: from.loadUnaligned(as: SIMD8<Float>.self), as: SIMD8<Float>.self)
            from += 32
            to += 32
            left &-= 8
        }
    }

    /// Copies every `stride`-th value from `source`, `count` of them. For stride 2, eight at a
    /// time out of sixteen loaded: it writes up to 7 values more and reads up to 15 past the
    /// last one used. Other strides go one value at a time, exactly.
    @inline(__always)
    static func gather(_ source: UnsafePointer<Float>, stride: Int, into target: UnsafeMutablePointer<Float>, count: Int) {
        var from = source, to = target
        var left = count
        if stride == 2 {
            while left > 0 {
                let pairs = UnsafeRawPointer(from).loadUnaligned(as: SIMD16<Float>.self)
                UnsafeMutableRawPointer(to).storeBytes(of: pairs.evenHalf, as: SIMD8<Float>.self)
                from += 16
                to += 8
                left &-= 8
            }
            return
        }
        while left > 0 {
            to.pointee = from.pointee
            from += stride
            to += 1
            left &-= 1
        }
    }

    /// Eight values from `source`, or every second one of sixteen for stride 2.
    @inline(__always)
    static func load8(_ source: UnsafePointer<Float>, stride2: Bool) -> SIMD8<Float> {
        stride2
            ? UnsafeRawPointer(source).loadUnaligned(as: SIMD16<Float>.self).evenHalf
            : UnsafeRawPointer(source).loadUnaligned(as: SIMD8<Float>.self)
    }
}
