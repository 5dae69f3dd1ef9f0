import AtelierGeometry

extension IncrementalMapper {
    /// Refines the new image, the registered images sharing the most points with it, and the
    /// points they see; the other images seeing those points hold still. Then filters those points.
    mutating func adjustLocally(around image: Int) {
        var shared: [Int: Int] = [:]
        for id in model.pointOfKeypoint[image] where id >= 0 {
            for o in model.points[Int(id)]!.observations where Int(o.image) != image { shared[Int(o.image), default: 0] += 1 }
        }
        let neighbours = shared.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .prefix(max(0, options.localBundleImages - 1)).map(\.key)
        let variable = Set([image] + neighbours)
        let touched = bundleAdjust(variableImages: variable, refineIntrinsics: false)?.points
        filter(points: touched)
    }

    /// Bundle-adjusts the images in `variableImages` and every point they see, with the other
    /// images that see those points held fixed. When no image is held fixed, the initial pair
    /// fixes the gauge: the first's pose and the largest coordinate of the second's translation.
    /// Returns the report and the ids of the points adjusted, or nil when there was nothing to do.
    @discardableResult
    mutating func bundleAdjust(variableImages: Set<Int>, refineIntrinsics: Bool) -> (report: BundleAdjustmentReport, points: [Int])? {
        var pointIDs: [Int] = [], seen = Set<Int>()
        for image in variableImages.sorted() {
            for id in model.pointOfKeypoint[image] where id >= 0 && seen.insert(Int(id)).inserted { pointIDs.append(Int(id)) }
        }
        guard !pointIDs.isEmpty else { return nil }
        var imageIndex: [Int: Int] = [:], images: [Int] = []
        var observations: [BundleAdjustmentObservation] = []
        for (p, id) in pointIDs.enumerated() {
            for o in model.points[id]!.observations {
                let image = Int(o.image)
                let index = imageIndex[image] ?? {
                    imageIndex[image] = images.count
                    images.append(image)
                    return images.count - 1
                }()
                observations.append(BundleAdjustmentObservation(image: Int32(index), point: Int32(p), pixel: keypoints[image][Int(o.keypoint)]))
            }
        }
        var problem = BundleAdjustmentProblem(cameras: model.cameras, imageCamera: images.map { model.images[$0].camera },
                                              poses: images.map { model.images[$0].camFromWorld! },
                                              points: pointIDs.map { model.points[$0]!.position }, observations: observations)
        var baOptions = BundleAdjustmentOptions()
        baOptions.threads = options.threads
        let refine = refineIntrinsics ? options.refineIntrinsics : []
        baOptions.refineFocalLength = refine.contains(.focalLength)
        baOptions.refinePrincipalPoint = refine.contains(.principalPoint)
        baOptions.refineDistortion = refine.contains(.k1) || refine.contains(.k2)
        baOptions.refineSecondDistortionCoefficient = refine.contains(.k2)
        baOptions.constantPoses = Set(images.indices.filter { !variableImages.contains(images[$0]) })
        if refine.isEmpty { baOptions.constantCameras = Set(model.cameras.indices) }
        if baOptions.constantPoses.isEmpty, let (first, second) = initialPair, let a = imageIndex[first], let b = imageIndex[second] {
            baOptions.constantPoses = [a]
            let t = problem.poses[b].translation
            let axis = abs(t.x) >= abs(t.y) && abs(t.x) >= abs(t.z) ? 0 : (abs(t.y) >= abs(t.z) ? 1 : 2)
            baOptions.constantTranslationComponent = (b, axis)
        }
        let report = BundleAdjuster.adjust(&problem, options: baOptions)
        if case .failed = report.termination { return (report, pointIDs) }
        for (index, image) in images.enumerated() where variableImages.contains(image) { model.images[image].camFromWorld = problem.poses[index] }
        for (p, id) in pointIDs.enumerated() { model.points[id]!.position = problem.points[p] }
        if !refine.isEmpty { model.cameras = problem.cameras }
        return (report, pointIDs)
    }

    /// Drops observations of `points` (all points when nil) that reproject beyond the threshold
    /// or lie behind their camera, then points left with fewer than two observations or without
    /// two rays `minTriangulationAngleDegrees` apart.
    mutating func filter(points ids: [Int]?) {
        for id in ids ?? Array(model.points.indices) {
            guard let point = model.points[id] else { continue }
            for o in point.observations where !isAcceptable(point.position, seenBy: o) { model.removeObservation(o, from: id) }
            guard let kept = model.points[id] else { continue }
            if !hasEnoughAngle(kept.position, observations: kept.observations) { model.removePoint(id) }
        }
    }
}
