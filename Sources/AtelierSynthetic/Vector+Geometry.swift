// Small vector operations the standard library leaves to platform SIMD modules. Written for
// Float and Double separately rather than generically: render loops must not go through
// protocol witnesses, which unspecialised generic code would.

extension SIMD3 where Scalar == Float {
    @inline(__always) func dot(_ other: Self) -> Float { x * other.x + y * other.y + z * other.z }

    @inline(__always) func cross(_ other: Self) -> Self {
        Self(y * other.z - z * other.y, z * other.x - x * other.z, x * other.y - y * other.x)
    }

    @inline(__always) var length: Float { dot(self).squareRoot() }

    /// The unit vector in the same direction (the zero vector stays zero).
    @inline(__always) var normalized: Self {
        let l = length
        return l > 0 ? self * (1 / l) : self
    }
}

/// Hermite smoothstep: 0 below `edge0`, 1 above `edge1`, smooth between.
@inline(__always)
func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
    let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
    return t * t * (3 - 2 * t)
}

/// Hermite smoothstep in double precision.
@inline(__always)
func smoothstep(_ edge0: Double, _ edge1: Double, _ x: Double) -> Double {
    let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
    return t * t * (3 - 2 * t)
}
