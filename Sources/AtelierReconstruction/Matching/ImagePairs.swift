/// Which pairs of images to match.
public enum ImagePairs: Sendable, Equatable {
    /// Every pair: n(n−1)/2 of them. Right for up to a few dozen images in any order.
    case exhaustive
    /// Each image with the `overlap` images after it in capture order, and with those 2, 4, 8, …
    /// after it (COLMAP's quadratic overlap, which links distant parts of a long sequence),
    /// wrapping round from the last image to the first when `closedLoop` is set, as a walk or a
    /// turntable round an object ends where it began.
    case sequential(overlap: Int, closedLoop: Bool)

    /// The pairs `(i, j)`, `i < j`, for `count` images, without repeats, in a fixed order.
    public func pairs(count: Int) -> [(Int, Int)] {
        guard count >= 2 else { return [] }
        switch self {
        case .exhaustive:
            return (0 ..< count).flatMap { i in (i + 1 ..< count).map { (i, $0) } }
        case .sequential(let overlap, let closedLoop):
            var offsets = Set(1 ... max(1, overlap))
            var power = 2
            while power < count {
                offsets.insert(power)
                power *= 2
            }
            var seen = Set<Int>(), result: [(Int, Int)] = []
            for i in 0 ..< count {
                for offset in offsets.sorted() {
                    var j = i + offset
                    if j >= count {
                        guard closedLoop else { continue }
                        j -= count
                    }
                    let pair = (min(i, j), max(i, j))
                    guard pair.0 != pair.1, seen.insert(pair.0 * count + pair.1).inserted else { continue }
                    result.append(pair)
                }
            }
            return result.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        }
    }
}
