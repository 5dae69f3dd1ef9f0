import Foundation

/// 64-bit perceptual hashes: pHash (low frequencies of the DCT) and dHash (brightness gradients).
///
/// They follow the definitions of Python's `imagehash` (and so its hex strings): pHash takes the
/// grey image at 32×32 (Lanczos), its 2-D DCT-II, the top-left 8×8 coefficients, and sets a bit
/// for each coefficient above their median; dHash takes the grey image at 9×8 and sets a bit
/// where a pixel is brighter than its left neighbour. Bits run row by row, most significant
/// first. Near-duplicates (re-encoded, resized, brightened) land within a few bits of each
/// other; different photos around 32 bits apart.
public enum PerceptualHash {
    /// pHash of the image (any size, any channels).
    public static func pHash(_ image: Image) -> UInt64 {
        let small = image.grey().resized(width: 32, height: 32, filter: .lanczos3)
        var coefficients = [Double](repeating: 0, count: 64)
        // Only the 8×8 lowest frequencies are needed: a direct DCT of those is cheaper than a
        // full transform. DCT-II as scipy.fftpack computes it (unnormalised, factor 2).
        var rows = [Double](repeating: 0, count: 8 * 32)  // rows[u][x]: DCT along y for frequency u
        for u in 0 ..< 8 {
            for x in 0 ..< 32 {
                var sum = 0.0
                for y in 0 ..< 32 { sum += Double(small.pixels[y * 32 + x]) * cosines[u * 32 + y] }
                rows[u * 32 + x] = 2 * sum
            }
        }
        for u in 0 ..< 8 {
            for v in 0 ..< 8 {
                var sum = 0.0
                for x in 0 ..< 32 { sum += rows[u * 32 + x] * cosines[v * 32 + x] }
                coefficients[u * 8 + v] = 2 * sum
            }
        }
        let sorted = coefficients.sorted()
        let median = (sorted[31] + sorted[32]) / 2
        return coefficients.reduce(0) { ($0 << 1) | ($1 > median ? 1 : 0) }
    }

    /// dHash of the image (any size, any channels).
    public static func dHash(_ image: Image) -> UInt64 {
        let small = image.grey().resized(width: 9, height: 8, filter: .lanczos3)
        var hash: UInt64 = 0
        for y in 0 ..< 8 {
            for x in 0 ..< 8 {
                hash = (hash << 1) | (small.pixels[y * 9 + x + 1] > small.pixels[y * 9 + x] ? 1 : 0)
            }
        }
        return hash
    }

    /// The hash as 16 lower-case hex digits, as `imagehash` prints it.
    public static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public static func parse(_ hex: String) -> UInt64? {
        hex.utf8.count == 16 ? UInt64(hex, radix: 16) : nil
    }

    /// Bits that differ.
    @inlinable
    public static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }

    /// cos(π (2n + 1) k / 64) for k < 8, n < 32.
    private static let cosines: [Double] = (0 ..< 8 * 32).map { index in
        let k = Double(index / 32), n = Double(index % 32)
        return cos(Double.pi * (2 * n + 1) * k / 64)
    }
}
