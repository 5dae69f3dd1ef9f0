import Foundation
import AtelierGeometry

/// Which photos each photo is matched against in multi-view stereo: those sharing the most
/// sparse points seen under a useful angle. A shared point counts fully when the two rays to it
/// meet at 5° to 45° (enough baseline to measure depth, little enough change of viewpoint for
/// patches to look alike), less outside that (COLMAP's and ACMM's rule of thumb).
enum ViewNeighbours {
    /// For each registered image in `images`, up to `count` others, best first.
    static func choose(in model: SparseModel, images: [Int], count: Int) -> [[Int]] {
        let position = Dictionary(uniqueKeysWithValues: images.enumerated().map { ($1, $0) })
        var scores = [[Double]](repeating: [Double](repeating: 0, count: images.count), count: images.count)
        let centres = images.map { model.images[$0].camFromWorld!.centre }
        for case let point? in model.points {
            let seen = point.observations.compactMap { position[Int($0.image)] }
            guard seen.count >= 2 else { continue }
            let rays = seen.map { (point.position - centres[$0]).normalized }
            for a in 0 ..< seen.count {
                for b in a + 1 ..< seen.count {
                    let angle = acos(min(1, max(-1, rays[a].dot(rays[b])))) * 180 / .pi
                    let weight = angle < 5 ? (angle / 5) * (angle / 5) : angle > 45 ? max(0, 1 - (angle - 45) / 30) : 1
                    scores[seen[a]][seen[b]] += weight
                    scores[seen[b]][seen[a]] += weight
                }
            }
        }
        return images.indices.map { i in
            images.indices.filter { $0 != i && scores[i][$0] > 0 }
                .sorted { scores[i][$0] != scores[i][$1] ? scores[i][$0] > scores[i][$1] : $0 < $1 }
                .prefix(count).map { $0 }
        }
    }

    /// The depth range of the sparse points `image` sees, from the 2nd to the 98th percentile,
    /// widened by a quarter each way; nil when it sees fewer than 10.
    static func depthRange(in model: SparseModel, image: Int) -> ClosedRange<Float>? {
        guard let pose = model.images[image].camFromWorld else { return nil }
        var depths: [Double] = []
        for id in model.pointOfKeypoint[image] where id >= 0 {
            if let p = model.points[Int(id)] { depths.append(pose.pointInCam(p.position).z) }
        }
        depths = depths.filter { $0 > 0 }.sorted()
        guard depths.count >= 10 else { return nil }
        let low = depths[depths.count * 2 / 100], high = depths[depths.count * 98 / 100]
        return Float(low * 0.75) ... Float(high * 1.25)
    }
}
