import AtelierGeometry

extension IncrementalMapper {
    /// Registers the next image: unregistered images are tried in decreasing order of the
    /// reconstructed points they see, and the first whose pose is found joins the model with its
    /// inlier observations. Returns it, or nil when no image can be registered now.
    mutating func registerNextImage() -> Int? {
        var candidates: [(image: Int, visible: Int)] = []
        for i in model.images.indices where !model.images[i].isRegistered && failedAttempts[i] < options.maxRegistrationAttempts {
            var visible = 0
            for track in tracks.trackOfKeypoint[i] where track >= 0 && model.pointOfTrack[Int(track)] >= 0 { visible += 1 }
            if visible > 0 { candidates.append((i, visible)) }
        }
        candidates.sort { $0.visible != $1.visible ? $0.visible > $1.visible : $0.image < $1.image }
        for candidate in candidates {
            if register(candidate.image) { return candidate.image }
        }
        return nil
    }

    /// Estimates the pose of `image` from its keypoints whose tracks have points; adds the inliers
    /// as observations. Records why when it fails.
    mutating func register(_ image: Int) -> Bool {
        var normalisedPoints: [SIMD2<Double>] = [], worldPoints: [SIMD3<Double>] = []
        var elements: [(element: TrackElement, point: Int)] = []
        for (k, track) in tracks.trackOfKeypoint[image].enumerated() where track >= 0 {
            let id = model.pointOfTrack[Int(track)]
            guard id >= 0, let point = model.points[Int(id)] else { continue }
            let element = TrackElement(image: image, keypoint: k)
            normalisedPoints.append(normalised(element))
            worldPoints.append(point.position)
            elements.append((element, Int(id)))
        }
        var poseOptions = options.absolutePose
        poseOptions.seed = options.absolutePose.seed &+ UInt64(image)
        let camera = model.intrinsics(of: image)
        guard let estimate = AbsolutePoseEstimator.estimate(normalised: normalisedPoints, pointsInWorld: worldPoints,
                                                              focalLengthPixels: camera.focalLengthPixels, options: poseOptions) else {
            failedAttempts[image] += 1
            // No counts in the words: photos left out for one cause are told in one line.
            failureReasons[image] = "its pose could not be found from the reconstructed points it sees (too few agree)"
            return false
        }
        model.images[image].camFromWorld = estimate.camFromWorld
        failureReasons[image] = nil
        for index in estimate.inliers {
            let (element, id) = elements[index]
            if let error = model.reprojectionError(point: id, observation: element, keypoints: keypoints),
               error <= options.maxReprojectionErrorPixels {
                model.addObservation(element, to: id)
            }
        }
        onEvent(.registered(image: image, registered: model.registeredImages.count, total: model.images.count))
        return true
    }
}
