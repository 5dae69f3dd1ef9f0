/// Picks one photo per face: the best view for each face, then smoothed so neighbouring faces
/// share a photo and charts come out large.
///
/// The energy is Waechter et al.'s (ECCV 2014) with a Potts smoothness term: a face's data cost
/// for view `l` is `1 − quality(l) / best quality`, so it is 0 for its best view and near 1 for a
/// grazing one, and each edge whose two faces differ costs `smoothness`. It is minimised by
/// iterated conditional modes (Besag 1986) rather than graph cuts: a face takes whichever of its
/// current label, its best label and its neighbours' labels costs least, sweeping the faces in
/// order until nothing changes (or a few passes), which is deterministic and, with Potts, close
/// enough: the labels it can move to are exactly those that can lower the energy.
enum ViewLabelling {
    /// The view of each face, or -1 for a face no view sees.
    static func labels(quality: [Float], viewCount: Int, topology: FaceTopology, smoothness: Double, passes: Int = 6) -> [Int32] {
        let faceCount = topology.faceCount
        var labels = [Int32](repeating: -1, count: faceCount)
        var best = [Float](repeating: 0, count: faceCount)
        for f in 0 ..< faceCount {
            for v in 0 ..< viewCount where quality[v * faceCount + f] > best[f] {
                best[f] = quality[v * faceCount + f]
                labels[f] = Int32(v)
            }
        }
        guard smoothness > 0 else { return labels }
        let bestLabels = labels
        let lambda = Float(smoothness)
        let neighbours = topology.neighbours
        for _ in 0 ..< passes {
            var changed = 0
            for f in 0 ..< faceCount where labels[f] >= 0 {
                let around = (neighbours[3 * f], neighbours[3 * f + 1], neighbours[3 * f + 2])
                let aroundLabels = (around.0 >= 0 ? labels[Int(around.0)] : -1,
                                    around.1 >= 0 ? labels[Int(around.1)] : -1,
                                    around.2 >= 0 ? labels[Int(around.2)] : -1)
                func cost(_ l: Int32) -> Float {
                    let q = quality[Int(l) * faceCount + f]
                    guard q > 0 else { return .infinity }
                    var disagreements: Float = 0
                    if aroundLabels.0 >= 0 && aroundLabels.0 != l { disagreements += 1 }
                    if aroundLabels.1 >= 0 && aroundLabels.1 != l { disagreements += 1 }
                    if aroundLabels.2 >= 0 && aroundLabels.2 != l { disagreements += 1 }
                    return 1 - q / best[f] + lambda * disagreements
                }
                var chosen = labels[f]
                var chosenCost = cost(chosen)
                func consider(_ candidate: Int32) {
                    guard candidate >= 0, candidate != chosen else { return }
                    let c = cost(candidate)
                    // Ties go to the lower view index, so the sweep cannot flip-flop.
                    if c < chosenCost || (c == chosenCost && candidate < chosen) {
                        chosen = candidate
                        chosenCost = c
                    }
                }
                consider(bestLabels[f])
                consider(aroundLabels.0)
                consider(aroundLabels.1)
                consider(aroundLabels.2)
                if chosen != labels[f] {
                    labels[f] = chosen
                    changed += 1
                }
            }
            if changed == 0 { break }
        }
        return labels
    }
}
