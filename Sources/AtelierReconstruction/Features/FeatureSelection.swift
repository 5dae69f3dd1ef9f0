/// Which detections to keep when there are more than the cap: the strongest, spread over the
/// image.
///
/// Keeping only the highest |DoG| would pile the features onto the most contrasted part of the
/// picture (a printed motif) and leave plain areas bare, which starves the pose estimate of
/// spread-out correspondences. So the image is cut into a grid of `cellsAlongLongerSide`
/// cells along its longer side (square cells), and detections are taken round by round: in
/// round k each cell gives its k-th strongest, and the rounds are ordered by strength within.
/// The first round is each cell's best feature, the second round each cell's second best, and
/// so on until the cap is reached.
enum FeatureSelection {
    static let cellsAlongLongerSide = 16

    /// Indices of `detections` in the order they are to be kept; `position` maps a detection to
    /// working-image pixels and `strength` to its |DoG|. Ties are broken by index, so the order
    /// is a pure function of the input order.
    static func priorityOrder(count: Int, width: Int, height: Int,
                              position: (Int) -> (x: Float, y: Float), strength: (Int) -> Float) -> [Int] {
        let cellSide = Float(max(width, height)) / Float(cellsAlongLongerSide)
        let columns = Int((Float(width) / cellSide).rounded(.up)) + 1
        let byStrength = (0 ..< count).sorted { a, b in
            let sa = strength(a), sb = strength(b)
            return sa != sb ? sa > sb : a < b
        }
        var taken = [Int: Int]()
        var round = [Int](repeating: 0, count: count)
        for index in byStrength {
            let (x, y) = position(index)
            let cell = max(0, Int(y / cellSide)) * columns + max(0, Int(x / cellSide))
            round[index] = taken[cell, default: 0]
            taken[cell, default: 0] += 1
        }
        var rank = [Int](repeating: 0, count: count)
        for (position, index) in byStrength.enumerated() { rank[index] = position }
        return byStrength.sorted { a, b in round[a] != round[b] ? round[a] < round[b] : rank[a] < rank[b] }
    }
}
