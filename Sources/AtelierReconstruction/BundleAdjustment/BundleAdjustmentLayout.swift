import AtelierGeometry

/// Which parameters of a bundle adjustment problem vary, where they sit in the reduced camera
/// system, and which observations carry weight. Built once per adjustment.
///
/// Columns of the reduced system are grouped in blocks: first the refined intrinsics of each
/// variable camera, then the pose of each variable image (6 columns, or 5 for the image whose
/// translation component is held). Constant cameras and poses get no block, so local bundle
/// adjustment over a few variable images costs only their columns. Observations that carry
/// weight ("active") are those whose point is in front of its camera at the start; they are
/// kept sorted by point, so the observations of one point are contiguous.
struct BundleAdjustmentLayout: Sendable {
    /// A group of consecutive columns: one camera's intrinsics or one image's pose.
    struct Block: Sendable {
        /// First column in the reduced system.
        var start: Int
        var count: Int
        /// For each column, which parameter it is: `(f, cx, cy, k1, k2)` indices for a camera,
        /// `(δθx, δθy, δθz, δtx, δty, δtz)` indices for a pose.
        var parameter: SIMD8<Int32>
    }

    var blocks: [Block] = []
    /// Block of each camera and of each image's pose, or −1 when held constant.
    var cameraBlock: [Int32], poseBlock: [Int32]
    var columnCount = 0
    /// Columns one observation can touch: a pose block plus a camera block.
    var cameraSideStride = 6

    /// Per active observation (sorted by point): its index in `problem.observations`, image,
    /// camera, point, and the slot of its point among the variable points (−1 if constant).
    var observation: [Int32] = [], observationImage: [Int32] = [], observationCamera: [Int32] = []
    var observationPoint: [Int32] = [], observationPointSlot: [Int32] = []
    /// The variable points (indices into `problem.points`), and where each one's observations
    /// start and end (exclusive) among the active observations.
    var variablePoints: [Int32] = []
    var pointObservationStart: [Int32] = [], pointObservationEnd: [Int32] = []
    /// For each block, the active observations touching it (CSR: `blockObservationStart` has
    /// one more entry than `blocks`).
    var blockObservationStart: [Int] = [], blockObservations: [Int32] = []

    /// Nil with a reason when the problem is malformed: array lengths that disagree, a camera or
    /// observation index out of range.
    static func make(_ problem: BundleAdjustmentProblem, options: BundleAdjustmentOptions) -> Result<BundleAdjustmentLayout, ReconstructionError> {
        guard problem.imageCamera.count == problem.poses.count else {
            return .failure(.inconsistentBundleAdjustmentProblem("imageCamera has \(problem.imageCamera.count) entries for \(problem.poses.count) poses"))
        }
        for (image, camera) in problem.imageCamera.enumerated() where !(0 ..< problem.cameras.count).contains(camera) {
            return .failure(.inconsistentBundleAdjustmentProblem("image \(image) uses camera \(camera) of \(problem.cameras.count)"))
        }
        let (sorted, pointEnds): ([Int32], [Int32])
        switch activeObservationsByPoint(problem) {
        case .success(let found): (sorted, pointEnds) = found
        case .failure(let error): return .failure(error)
        }
        var layout = BundleAdjustmentLayout(cameraBlock: Array(repeating: -1, count: problem.cameras.count),
                                            poseBlock: Array(repeating: -1, count: problem.poses.count))
        layout.observation = sorted
        let pointSlot = layout.addVariablePoints(pointEnds: pointEnds, options: options)
        let (cameraSeen, imageSeen) = layout.describeObservations(problem, pointSlot: pointSlot)
        layout.addBlocks(problem, options: options, cameraSeen: cameraSeen, imageSeen: imageSeen)
        layout.indexBlockObservations()
        return .success(layout)
    }

    /// The active observations (point in front of its camera, finite pixel), sorted by point by
    /// a stable counting sort, and per point `p` where its observations start (`[p]`) and end
    /// (`[p + 1]`) among them. Fails on an observation whose image or point is out of range.
    private static func activeObservationsByPoint(_ problem: BundleAdjustmentProblem)
        -> Result<(sorted: [Int32], pointEnds: [Int32]), ReconstructionError> {
        var active: [Int32] = []
        var perPoint = [Int32](repeating: 0, count: problem.points.count + 1)
        for (index, o) in problem.observations.enumerated() {
            let image = Int(o.image), point = Int(o.point)
            guard (0 ..< problem.poses.count).contains(image), (0 ..< problem.points.count).contains(point) else {
                return .failure(.inconsistentBundleAdjustmentProblem("observation \(index) refers to image \(o.image) of \(problem.poses.count) and point \(o.point) of \(problem.points.count)"))
            }
            guard problem.poses[image].pointInCam(problem.points[point]).z > 0, o.pixel.x.isFinite, o.pixel.y.isFinite else { continue }
            active.append(Int32(index))
            perPoint[point + 1] += 1
        }
        for p in 0 ..< problem.points.count { perPoint[p + 1] += perPoint[p] }
        var sorted = [Int32](repeating: 0, count: active.count)
        var next = perPoint
        for index in active {
            let point = Int(problem.observations[Int(index)].point)
            sorted[Int(next[point])] = index
            next[point] += 1
        }
        return .success((sorted, perPoint))
    }

