import Foundation

/// Time-sortable record ids: a type prefix and a ULID in lower-case Crockford base32
/// (`g_01jd3k…`). Ids made later sort later, so `ORDER BY id` is creation order.
public struct RecordIDGenerator: Sendable {
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    private var lastMillis: UInt64 = 0
    private var lastRandom: (UInt16, UInt64) = (0, 0)
    private var rng: SplitMix64?

    /// Ids from the clock and system randomness.
    public init() {}

    /// Reproducible ids from a seed (the sample wardrobe, tests).
    public init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// The next id with `prefix` (`g`, `o`, `l`, `m`, `b`); monotonic within one generator.
    public mutating func next(_ prefix: String, at date: Date = Date()) -> String {
        let millis = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        if millis <= lastMillis {
            // Same millisecond: increment the random part so ids stay strictly increasing.
            let (low, carry) = lastRandom.1.addingReportingOverflow(1)
            lastRandom = (lastRandom.0 &+ (carry ? 1 : 0), low)
        } else {
            lastMillis = millis
            if var r = rng {
                lastRandom = (UInt16(truncatingIfNeeded: r.next()), r.next())
                rng = r
            } else {
                lastRandom = (UInt16.random(in: 0...UInt16.max), UInt64.random(in: 0...UInt64.max))
            }
        }
        // 48 bits of time and 80 of randomness: 128 bits, 26 base32 characters, written straight
        // into the String after the prefix (one allocation: a bulk import makes one id a record).
        let high = (lastMillis << 16) | UInt64(lastRandom.0)
        let low = lastRandom.1
        var prefix = prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 27) { out in
                _ = out.initialize(fromContentsOf: head)
                out[head.count] = UInt8(ascii: "_")
                Self.alphabet.withUnsafeBufferPointer { alphabet in
                    for i in 0 ..< 26 {
                        let shift = 125 - 5 * i  // this character's lowest bit, counting from 0
                        let value: UInt64
                        if shift >= 64 {
                            value = high >> UInt64(shift - 64)
                        } else if shift + 5 <= 64 {
                            value = low >> UInt64(shift)
                        } else {
                            value = (low >> UInt64(shift)) | (high << UInt64(64 - shift))
                        }
                        out[head.count + 1 + i] = alphabet[Int(value & 0x1F)]
                    }
                }
                return head.count + 27
            }
        }
    }

    /// Whether `id` looks like an id this generator makes, with the given prefix.
    public static func isValid(_ id: String, prefix: String) -> Bool {
        let u = Array(id.utf8)
        let p = Array(prefix.utf8)
        guard u.count > p.count + 1, u.count <= p.count + 1 + 64, Array(u[0..<p.count]) == p,
              u[p.count] == UInt8(ascii: "_") else { return false }
        return u[(p.count + 1)...].allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                || ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }
}
