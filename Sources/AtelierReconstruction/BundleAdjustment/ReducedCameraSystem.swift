/// One damped Gauss–Newton step by the Schur complement: eliminate the points, solve the reduced
/// camera system by dense Cholesky, back-substitute the points.
///
/// With `H = [U W; Wᵀ V]`, damping `D = diag(H)` clamped to [1e-6, 1e32] (Ceres' LM diagonal)
/// and `λ`, the step solves `(H + λD) δ = −g`. Each point's damped `V_p` is factored `L Lᵀ`,
/// and with `Z = W L⁻ᵀ` (one 3-row block per observation) the reduced system is
/// `(U + λD_c − Σ_p Z_p Z_pᵀ) δ_c = −g_c + Σ_p Z_p L⁻¹ g_p`, then
/// `δ_p = L⁻ᵀ (−L⁻¹ g_p − Z_pᵀ δ_c)` (Triggs et al. 2000, §6.1; Agarwal et al., "Bundle
/// Adjustment in the Large", ECCV 2010). Writing `S` through `Z` keeps it symmetric by
/// construction and costs three multiply–adds per entry and observation pair.
extension BundleAdjustmentWorkspace {
    static let minimumDiagonal = 1e-6, maximumDiagonal = 1e32

    /// Solves for the step with damping `lambda` into `cameraStep` and `pointStep`. Returns the
    /// decrease the linear model predicts, `−gᵀδ − ½ δᵀHδ`, and the step's norm; nil when the
    /// reduced system is not positive definite (the caller increases the damping).
    func solve(lambda: Double) -> (modelDecrease: Double, stepNorm: Double)? {
        factorPoints(lambda: lambda)
        buildReducedSystem(lambda: lambda)
        let n = columnCount
        guard DenseCholesky.factor(reduced, n: n) else { return nil }
        DenseCholesky.solve(reduced, n: n, cameraStep)
        backSubstitutePoints()

        // With (H + λD) δ = −g: −gᵀδ − ½ δᵀHδ = −½ gᵀδ + ½ λ δᵀDδ.
        var gradientDotStep = 0.0, dampedNorm = 0.0, stepNormSquared = 0.0
        for c in 0 ..< n {
            let delta = cameraStep[c]
            gradientDotStep += cameraGradient[c] * delta
            dampedNorm += Self.clampDiagonal(cameraHessian[c * n + c]) * delta * delta
            stepNormSquared += delta * delta
        }
        for slot in 0 ..< pointCount {
            for e in 0 ..< 3 {
                let delta = pointStep[3 * slot + e]
                gradientDotStep += pointGradient[3 * slot + e] * delta
                dampedNorm += Self.clampDiagonal(pointHessian[6 * slot + Self.diagonalIndex[e]]) * delta * delta
                stepNormSquared += delta * delta
            }
        }
        let decrease = -0.5 * gradientDotStep + 0.5 * lambda * dampedNorm
        guard decrease.isFinite, stepNormSquared.isFinite else { return nil }
        return (decrease, stepNormSquared.squareRoot())
    }

    /// Positions of `xx`, `yy`, `zz` in the packed symmetric 3 × 3 (xx, xy, xz, yy, yz, zz).
    static let diagonalIndex = [0, 3, 5]

    @inline(__always) static func clampDiagonal(_ value: Double) -> Double {
        min(maximumDiagonal, max(minimumDiagonal, value))
    }

    /// Factors each damped `V_p`, and fills `L⁻¹ g_p` and `Z` of its observations. A point whose
    /// damped `V_p` is not positive definite is held for this step (`Z = 0`, no step).
    private func factorPoints(lambda: Double) {
        let layout = layout, stride = stride
        ChunkedWork(count: pointCount, chunkSize: Self.pointChunk, threads: threads).forEach { range in
            for slot in range {
                let v = self.pointHessian + 6 * slot, l = self.pointFactor + 6 * slot
                let first = Int(layout.pointObservationStart[slot]), end = Int(layout.pointObservationEnd[slot])
                let a00 = v[0] + lambda * Self.clampDiagonal(v[0])
                let a11 = v[3] + lambda * Self.clampDiagonal(v[3])
                let a22 = v[5] + lambda * Self.clampDiagonal(v[5])
                let l00 = a00.squareRoot()
                let l10 = v[1] / l00, l20 = v[2] / l00
                let d11 = a11 - l10 * l10
                let l11 = d11.squareRoot()
                let l21 = (v[4] - l20 * l10) / l11
                let d22 = a22 - l20 * l20 - l21 * l21
                let solvable = a00 > 0 && d11 > 0 && d22 > 0 && d22.isFinite && l21.isFinite
                self.pointSolvable[slot] = solvable
                guard solvable else {
                    (self.pointReducedGradient + 3 * slot).update(repeating: 0, count: 3)
                    (self.schurFactor + 3 * stride * first).update(repeating: 0, count: 3 * stride * (end - first))
                    continue
                }
                let l22 = d22.squareRoot()
                l[0] = l00; l[1] = l10; l[2] = l20; l[3] = l11; l[4] = l21; l[5] = l22
                let g = self.pointGradient + 3 * slot, y = self.pointReducedGradient + 3 * slot
                y[0] = g[0] / l00
                y[1] = (g[1] - l10 * y[0]) / l11
                y[2] = (g[2] - l20 * y[0] - l21 * y[1]) / l22
                for k in first ..< end {
                    let count = self.columns[k].count
                    let jx = self.byCameraSide + 2 * stride * k, jy = jx + stride, jp = self.byPoint + 6 * k
                    let z = self.schurFactor + 3 * stride * k
                    for q in 0 ..< count {
                        // W row q = J_cᵀ J_p, then z_q solves L z_q = W_q.
                        let w0 = jx[q] * jp[0] + jy[q] * jp[3]
                        let w1 = jx[q] * jp[1] + jy[q] * jp[4]
                        let w2 = jx[q] * jp[2] + jy[q] * jp[5]
                        let z0 = w0 / l00
                        let z1 = (w1 - l10 * z0) / l11
                        z[3 * q] = z0
                        z[3 * q + 1] = z1
                        z[3 * q + 2] = (w2 - l20 * z0 - l21 * z1) / l22
                    }
                }
            }
        }
    }

