import AtelierGeometry

/// The buffers of one bundle adjustment, and the passes that fill them at a linearisation point:
/// cost evaluation, per-observation Jacobians, per-point normal equations, and the camera part
/// `U = J_cᵀ J_c`, `g_c = J_cᵀ r` of the normal equations.
///
/// Residuals and Jacobians are stored already scaled by `√ρ′(s)` (`RobustLoss`), so every later
/// pass is plain least squares. Observation buffers are indexed in the layout's active order
/// (sorted by point): row x then row y of the camera-side Jacobian, `cameraSideStride` columns
/// each, pose block columns first, then camera block columns. Each pass writes only its own
/// items' slots, or sums per fixed chunk (`ChunkedWork`), so results do not depend on threads.
final class BundleAdjustmentWorkspace: @unchecked Sendable {
    let layout: BundleAdjustmentLayout
    let loss: RobustLoss
    let threads: Int
    /// Observed pixels of the active observations.
    let observed: [SIMD2<Double>]

    let observationCount: Int, pointCount: Int, columnCount: Int, stride: Int
    /// The columns each active observation touches.
    let columns: UnsafeMutablePointer<ObservationColumns>
    /// Per observation: scaled residual (2), camera-side Jacobian (2 × stride), point Jacobian
    /// (2 × 3), and `Z = W L⁻ᵀ` of the Schur complement (stride × 3).
    let residual: UnsafeMutablePointer<Double>
    let byCameraSide: UnsafeMutablePointer<Double>
    let byPoint: UnsafeMutablePointer<Double>
    let schurFactor: UnsafeMutablePointer<Double>
    /// Per variable point: `V` (xx, xy, xz, yy, yz, zz), `g_p`, the Cholesky factor of the damped
    /// `V` (same packing), `L⁻¹ g_p`, the step, and whether the damped `V` was positive definite.
    let pointHessian: UnsafeMutablePointer<Double>
    let pointGradient: UnsafeMutablePointer<Double>
    let pointFactor: UnsafeMutablePointer<Double>
    let pointReducedGradient: UnsafeMutablePointer<Double>
    let pointStep: UnsafeMutablePointer<Double>
    let pointSolvable: UnsafeMutablePointer<Bool>
    /// Reduced system: `U` and `g_c` (row-major, lower triangle), the damped Schur complement
    /// `S` (becomes its Cholesky factor), and its right-hand side (becomes the camera step).
    let cameraHessian: UnsafeMutablePointer<Double>
    let cameraGradient: UnsafeMutablePointer<Double>
    let reduced: UnsafeMutablePointer<Double>
    let cameraStep: UnsafeMutablePointer<Double>

    static let observationChunk = 2048, pointChunk = 1024

    init(layout: BundleAdjustmentLayout, problem: BundleAdjustmentProblem, loss: RobustLoss, threads: Int) {
        self.layout = layout
        self.loss = loss
        self.threads = max(1, threads)
        observed = layout.observation.map { problem.observations[Int($0)].pixel }
        observationCount = layout.activeObservationCount
        pointCount = layout.variablePoints.count
        columnCount = layout.columnCount
        stride = layout.cameraSideStride
        func buffer<T>(_ count: Int, _ zero: T) -> UnsafeMutablePointer<T> {
            let pointer = UnsafeMutablePointer<T>.allocate(capacity: max(1, count))
            pointer.initialize(repeating: zero, count: max(1, count))
            return pointer
        }
        columns = buffer(observationCount, ObservationColumns(poseStart: 0, poseCount: 0, cameraStart: 0, cameraCount: 0))
        for k in 0 ..< observationCount {
            let poseBlock = Int(layout.poseBlock[Int(layout.observationImage[k])])
            let cameraBlock = Int(layout.cameraBlock[Int(layout.observationCamera[k])])
            if poseBlock >= 0 { columns[k].poseStart = layout.blocks[poseBlock].start; columns[k].poseCount = layout.blocks[poseBlock].count }
            if cameraBlock >= 0 { columns[k].cameraStart = layout.blocks[cameraBlock].start; columns[k].cameraCount = layout.blocks[cameraBlock].count }
        }
        residual = buffer(2 * observationCount, 0.0)
        byCameraSide = buffer(2 * stride * observationCount, 0.0)
        byPoint = buffer(6 * observationCount, 0.0)
        schurFactor = buffer(3 * stride * observationCount, 0.0)
        pointHessian = buffer(6 * pointCount, 0.0)
        pointGradient = buffer(3 * pointCount, 0.0)
        pointFactor = buffer(6 * pointCount, 0.0)
        pointReducedGradient = buffer(3 * pointCount, 0.0)
        pointStep = buffer(3 * pointCount, 0.0)
        pointSolvable = buffer(pointCount, false)
        cameraHessian = buffer(columnCount * columnCount, 0.0)
        cameraGradient = buffer(columnCount, 0.0)
        reduced = buffer(columnCount * columnCount, 0.0)
        cameraStep = buffer(columnCount, 0.0)
    }

