import AtelierGeometry

extension IncrementalMapper {
    /// Triangulates the tracks that `image` completes: those with no point yet and at least one
    /// other registered image.
    mutating func triangulate(image: Int) {
        for track in tracks.trackOfKeypoint[image] where track >= 0 && model.pointOfTrack[Int(track)] < 0 {
            triangulate(track: Int(track))
        }
    }

    /// Triangulates every track without a point that now has two registered images; returns how
    /// many points were made.
    mutating func triangulateAll() -> Int {
        var made = 0
        for track in 0 ..< tracks.count where model.pointOfTrack[track] < 0 {
            if triangulate(track: track) { made += 1 }
        }
        return made
    }

    /// Triangulates `track` from its elements in registered images.
    @discardableResult
    mutating func triangulate(track: Int) -> Bool {
        let registered = tracks.elements(of: track).filter { model.images[Int($0.image)].isRegistered }
        guard registered.count >= 2 else { return false }
        return triangulate(track: track, from: Array(registered))
    }

    /// Makes a point of `track` from `observations` when it lies in front of every camera, is
    /// seen from two rays at least `minTriangulationAngleDegrees` apart, and reprojects within
    /// `maxReprojectionErrorPixels` in at least two of them (only those are kept). One retry
    /// without the observations that failed, since one bad keypoint skews the linear solution.
    @discardableResult
    mutating func triangulate(track: Int, from observations: [TrackElement]) -> Bool {
        var current = observations
        for _ in 0 ..< 2 {
            guard current.count >= 2 else { return false }
            let rays = current.map { (camFromWorld: model.images[Int($0.image)].camFromWorld!, normalised: normalised($0)) }
            guard let position = Triangulation.point(rays) else { return false }
            let good = current.filter { isAcceptable(position, seenBy: $0) }
            if good.count == current.count {
                guard hasEnoughAngle(position, observations: good) else { return false }
                model.addPoint(position: position, track: track, observations: good)
                return true
            }
            current = good
        }
        return false
    }

    /// In front of the camera and within the reprojection threshold.
    func isAcceptable(_ position: SIMD3<Double>, seenBy element: TrackElement) -> Bool {
        let image = Int(element.image)
        guard let pose = model.images[image].camFromWorld,
              let projected = model.intrinsics(of: image).project(pose.pointInCam(position)) else { return false }
        let d = projected - keypoints[image][Int(element.keypoint)]
        let limit = options.maxReprojectionErrorPixels
        return (d * d).sum() <= limit * limit
    }

    /// Whether some two of the observing cameras see `position` from rays at least
    /// `minTriangulationAngleDegrees` apart.
    func hasEnoughAngle(_ position: SIMD3<Double>, observations: [TrackElement]) -> Bool {
        let minAngle = options.minTriangulationAngleDegrees * .pi / 180
        let centres = observations.map { model.images[Int($0.image)].camFromWorld!.centre }
        for a in 0 ..< centres.count {
            for b in a + 1 ..< centres.count where Triangulation.angleRadians(centre1: centres[a], centre2: centres[b], point: position) >= minAngle {
                return true
            }
        }
        return false
    }

    /// Adds to existing points the observations in registered images that their tracks hold but
    /// the points lack (dropped as outliers earlier, or rejected at registration) and that now
    /// reproject within the threshold. Returns how many were added.
    mutating func completeTracks() -> Int {
        var added = 0
        for id in model.points.indices {
            guard let point = model.points[id] else { continue }
            for element in tracks.elements(of: point.track)
            where model.images[Int(element.image)].isRegistered && model.pointOfKeypoint[Int(element.image)][Int(element.keypoint)] < 0 {
                if isAcceptable(point.position, seenBy: element) {
                    model.addObservation(element, to: id)
                    added += 1
                }
            }
        }
        return added
    }
}
