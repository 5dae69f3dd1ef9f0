/// The stages after decoding: scale space, detection, selection, orientation, description.
extension FeatureExtractor {
    /// The features of `plane` (luma in [0, 1], the working image), reported in the pixels of
    /// an original image `imageWidth` × `imageHeight` of which it is a resized copy.
    func describe(_ plane: FloatPlane, imageWidth: Int, imageHeight: Int, mask: FeatureMask?, splitter: WorkSplitter) -> Features {
        let workingWidth = plane.width, workingHeight = plane.height
        let scaleX = Float(imageWidth) / Float(workingWidth), scaleY = Float(imageHeight) / Float(workingHeight)
        let octaves = buildAndDetect(plane, splitter: splitter)
        var detections = octaves.detections

        // Working-image pixels (top-left corner at 0, 0) of a detection.
        let spacings = octaves.octaves.map(\.spacing)
        func workingPosition(_ d: Detection) -> (x: Float, y: Float) {
            (d.x * spacings[d.octaveSlot] + 0.5, d.y * spacings[d.octaveSlot] + 0.5)
        }
        if let mask {
            detections = detections.filter { d in
                let p = workingPosition(d)
                return mask.allows(x: p.x * scaleX, y: p.y * scaleY, imageWidth: imageWidth, imageHeight: imageHeight)
            }
        }
        let cap = settings.resolvedMaxFeatures
        if detections.count > cap {
            let order = FeatureSelection.priorityOrder(count: detections.count, width: workingWidth, height: workingHeight,
                                                       position: { workingPosition(detections[$0]) },
                                                       strength: { abs(detections[$0].response) })
            detections = order.prefix(cap).map { detections[$0] }
        }

        let chosen = detections, levels = octaves.octaves
        let estimator = OrientationEstimator(maxOrientations: settings.maxOrientations)
        let scaleFactor = (scaleX * scaleY).squareRoot()
        let chunks = (chosen.count + Self.describeChunk - 1) / Self.describeChunk
        let described = splitter.map(chunks) { chunk in
            var keypoints: [Keypoint] = []
            var descriptors: [Float] = []
            var scratch = [Float](repeating: 0, count: SIFTDescriptor.length)
            let workspace = WindowWorkspace()
            for d in chosen[chunk * Self.describeChunk ..< min(chosen.count, (chunk + 1) * Self.describeChunk)] {
                let octave = levels[d.octaveSlot]
                let gradients = octave.level(octave.gradientLevel(layer: d.layer))
                let sigma = octave.sigma(layer: d.layer)
                let x = (d.x * octave.spacing + 0.5) * scaleX, y = (d.y * octave.spacing + 0.5) * scaleY
                for angle in estimator.orientations(x: d.x, y: d.y, sigma: sigma, plane: gradients, workspace: workspace) {
                    let ok = scratch.withUnsafeMutableBufferPointer { out in
                        SIFTDescriptor.compute(x: d.x, y: d.y, sigma: sigma, orientation: angle, plane: gradients, workspace: workspace,
                                               into: out.baseAddress!)
                    }
                    guard ok else { continue }
                    keypoints.append(Keypoint(x: x, y: y, scale: sigma * octave.spacing * scaleFactor, orientation: angle,
                                              response: abs(d.response), octave: octave.index))
                    descriptors.append(contentsOf: scratch)
                }
            }
            return (keypoints: keypoints, descriptors: descriptors)
        }
        var keypoints = described.flatMap { $0.keypoints }
        var descriptors = described.flatMap { $0.descriptors }
        // Extra orientations can take the count past the cap: drop the last in priority order.
        if keypoints.count > cap {
            keypoints.removeSubrange(cap...)
            descriptors.removeSubrange((cap * SIFTDescriptor.length)...)
        }
        return Self.sorted(Features(imageWidth: imageWidth, imageHeight: imageHeight, workingWidth: workingWidth,
                                    workingHeight: workingHeight, keypoints: keypoints, descriptors: descriptors))
    }

    /// Builds the octaves one by one, detecting in each before the next is made and dropping
    /// the levels only detection needs, so at most one octave's full stack is alive at a time.
    private func buildAndDetect(_ plane: FloatPlane, splitter: WorkSplitter) -> (octaves: [Octave], detections: [Detection]) {
        let builder = ScaleSpaceBuilder(scalesPerOctave: settings.scalesPerOctave, splitter: splitter)
        let detector = ExtremumDetector(peakThreshold: settings.resolvedPeakThreshold, edgeThreshold: settings.edgeThreshold)
        let maxOctaves = settings.maxOctaves ?? Int.max
        var octaves: [Octave] = []
        var detections: [Detection] = []
        var octave = builder.firstOctave(of: plane, index: settings.upsampleFirstOctave ? -1 : 0)
        while true {
            detections += detector.detect(in: octave, slot: octaves.count, splitter: splitter)
            let next = octaves.count + 1 < maxOctaves ? builder.octave(after: octave, minimumSide: Self.minimumOctaveSide) : nil
            octave.dropDetectionLevels()
            octaves.append(octave)
            guard let next else { break }
            octave = next
        }
        return (octaves, detections)
    }

    /// The features ordered by decreasing response; ties by octave, y, x, then orientation.
    static func sorted(_ features: Features) -> Features {
        let k = features.keypoints
        let order = k.indices.sorted { a, b in
            let p = k[a], q = k[b]
            if p.response != q.response { return p.response > q.response }
            if p.octave != q.octave { return p.octave < q.octave }
            if p.y != q.y { return p.y < q.y }
            if p.x != q.x { return p.x < q.x }
            if p.orientation != q.orientation { return p.orientation < q.orientation }
            return a < b
        }
        let length = SIFTDescriptor.length
        var descriptors = [Float](repeating: 0, count: features.descriptors.count)
        features.descriptors.withUnsafeBufferPointer { source in
            descriptors.withUnsafeMutableBufferPointer { target in
                for (position, index) in order.enumerated() {
                    (target.baseAddress! + position * length).update(from: source.baseAddress! + index * length, count: length)
                }
            }
        }
        return Features(imageWidth: features.imageWidth, imageHeight: features.imageHeight, workingWidth: features.workingWidth,
                        workingHeight: features.workingHeight, keypoints: order.map { k[$0] }, descriptors: descriptors)
    }
}