    /// Variable points: observed, and not held. Returns each point's slot among them (−1 if constant).
    private mutating func addVariablePoints(pointEnds: [Int32], options: BundleAdjustmentOptions) -> [Int32] {
        let pointCount = pointEnds.count - 1
        var pointSlot = [Int32](repeating: -1, count: pointCount)
        for p in 0 ..< pointCount where pointEnds[p + 1] > pointEnds[p] && !options.constantPoints.contains(p) {
            pointSlot[p] = Int32(variablePoints.count)
            variablePoints.append(Int32(p))
            pointObservationStart.append(pointEnds[p])
            pointObservationEnd.append(pointEnds[p + 1])
        }
        return pointSlot
    }

    /// The image, camera, point and point slot of each active observation; returns which
    /// cameras and images the active observations touch.
    private mutating func describeObservations(_ problem: BundleAdjustmentProblem, pointSlot: [Int32]) -> (cameras: [Bool], images: [Bool]) {
        var cameraSeen = [Bool](repeating: false, count: problem.cameras.count)
        var imageSeen = [Bool](repeating: false, count: problem.poses.count)
        for index in observation {
            let o = problem.observations[Int(index)]
            let image = Int(o.image)
            imageSeen[image] = true
            cameraSeen[problem.imageCamera[image]] = true
            observationImage.append(o.image)
            observationCamera.append(Int32(problem.imageCamera[image]))
            observationPoint.append(o.point)
            observationPointSlot.append(pointSlot[Int(o.point)])
        }
        return (cameraSeen, imageSeen)
    }

    /// Blocks: the refined intrinsics of each variable camera an observation touches, then the
    /// pose of each such variable image (less the held translation component, if any).
    private mutating func addBlocks(_ problem: BundleAdjustmentProblem, options: BundleAdjustmentOptions, cameraSeen: [Bool], imageSeen: [Bool]) {
        var intrinsics: [Int32] = []
        if options.refineFocalLength { intrinsics.append(0) }
        if options.refinePrincipalPoint { intrinsics += [1, 2] }
        if options.refineDistortion { intrinsics += options.refineSecondDistortionCoefficient ? [3, 4] : [3] }
        if !intrinsics.isEmpty {
            for c in 0 ..< problem.cameras.count where cameraSeen[c] && !options.constantCameras.contains(c) {
                cameraBlock[c] = addBlock(intrinsics)
            }
        }
        for i in 0 ..< problem.poses.count where imageSeen[i] && !options.constantPoses.contains(i) {
            var parameters: [Int32] = [0, 1, 2, 3, 4, 5]
            if let held = options.constantTranslationComponent, held.image == i, (0 ..< 3).contains(held.axis) {
                parameters.remove(at: 3 + held.axis)
            }
            poseBlock[i] = addBlock(parameters)
        }
        cameraSideStride = 6 + intrinsics.count
    }

    /// A block of the next `parameters.count` columns; returns its index.
    private mutating func addBlock(_ parameters: [Int32]) -> Int32 {
        var map = SIMD8<Int32>(repeating: 0)
        for (k, p) in parameters.enumerated() { map[k] = p }
        blocks.append(Block(start: columnCount, count: parameters.count, parameter: map))
        columnCount += parameters.count
        return Int32(blocks.count - 1)
    }

    /// The observations of each block, in active-observation order (CSR).
    private mutating func indexBlockObservations() {
        var members = [[Int32]](repeating: [], count: blocks.count)
        for k in 0 ..< observation.count {
            let pose = poseBlock[Int(observationImage[k])], camera = cameraBlock[Int(observationCamera[k])]
            if camera >= 0 { members[Int(camera)].append(Int32(k)) }
            if pose >= 0 { members[Int(pose)].append(Int32(k)) }
        }
        blockObservationStart = [0]
        for list in members {
            blockObservations += list
            blockObservationStart.append(blockObservations.count)
        }
    }

    var activeObservationCount: Int { observation.count }
}