    deinit {
        for pointer in [residual, byCameraSide, byPoint, schurFactor, pointHessian, pointGradient, pointFactor,
                        pointReducedGradient, pointStep, cameraHessian, cameraGradient, reduced, cameraStep] {
            pointer.deallocate()
        }
        pointSolvable.deallocate()
        columns.deallocate()
    }

    /// The cost `½ Σ ρ(s)` and the plain RMS reprojection error over the active observations,
    /// or nil when some point has moved behind a camera that observes it (a step through the
    /// image plane passes through infinite cost, so it is rejected rather than mirrored).
    func evaluate(_ parameters: BundleAdjustmentParameters, imageCamera: [Int]) -> (cost: Double, rmsErrorPixels: Double)? {
        let layout = layout, loss = loss, observed = observed
        let total = ChunkedWork(count: observationCount, chunkSize: Self.observationChunk, threads: threads).sum { range in
            var sum = SIMD4<Double>(repeating: 0)
            for k in range {
                let image = Int(layout.observationImage[k])
                guard let r = ReprojectionJacobian.residual(camera: parameters.cameras[imageCamera[image]], pose: parameters.poses[image],
                                                            point: parameters.points[Int(layout.observationPoint[k])], observed: observed[k]) else {
                    sum[2] += 1
                    continue
                }
                let s = (r * r).sum()
                sum[0] += loss.evaluate(s).rho
                sum[1] += s
            }
            return sum
        }
        guard total[2] == 0, total[0].isFinite else { return nil }
        return (total[0] / 2, observationCount > 0 ? (total[1] / Double(observationCount)).squareRoot() : 0)
    }

    /// Fills residuals, Jacobians, `V`, `g_p`, `U` and `g_c` at `parameters`, and returns the
    /// largest gradient component.
    func linearise(_ parameters: BundleAdjustmentParameters, imageCamera: [Int]) -> Double {
        let layout = layout, loss = loss, observed = observed, stride = stride
        ChunkedWork(count: observationCount, chunkSize: Self.observationChunk, threads: threads).forEach { range in
            for k in range {
                let image = Int(layout.observationImage[k])
                let residualOut = self.residual + 2 * k, cameraSideOut = self.byCameraSide + 2 * stride * k, pointOut = self.byPoint + 6 * k
                guard let jacobian = ReprojectionJacobian(camera: parameters.cameras[imageCamera[image]], pose: parameters.poses[image],
                                                          point: parameters.points[Int(layout.observationPoint[k])], observed: observed[k]) else {
                    residualOut.update(repeating: 0, count: 2)   // unreachable: evaluation rejects such parameters
                    cameraSideOut.update(repeating: 0, count: 2 * stride)
                    pointOut.update(repeating: 0, count: 6)
                    continue
                }
                let weight = loss.evaluate((jacobian.residual * jacobian.residual).sum()).derivative.squareRoot()
                residualOut[0] = weight * jacobian.residual.x
                residualOut[1] = weight * jacobian.residual.y
                var column = 0
                let poseBlock = layout.poseBlock[image]
                if poseBlock >= 0 {
                    let block = layout.blocks[Int(poseBlock)]
                    for q in 0 ..< block.count {
                        cameraSideOut[column] = weight * jacobian.byPoseX[Int(block.parameter[q])]
                        cameraSideOut[stride + column] = weight * jacobian.byPoseY[Int(block.parameter[q])]
                        column += 1
                    }
                }
                let cameraBlock = layout.cameraBlock[Int(layout.observationCamera[k])]
                if cameraBlock >= 0 {
                    let block = layout.blocks[Int(cameraBlock)]
                    for q in 0 ..< block.count {
                        cameraSideOut[column] = weight * jacobian.byIntrinsicsX[Int(block.parameter[q])]
                        cameraSideOut[stride + column] = weight * jacobian.byIntrinsicsY[Int(block.parameter[q])]
                        column += 1
                    }
                }
                let px = weight * jacobian.byPointX, py = weight * jacobian.byPointY
                pointOut[0] = px.x; pointOut[1] = px.y; pointOut[2] = px.z
                pointOut[3] = py.x; pointOut[4] = py.y; pointOut[5] = py.z
            }
        }
        accumulatePointNormalEquations()
        accumulateCameraNormalEquations()
        var largest = 0.0
        for c in 0 ..< columnCount { largest = max(largest, abs(cameraGradient[c])) }
        for p in 0 ..< 3 * pointCount { largest = max(largest, abs(pointGradient[p])) }
        return largest
    }

