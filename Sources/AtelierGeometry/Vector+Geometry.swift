// Small vector operations the standard library leaves to platform SIMD modules, in double
// precision. Inlinable: render and solver loops in other modules must not call through.

extension SIMD3 where Scalar == Double {
    @inlinable @inline(__always) public func dot(_ other: Self) -> Double { x * other.x + y * other.y + z * other.z }

    @inlinable @inline(__always) public func cross(_ other: Self) -> Self {
        Self(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    @inlinable @inline(__always) public var length: Double { dot(self).squareRoot() }

    /// The unit vector in the same direction (the zero vector stays zero).
    @inlinable @inline(__always) public var normalized: Self {
        let l = length
        return l > 0 ? self / l : self
    }
}
