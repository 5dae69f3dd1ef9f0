/// Powers in GF(2^255 − 19): inversion by Fermat and the Legendre symbol by Euler's criterion.
///
/// Both are fixed public exponents, so a plain left-to-right square-and-multiply over their
/// bits runs the same sequence of operations for every input: its branches follow the
/// exponent, never the secret base. About 255 squarings and 250 products each: a few
/// microseconds, spent once per handshake.
extension Field25519 {
    /// p − 2 = 2^255 − 21, little-endian: x^(p−2) = 1/x (and 0 for 0).
    static let inverseExponent: [UInt8] = [0xEB] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]

    /// (p − 1)/2 = 2^254 − 10, little-endian: Euler's criterion exponent.
    static let legendreExponent: [UInt8] = [0xF6] + [UInt8](repeating: 0xFF, count: 30) + [0x3F]

    /// self^exponent for a public little-endian exponent.
    func power(_ exponent: [UInt8]) -> Field25519 {
        var result = Field25519.one
        var started = false
        for byteIndex in stride(from: exponent.count - 1, through: 0, by: -1) {
            for bit in stride(from: 7, through: 0, by: -1) {
                if started { result = result.squared }
                if (exponent[byteIndex] >> UInt8(bit)) & 1 == 1 {
                    result = started ? result * self : self
                    started = true
                }
            }
        }
        return result
    }

    /// 1/self (0 maps to 0, as inv0 of RFC 9380).
    var inverted: Field25519 { power(Self.inverseExponent) }

    /// The Legendre symbol as a field element: 1 for a non-zero square, −1 (p − 1) for a
    /// non-square, 0 for 0.
    var legendre: Field25519 { power(Self.legendreExponent) }
}
