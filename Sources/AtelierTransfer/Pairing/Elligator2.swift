/// The Elligator 2 map onto Curve25519, as CPace's calculate_generator uses it.
///
/// Implements `elligator2(r)` of draft-irtf-cfrg-cpace appendix A.5 (equivalent to
/// map_to_curve_elligator2 of RFC 9380 §6.7.1, keeping only the u-coordinate) with the curve's
/// A = 486662, B = 1 and the non-square Z = 2:
///
///     v = −A / (1 + Z·r²)
///     ε = legendre(v³ + A·v² + B·v)
///     u = ε·v − (1 − ε)·A/2
///
/// so u = v when v is the u of a curve point and u = −v − A otherwise. Written with ε as a
/// field element, the choice needs no branch. 1 + 2r² is never 0 (−1/2 is not a square mod p).
enum Elligator2 {
    static let curveA = Field25519(486_662)
    static let halfCurveA = Field25519(243_331)
    static let nonSquareZ = Field25519(2)

    /// The u-coordinate (32 bytes, canonical) the map sends the field element `r` to.
    static func map(_ r: Field25519) -> [UInt8] {
        let denominator = Field25519.one + nonSquareZ * r.squared
        let v = -(curveA * denominator.inverted)
        let v2 = v.squared
        let curveValue = v2 * v + curveA * v2 + v
        let epsilon = curveValue.legendre
        let u = epsilon * v - (Field25519.one - epsilon) * halfCurveA
        return u.bytes
    }

    /// The map applied to 32 bytes read as decodeUCoordinate(bytes, 255) of RFC 7748.
    static func map(bytes: some Collection<UInt8>) -> [UInt8] {
        map(Field25519(bytes: bytes))
    }
}
