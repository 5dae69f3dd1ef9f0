import Foundation

extension EPnPSolver {
    /// The six equations `|cᵢ − cⱼ|²_cam = |cᵢ − cⱼ|²_world` in the betas, for the camera-frame
    /// control points `Σₖ βₖvₖ`: each is linear in the ten products `βₖβₗ`, `L·b = ρ`, with the
    /// products ordered as in the paper, `[β₁², β₁β₂, β₂², β₁β₃, β₂β₃, β₃², β₁β₄, β₂β₄, β₃β₄, β₄²]`
    /// (β₁ belongs to the smallest eigenvalue).
    struct DistanceEquations {
        /// `L`, 6 × 10 by rows.
        var l: [Double]
        /// `ρ`, the squared world distances between control points.
        var rho: [Double]

        static let pairs = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        /// The (k, l) of each product, in the paper's order.
        static let products = [(0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2), (0, 3), (1, 3), (2, 3), (3, 3)]

        init(nullSpace: [[Double]], controlPoints: [SIMD3<Double>]) {
            l = []
            rho = []
            for (i, j) in Self.pairs {
                let d = nullSpace.map { v in
                    SIMD3(v[3 * i] - v[3 * j], v[3 * i + 1] - v[3 * j + 1], v[3 * i + 2] - v[3 * j + 2])
                }
                for (k, m) in Self.products { l.append((k == m ? 1 : 2) * d[k].dot(d[m])) }
                let w = controlPoints[i] - controlPoints[j]
                rho.append(w.dot(w))
            }
        }

        /// The paper's three starting points, each from a least-squares solve for a subset of
        /// the products that ignores the others: four products with β₁ (N = 4), `β₁², β₁β₂, β₂²`
        /// (N = 2) and the five products of β₁ to β₃ (N = 3). Square roots fix the betas' moduli,
        /// the cross products their relative signs; the overall sign is settled later by depth.
        func initialBetas() -> [SIMD4<Double>] {
            var starts: [SIMD4<Double>] = []
            if let x = solve(columns: [0, 1, 3, 6]) {
                let sign: Double = x[0] < 0 ? -1 : 1, b1 = (sign * x[0]).squareRoot()
                if b1 > 0 { starts.append(SIMD4(b1, sign * x[1] / b1, sign * x[2] / b1, sign * x[3] / b1)) }
            }
            if let x = solve(columns: [0, 1, 2]) {
                let sign: Double = x[0] < 0 ? -1 : 1
                let b1 = (sign * x[0]).squareRoot(), b2 = max(0, sign * x[2]).squareRoot()
                starts.append(SIMD4(b1, sign * x[1] < 0 ? -b2 : b2, 0, 0))
            }
            if let x = solve(columns: [0, 1, 2, 3, 4]) {
                let sign: Double = x[0] < 0 ? -1 : 1
                let b1 = (sign * x[0]).squareRoot(), b2 = max(0, sign * x[2]).squareRoot()
                if b1 > 0 { starts.append(SIMD4(b1, sign * x[1] < 0 ? -b2 : b2, sign * x[3] / b1, 0)) }
            }
            return starts
        }

        private func solve(columns: [Int]) -> [Double]? {
            var a: [Double] = []
            for r in 0 ..< 6 { for c in columns { a.append(l[r * 10 + c]) } }
            return PoseLinearSystem.leastSquares(a, rows: 6, columns: columns.count, rho)
        }

        /// The residuals `L·b(β) − ρ`.
        func residuals(_ beta: SIMD4<Double>) -> [Double] {
            let b = Self.products.map { beta[$0.0] * beta[$0.1] }
            return (0 ..< 6).map { r in (0 ..< 10).reduce(-rho[r]) { $0 + l[r * 10 + $1] * b[$1] } }
        }

        /// Gauss–Newton on the six distance equations in the four betas (the paper's refinement),
        /// with Levenberg's damping so that a poor start (as the linearisations give when all four
        /// betas matter, with four or five points) still descends; keeps the best iterate.
        func gaussNewton(_ start: SIMD4<Double>, iterations: Int = 30) -> SIMD4<Double> {
            var beta = start, r = residuals(start)
            var cost = r.reduce(0) { $0 + $1 * $1 }
            var damping = 1e-8
            for _ in 0 ..< iterations {
                guard cost > 1e-30 else { break }
                // J = L·∂b/∂β: the product βₖβₘ has derivative βₘ in βₖ and βₖ in βₘ.
                var jacobian = [Double](repeating: 0, count: 24)
                for row in 0 ..< 6 {
                    for (index, (k, m)) in Self.products.enumerated() {
                        let coefficient = l[row * 10 + index]
                        jacobian[row * 4 + k] += coefficient * beta[m]
                        jacobian[row * 4 + m] += coefficient * beta[k]
                    }
                }
                var normal = [Double](repeating: 0, count: 16), gradient = [Double](repeating: 0, count: 4)
                for row in 0 ..< 6 {
                    for i in 0 ..< 4 {
                        gradient[i] -= jacobian[row * 4 + i] * r[row]
                        for j in 0 ..< 4 { normal[i * 4 + j] += jacobian[row * 4 + i] * jacobian[row * 4 + j] }
                    }
                }
                let trace = normal[0] + normal[5] + normal[10] + normal[15]
                var improved = false
                while !improved && damping < 1e8 {
                    var damped = normal
                    for i in 0 ..< 4 { damped[i * 5] += damping * max(trace / 4, 1e-300) }
                    if let step = PoseLinearSystem.solve(damped, gradient, size: 4) {
                        let next = beta + SIMD4(step[0], step[1], step[2], step[3])
                        let nextResiduals = residuals(next), nextCost = nextResiduals.reduce(0) { $0 + $1 * $1 }
                        if nextCost < cost {
                            beta = next
                            r = nextResiduals
                            cost = nextCost
                            damping = max(1e-12, damping / 10)
                            improved = true
                            continue
                        }
                    }
                    damping *= 10
                }
                if !improved { break }
            }
            return beta
        }
    }
}
