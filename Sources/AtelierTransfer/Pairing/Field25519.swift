/// An element of the field GF(2^255 − 19), for the Elligator 2 map of CPace.
///
/// Five unsigned 51-bit limbs (radix 2^51), as in the "donna-c64" representation: value =
/// l0 + l1·2^51 + l2·2^102 + l3·2^153 + l4·2^204. Every operation carries its result so that
/// limbs stay below 2^52, which keeps the 128-bit sums of `*` below 2^112 and the final wrap
/// (×19) inside 64 bits. The code has no branches and no table look-ups that depend on the
/// values: carries are shifts and masks, and `select` picks with a mask. Only the exponents
/// of `power` (public constants) steer a loop.
struct Field25519: Sendable, Equatable {
    var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64

    static let mask: UInt64 = (1 << 51) - 1
    static let zero = Field25519(l0: 0, l1: 0, l2: 0, l3: 0, l4: 0)
    static let one = Field25519(l0: 1, l1: 0, l2: 0, l3: 0, l4: 0)

    init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4) = (l0, l1, l2, l3, l4)
    }

    /// A small constant.
    init(_ value: UInt64) {
        self = Field25519(l0: value & Self.mask, l1: value >> 51, l2: 0, l3: 0, l4: 0)
    }

    /// decodeUCoordinate of RFC 7748: 32 little-endian bytes, bit 255 ignored. Values from p to
    /// 2^255 − 1 (non-canonical) are accepted and reduce as they should.
    init(bytes: some Collection<UInt8>) {
        precondition(bytes.count == 32, "a field element is 32 bytes")
        var words = [UInt64](repeating: 0, count: 4)
        for (i, byte) in bytes.enumerated() { words[i / 8] |= UInt64(byte) << UInt64(8 * (i % 8)) }
        let m = Self.mask
        l0 = words[0] & m
        l1 = (words[0] >> 51 | words[1] << 13) & m
        l2 = (words[1] >> 38 | words[2] << 26) & m
        l3 = (words[2] >> 25 | words[3] << 39) & m
        l4 = (words[3] >> 12) & m
    }

    /// encodeUCoordinate of RFC 7748: the canonical value (below p), 32 little-endian bytes.
    var bytes: [UInt8] {
        var t = self.carried().carried()
        // Now 0 ≤ t < 2^255 with limbs below 2^51. Add 19 and carry: values p…2^255−1 overflow
        // into bit 255, which the wrap turns back into +19; then add 2^255 − 19 limb-wise and
        // drop bit 255, which subtracts the 19 again and leaves t mod p.
        t.l0 &+= 19
        t = t.carried()
        t.l0 &+= Self.mask + 1 - 19
        t.l1 &+= Self.mask
        t.l2 &+= Self.mask
        t.l3 &+= Self.mask
        t.l4 &+= Self.mask
        t.l1 &+= t.l0 >> 51; t.l0 &= Self.mask
        t.l2 &+= t.l1 >> 51; t.l1 &= Self.mask
        t.l3 &+= t.l2 >> 51; t.l2 &= Self.mask
        t.l4 &+= t.l3 >> 51; t.l3 &= Self.mask
        t.l4 &= Self.mask
        let words = [t.l0 | t.l1 << 51, t.l1 >> 13 | t.l2 << 38, t.l2 >> 26 | t.l3 << 25, t.l3 >> 39 | t.l4 << 12]
        var out = [UInt8](repeating: 0, count: 32)
        for i in 0..<32 { out[i] = UInt8(truncatingIfNeeded: words[i / 8] >> UInt64(8 * (i % 8))) }
        return out
    }

    /// One carry pass: limbs 1–4 below 2^51, limb 0 below 2^51 + 19·2^13; the excess of
    /// limb 4 wraps to limb 0 times 19 (2^255 ≡ 19).
    func carried() -> Field25519 {
        var t = self
        t.l1 &+= t.l0 >> 51; t.l0 &= Self.mask
        t.l2 &+= t.l1 >> 51; t.l1 &= Self.mask
        t.l3 &+= t.l2 >> 51; t.l2 &= Self.mask
        t.l4 &+= t.l3 >> 51; t.l3 &= Self.mask
        t.l0 &+= 19 &* (t.l4 >> 51); t.l4 &= Self.mask
        return t
    }

    static func + (a: Field25519, b: Field25519) -> Field25519 {
        Field25519(l0: a.l0 &+ b.l0, l1: a.l1 &+ b.l1, l2: a.l2 &+ b.l2, l3: a.l3 &+ b.l3, l4: a.l4 &+ b.l4).carried()
    }

    /// a − b, computed as a + 2p − b so that no limb goes negative (limbs of b are below 2^52).
    static func - (a: Field25519, b: Field25519) -> Field25519 {
        let twoP0: UInt64 = 0xF_FFFF_FFFF_FFDA   // 2·(2^51 − 19)
        let twoP: UInt64 = 0xF_FFFF_FFFF_FFFE    // 2·(2^51 − 1)
        return Field25519(l0: a.l0 &+ twoP0 &- b.l0, l1: a.l1 &+ twoP &- b.l1, l2: a.l2 &+ twoP &- b.l2,
                          l3: a.l3 &+ twoP &- b.l3, l4: a.l4 &+ twoP &- b.l4).carried()
    }

    static prefix func - (a: Field25519) -> Field25519 { zero - a }

    /// Schoolbook product with the wrap 2^255 ≡ 19 folded in (b's high limbs pre-multiplied by 19).
    static func * (a: Field25519, b: Field25519) -> Field25519 {
        let b1 = b.l1 &* 19, b2 = b.l2 &* 19, b3 = b.l3 &* 19, b4 = b.l4 &* 19
        var t0 = Wide(a.l0, b.l0); t0.add(a.l1, b4); t0.add(a.l2, b3); t0.add(a.l3, b2); t0.add(a.l4, b1)
        var t1 = Wide(a.l0, b.l1); t1.add(a.l1, b.l0); t1.add(a.l2, b4); t1.add(a.l3, b3); t1.add(a.l4, b2)
        var t2 = Wide(a.l0, b.l2); t2.add(a.l1, b.l1); t2.add(a.l2, b.l0); t2.add(a.l3, b4); t2.add(a.l4, b3)
        var t3 = Wide(a.l0, b.l3); t3.add(a.l1, b.l2); t3.add(a.l2, b.l1); t3.add(a.l3, b.l0); t3.add(a.l4, b4)
        var t4 = Wide(a.l0, b.l4); t4.add(a.l1, b.l3); t4.add(a.l2, b.l2); t4.add(a.l3, b.l1); t4.add(a.l4, b.l0)
        var r = Field25519.zero
        r.l0 = t0.lo & mask; t1.add(t0.shifted51)
        r.l1 = t1.lo & mask; t2.add(t1.shifted51)
        r.l2 = t2.lo & mask; t3.add(t2.shifted51)
        r.l3 = t3.lo & mask; t4.add(t3.shifted51)
        r.l4 = t4.lo & mask
        r.l0 &+= t4.shifted51 &* 19
        return r.carried()
    }

    var squared: Field25519 { self * self }

    /// `a` when `choice` is 0, `b` when it is 1, without branching on `choice`.
    static func select(_ a: Field25519, _ b: Field25519, choice: UInt64) -> Field25519 {
        let m = 0 &- (choice & 1)
        return Field25519(l0: a.l0 ^ (m & (a.l0 ^ b.l0)), l1: a.l1 ^ (m & (a.l1 ^ b.l1)), l2: a.l2 ^ (m & (a.l2 ^ b.l2)),
                          l3: a.l3 ^ (m & (a.l3 ^ b.l3)), l4: a.l4 ^ (m & (a.l4 ^ b.l4)))
    }

    /// 1 when the element is 0 mod p, else 0; reads every byte of the canonical encoding.
    var isZero: UInt64 {
        var accumulated: UInt8 = 0
        for byte in bytes { accumulated |= byte }
        return (UInt64(accumulated) &- 1) >> 63
    }

    /// Equality of values mod p (representations may differ).
    static func == (a: Field25519, b: Field25519) -> Bool { a.bytes == b.bytes }
}

/// A 128-bit accumulator of 64×64-bit products, without branches: the carry out of the low
/// word is added as a number, not tested.
struct Wide {
    var hi: UInt64
    var lo: UInt64

    @inline(__always) init(_ a: UInt64, _ b: UInt64) {
        let product = a.multipliedFullWidth(by: b)
        (hi, lo) = (product.high, product.low)
    }

    @inline(__always) mutating func add(_ a: UInt64, _ b: UInt64) {
        let product = a.multipliedFullWidth(by: b)
        let (sum, overflow) = lo.addingReportingOverflow(product.low)
        lo = sum
        hi = hi &+ product.high &+ UInt64(unsafeBitCast(overflow, to: UInt8.self))
    }

    @inline(__always) mutating func add(_ value: UInt64) {
        let (sum, overflow) = lo.addingReportingOverflow(value)
        lo = sum
        hi = hi &+ UInt64(unsafeBitCast(overflow, to: UInt8.self))
    }

    /// The value shifted right by 51 bits (fits in 64 bits for the sums `*` makes).
    @inline(__always) var shifted51: UInt64 { hi << 13 | lo >> 51 }
}
