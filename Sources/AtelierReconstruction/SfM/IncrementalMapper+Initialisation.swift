import AtelierGeometry

extension IncrementalMapper {
    /// Chooses the initial pair and triangulates it. Pairs with a relative pose are ranked: those
    /// whose median triangulation angle reaches `initialMinTriangulationAngleDegrees` first, by
    /// inlier count, then the rest by angle. The first pair that triangulates at least
    /// `initialMinPoints` points after a two-view bundle adjustment wins.
    mutating func initialise() -> Bool {
        let minAngle = options.initialMinTriangulationAngleDegrees * .pi / 180
        let candidates = pairs.indices.filter { pairs[$0].geometry.relativePose != nil && pairs[$0].geometry.configuration != .panoramic }
        let wide = candidates.filter { pairs[$0].geometry.medianTriangulationAngle >= minAngle }
            .sorted { pairs[$0].matches.count != pairs[$1].matches.count ? pairs[$0].matches.count > pairs[$1].matches.count : $0 < $1 }
        let narrow = candidates.filter { pairs[$0].geometry.medianTriangulationAngle < minAngle }
            .sorted { pairs[$0].geometry.medianTriangulationAngle > pairs[$1].geometry.medianTriangulationAngle }
        for index in (wide + narrow).prefix(options.initialMaxAttempts) {
            let pair = pairs[index]
            if tryInitialPair(pair) {
                onEvent(.initialised(image1: pair.image1, image2: pair.image2, points: model.pointCount))
                return true
            }
        }
        return false
    }

    /// Places `pair.image1` at the origin and `pair.image2` at the verified relative pose (unit
    /// baseline), triangulates their shared tracks, adjusts the two views, and keeps the result
    /// when enough points survive; otherwise leaves the model empty.
    mutating func tryInitialPair(_ pair: VerifiedPair) -> Bool {
        guard let relative = pair.geometry.relativePose else { return false }
        model.images[pair.image1].camFromWorld = CameraPose(quaternion: Quaternion(w: 1, x: 0, y: 0, z: 0), translation: .zero)
        model.images[pair.image2].camFromWorld = relative
        initialPair = (pair.image1, pair.image2)
        for match in pair.matches {
            let track = tracks.trackOfKeypoint[pair.image1][Int(match.index1)]
            guard track >= 0, model.pointOfTrack[Int(track)] < 0,
                  tracks.trackOfKeypoint[pair.image2][Int(match.index2)] == track else { continue }
            let observations = [TrackElement(image: pair.image1, keypoint: Int(match.index1)),
                                TrackElement(image: pair.image2, keypoint: Int(match.index2))]
            triangulate(track: Int(track), from: observations)
        }
        if model.pointCount >= options.initialMinPoints {
            bundleAdjust(variableImages: [pair.image1, pair.image2], refineIntrinsics: false)
            filter(points: nil)
            if model.pointCount >= options.initialMinPoints { return true }
        }
        // Undo.
        for id in model.points.indices { model.removePoint(id) }
        model.points.removeAll()
        model.images[pair.image1].camFromWorld = nil
        model.images[pair.image2].camFromWorld = nil
        initialPair = nil
        return false
    }
}
