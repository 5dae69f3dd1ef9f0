import AtelierRecords
import Foundation

// The draws the tests make from the package's one seeded generator, `SplitMix64`, beyond its
// own: seeded, so a failure names a seed and a case that reproduce it anywhere. (The libFuzzer
// harnesses compile this file too: fuzz/run.sh.)

extension SplitMix64 {
    /// True `percent` times in a hundred.
    public mutating func chance(percent: Int) -> Bool { below(100) < percent }

    /// One of `items`, each as likely.
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] { (0 ..< count).map { _ in UInt8(truncatingIfNeeded: next()) } }

    /// A standard normal deviate (Box and Muller).
    public mutating func gaussian() -> Double {
        let u = max(unit(), 1e-300), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
