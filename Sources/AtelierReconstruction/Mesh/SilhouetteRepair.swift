import AtelierGeometry

/// Mends the photos' silhouettes with what the other photos confirmed: every dense point is on
/// the object, and the object's silhouette in a photo holds the projection of every point of it,
/// seen or hidden. So each point that lands on a pixel the photo's mask rules out marks it (and
/// the pixels next to it) as on the object.
///
/// Why: fusion takes a masked-out pixel as empty space along its whole ray. An automatic
/// silhouette that missed part of the object (a base cut off from the body by a thin pole, a pale
/// part that matched the backdrop) would otherwise carve a tunnel through the solid from that
/// view, leaving walls inside it.
enum SilhouetteRepair {
    /// The views' masks widened; views without a mask are left as they are. Returns how many
    /// pixels were added in all.
    @discardableResult
    static func widen(_ views: inout [DenseView], with points: [DensePoint], radius: Int, splitter: WorkSplitter) -> Int {
        let frozen = views
        let repaired: [(mask: [Bool], added: Int)] = splitter.map(views.count, balanced: true) { v in
            let view = frozen[v]
            guard !view.mask.isEmpty else { return (view.mask, 0) }
            var mask = view.mask, added = 0
            let width = view.width, height = view.height
            let f = view.intrinsics.focalLengthPixels, c = view.intrinsics.principalPoint
            for point in points {
                let inCam = view.pose.pointInCam(SIMD3<Double>(point.position))
                guard inCam.z > 0 else { continue }
                let u = Int((f * inCam.x / inCam.z + c.x).rounded(.down)), w = Int((f * inCam.y / inCam.z + c.y).rounded(.down))
                guard u >= -radius, w >= -radius, u < width + radius, w < height + radius else { continue }
                for y in max(0, w - radius) ... min(height - 1, w + radius) {
                    for x in max(0, u - radius) ... min(width - 1, u + radius) where !mask[y * width + x] {
                        mask[y * width + x] = true
                        added += 1
                    }
                }
            }
            return (mask, added)
        }
        var added = 0
        for v in views.indices {
            views[v].mask = repaired[v].mask
            added += repaired[v].added
        }
        return added
    }
}