    /// `S = U + λD_c − Σ Z Zᵀ` and its right-hand side, one block row per work item; only
    /// blocks on or left of the diagonal block (all that Cholesky reads).
    private func buildReducedSystem(lambda: Double) {
        let layout = layout, n = columnCount, stride = stride
        WorkSplitter(threads: threads).forEach(layout.blocks.count) { b in
            let block = layout.blocks[b]
            let rows = self.reduced + block.start * n
            rows.update(from: self.cameraHessian + block.start * n, count: block.count * n)
            for row in 0 ..< block.count {
                let c = block.start + row
                rows[row * n + c] += lambda * Self.clampDiagonal(self.cameraHessian[c * n + c])
                self.cameraStep[c] = -self.cameraGradient[c]
            }
            for m in layout.blockObservationStart[b] ..< layout.blockObservationStart[b + 1] {
                let a = Int(layout.blockObservations[m])
                let slot = Int(layout.observationPointSlot[a])
                guard slot >= 0, self.pointSolvable[slot] else { continue }
                let own = self.columns[a].offset(ofBlockAt: block.start)
                let zA = self.schurFactor + 3 * stride * a + 3 * own
                let y = self.pointReducedGradient + 3 * slot
                for row in 0 ..< block.count {
                    self.cameraStep[block.start + row] += zA[3 * row] * y[0] + zA[3 * row + 1] * y[1] + zA[3 * row + 2] * y[2]
                }
                for k in Int(layout.pointObservationStart[slot]) ..< Int(layout.pointObservationEnd[slot]) {
                    let columns = self.columns[k]
                    for side in 0 ..< 2 {
                        let (start, count, offset) = columns.side(side)
                        guard start <= block.start else { continue }
                        let zB = self.schurFactor + 3 * stride * k + 3 * offset
                        for row in 0 ..< block.count {
                            let u0 = zA[3 * row], u1 = zA[3 * row + 1], u2 = zA[3 * row + 2]
                            let out = rows + row * n + start
                            for q in 0 ..< count {
                                out[q] -= u0 * zB[3 * q] + u1 * zB[3 * q + 1] + u2 * zB[3 * q + 2]
                            }
                        }
                    }
                }
            }
        }
    }

    /// `δ_p = L⁻ᵀ (−L⁻¹ g_p − Z_pᵀ δ_c)` for each variable point.
    private func backSubstitutePoints() {
        let layout = layout, stride = stride
        ChunkedWork(count: pointCount, chunkSize: Self.pointChunk, threads: threads).forEach { range in
            for slot in range {
                let step = self.pointStep + 3 * slot
                guard self.pointSolvable[slot] else {
                    step.update(repeating: 0, count: 3)
                    continue
                }
                let y = self.pointReducedGradient + 3 * slot
                var v = SIMD3(-y[0], -y[1], -y[2])
                for k in Int(layout.pointObservationStart[slot]) ..< Int(layout.pointObservationEnd[slot]) {
                    let columns = self.columns[k]
                    let z = self.schurFactor + 3 * stride * k
                    for side in 0 ..< 2 {
                        let (start, count, offset) = columns.side(side)
                        for q in 0 ..< count {
                            let delta = self.cameraStep[start + q], row = 3 * (offset + q)
                            v -= SIMD3(z[row], z[row + 1], z[row + 2]) * delta
                        }
                    }
                }
                let l = self.pointFactor + 6 * slot   // Lᵀ x = v
                let x2 = v[2] / l[5]
                let x1 = (v[1] - l[4] * x2) / l[3]
                step[0] = (v[0] - l[1] * x1 - l[2] * x2) / l[0]
                step[1] = x1
                step[2] = x2
            }
        }
    }
}
