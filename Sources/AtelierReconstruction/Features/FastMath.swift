/// The angle of the vector (x, y) in [0, 2π), to about 10⁻⁵ rad: the gradient angle of every
/// sample in every orientation and descriptor window, where `atan2` from libm would cost several
/// times the rest of the loop.
///
/// The arctangent on [0, 1] is the degree-9 odd polynomial of Abramowitz & Stegun 4.4.47
/// (|error| ≤ 10⁻⁵); the octant is restored with the identities atan(a) = π/2 − atan(1/a) and
/// atan2's reflections. (0, 0) gives 0.
@inline(__always)
func fastAngle(y: Float, x: Float) -> Float {
    let ax = abs(x), ay = abs(y)
    let steep = ay > ax
    let numerator = steep ? ax : ay, denominator = steep ? ay : ax
    let a = denominator > 0 ? numerator / denominator : 0
    let s = a * a
    var angle = a * (0.999_866_0 + s * (-0.330_299_5 + s * (0.180_141_0 + s * (-0.085_133_0 + s * 0.020_835_1))))
    if steep { angle = 0.5 * Float.pi - angle }
    if x < 0 { angle = Float.pi - angle }
    if y < 0 { angle = 2 * Float.pi - angle }
    return angle >= 2 * Float.pi ? angle - 2 * Float.pi : angle
}

/// `fastAngle` on eight vectors at once, lane for lane the same arithmetic.
@inline(__always)
func fastAngle(y: SIMD8<Float>, x: SIMD8<Float>) -> SIMD8<Float> {
    let ax = x.replacing(with: -x, where: x .< 0), ay = y.replacing(with: -y, where: y .< 0)
    let steep = ay .> ax
    let numerator = ay.replacing(with: ax, where: steep), denominator = ax.replacing(with: ay, where: steep)
    let a = (numerator / denominator).replacing(with: 0, where: denominator .<= 0)
    let s = a * a
    var angle = a * (0.999_866_0 + s * (-0.330_299_5 + s * (0.180_141_0 + s * (-0.085_133_0 + s * 0.020_835_1))))
    angle.replace(with: 0.5 * Float.pi - angle, where: steep)
    angle.replace(with: Float.pi - angle, where: x .< 0)
    angle.replace(with: 2 * Float.pi - angle, where: y .< 0)
    angle.replace(with: angle - 2 * Float.pi, where: angle .>= 2 * Float.pi)
    return angle
}