    /// `V = Σ J_pᵀ J_p` and `g_p = Σ J_pᵀ r` of each variable point, over its observations.
    private func accumulatePointNormalEquations() {
        let layout = layout
        ChunkedWork(count: pointCount, chunkSize: Self.pointChunk, threads: threads).forEach { range in
            for slot in range {
                var hessian = SIMD8<Double>(repeating: 0), gradient = SIMD3<Double>(repeating: 0)
                for k in Int(layout.pointObservationStart[slot]) ..< Int(layout.pointObservationEnd[slot]) {
                    let j = self.byPoint + 6 * k, r = self.residual + 2 * k
                    let x = SIMD3(j[0], j[1], j[2]), y = SIMD3(j[3], j[4], j[5])
                    hessian += SIMD8(x.x * x.x, x.x * x.y, x.x * x.z, x.y * x.y, x.y * x.z, x.z * x.z, 0, 0)
                    hessian += SIMD8(y.x * y.x, y.x * y.y, y.x * y.z, y.y * y.y, y.y * y.z, y.z * y.z, 0, 0)
                    gradient += x * r[0] + y * r[1]
                }
                for e in 0 ..< 6 { self.pointHessian[6 * slot + e] = hessian[e] }
                for e in 0 ..< 3 { self.pointGradient[3 * slot + e] = gradient[e] }
            }
        }
    }

    /// `U` and `g_c`, one block row at a time (each row block is written by one thread only and
    /// summed in observation order). Only blocks on or left of the diagonal block are filled.
    private func accumulateCameraNormalEquations() {
        let layout = layout, n = columnCount, stride = stride
        WorkSplitter(threads: threads).forEach(layout.blocks.count) { b in
            let block = layout.blocks[b]
            let rows = self.cameraHessian + block.start * n
            rows.update(repeating: 0, count: block.count * n)
            (self.cameraGradient + block.start).update(repeating: 0, count: block.count)
            for m in layout.blockObservationStart[b] ..< layout.blockObservationStart[b + 1] {
                let k = Int(layout.blockObservations[m])
                let columns = self.columns[k]
                let own = columns.offset(ofBlockAt: block.start)
                let jx = self.byCameraSide + 2 * stride * k, jy = jx + stride, r = self.residual + 2 * k
                for side in 0 ..< 2 {
                    let (start, count, offset) = columns.side(side)
                    guard start <= block.start else { continue }
                    for row in 0 ..< block.count {
                        let ax = jx[own + row], ay = jy[own + row]
                        let out = rows + row * n + start
                        for q in 0 ..< count { out[q] += ax * jx[offset + q] + ay * jy[offset + q] }
                    }
                }
                for row in 0 ..< block.count {
                    self.cameraGradient[block.start + row] += jx[own + row] * r[0] + jy[own + row] * r[1]
                }
            }
        }
    }
}

/// The columns one observation touches: its image's pose block and its camera's intrinsics
/// block, each a run of consecutive columns (count 0 when held). In the observation's
/// camera-side Jacobian the pose columns come first.
struct ObservationColumns: Sendable {
    var poseStart: Int, poseCount: Int, cameraStart: Int, cameraCount: Int

    var count: Int { poseCount + cameraCount }

    /// The offset, in the camera-side Jacobian, of the observation's block starting at column
    /// `blockStart`.
    @inline(__always) func offset(ofBlockAt blockStart: Int) -> Int {
        poseCount > 0 && poseStart == blockStart ? 0 : poseCount
    }

    /// Side 0 (pose) or 1 (camera): first column, column count, offset in the Jacobian.
    @inline(__always) func side(_ index: Int) -> (start: Int, count: Int, offset: Int) {
        index == 0 ? (poseStart, poseCount, 0) : (cameraStart, cameraCount, poseCount)
    }
}
