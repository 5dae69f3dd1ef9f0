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
    static func make(_ problem: BundleAdjustmentProblem, options: BundleAdjustmentOptions) -> Result<BundleAdjustmentLayout, BundleAdjustmentLayoutError> {
        guard problem.imageCamera.count == problem.poses.count else {
            return .failure(.init("imageCamera has \(problem.imageCamera.count) entries for \(problem.poses.count) poses"))
        }
        for (image, camera) in problem.imageCamera.enumerated() where !(0 ..< problem.cameras.count).contains(camera) {
            return .failure(.init("image \(image) uses camera \(camera) of \(problem.cameras.count)"))
        }
        var layout = BundleAdjustmentLayout(cameraBlock: Array(repeating: -1, count: problem.cameras.count),
                                            poseBlock: Array(repeating: -1, count: problem.poses.count))
        // Active observations, counted per point for a stable counting sort by point.
        var active: [Int32] = []
        var perPoint = [Int32](repeating: 0, count: problem.points.count + 1)
        for (index, o) in problem.observations.enumerated() {
            let image = Int(o.image), point = Int(o.point)
            guard (0 ..< problem.poses.count).contains(image), (0 ..< problem.points.count).contains(point) else {
                return .failure(.init("observation \(index) refers to image \(o.image) of \(problem.poses.count) and point \(o.point) of \(problem.points.count)"))
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
        layout.observation = sorted

        // Variable points: observed, and not held.
        var pointSlot = [Int32](repeating: -1, count: problem.points.count)
        for p in 0 ..< problem.points.count where perPoint[p + 1] > perPoint[p] && !options.constantPoints.contains(p) {
            pointSlot[p] = Int32(layout.variablePoints.count)
            layout.variablePoints.append(Int32(p))
            layout.pointObservationStart.append(perPoint[p])
            layout.pointObservationEnd.append(perPoint[p + 1])
        }

        var cameraSeen = [Bool](repeating: false, count: problem.cameras.count)
        var imageSeen = [Bool](repeating: false, count: problem.poses.count)
        for index in sorted {
            let o = problem.observations[Int(index)]
            let image = Int(o.image)
            imageSeen[image] = true
            cameraSeen[problem.imageCamera[image]] = true
            layout.observationImage.append(o.image)
            layout.observationCamera.append(Int32(problem.imageCamera[image]))
            layout.observationPoint.append(o.point)
            layout.observationPointSlot.append(pointSlot[Int(o.point)])
        }

        // Blocks: refined intrinsics of each camera, then each image's pose.
        var intrinsics: [Int32] = []
        if options.refineFocalLength { intrinsics.append(0) }
        if options.refinePrincipalPoint { intrinsics += [1, 2] }
        if options.refineDistortion { intrinsics += options.refineSecondDistortionCoefficient ? [3, 4] : [3] }
        func block(_ parameters: [Int32]) -> Int32 {
            var map = SIMD8<Int32>(repeating: 0)
            for (k, p) in parameters.enumerated() { map[k] = p }
            layout.blocks.append(Block(start: layout.columnCount, count: parameters.count, parameter: map))
            layout.columnCount += parameters.count
            return Int32(layout.blocks.count - 1)
        }
        if !intrinsics.isEmpty {
            for c in 0 ..< problem.cameras.count where cameraSeen[c] && !options.constantCameras.contains(c) {
                layout.cameraBlock[c] = block(intrinsics)
            }
        }
        for i in 0 ..< problem.poses.count where imageSeen[i] && !options.constantPoses.contains(i) {
            var parameters: [Int32] = [0, 1, 2, 3, 4, 5]
            if let held = options.constantTranslationComponent, held.image == i, (0 ..< 3).contains(held.axis) {
                parameters.remove(at: 3 + held.axis)
            }
            layout.poseBlock[i] = block(parameters)
        }
        layout.cameraSideStride = 6 + intrinsics.count

        // Observations of each block, in active-observation order.
        var members = [[Int32]](repeating: [], count: layout.blocks.count)
        for k in 0 ..< sorted.count {
            let poseBlock = layout.poseBlock[Int(layout.observationImage[k])]
            let cameraBlock = layout.cameraBlock[Int(layout.observationCamera[k])]
            if cameraBlock >= 0 { members[Int(cameraBlock)].append(Int32(k)) }
            if poseBlock >= 0 { members[Int(poseBlock)].append(Int32(k)) }
        }
        layout.blockObservationStart = [0]
        for list in members {
            layout.blockObservations += list
            layout.blockObservationStart.append(layout.blockObservations.count)
        }
        return .success(layout)
    }

    var activeObservationCount: Int { observation.count }
}

/// Why a problem could not be laid out; becomes `Termination.failed`.
struct BundleAdjustmentLayoutError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
