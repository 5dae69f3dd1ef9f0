import Foundation

// The arithmetic that solvers need beyond rotating vectors: sums, scaling, outer products, the
// cross-product matrix, and the exponential and logarithm maps between rotation matrices and
// rotation vectors (axis × angle), which is how optimisers parametrise a rotation.

extension Matrix3 {
    /// The matrix whose columns are `c0`, `c1`, `c2`.
    @inlinable public init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init(rows: [c0.x, c1.x, c2.x], [c0.y, c1.y, c2.y], [c0.z, c1.z, c2.z])
    }

    public static let zero = Matrix3(rows: .zero, .zero, .zero)

    /// The diagonal matrix with `d` on its diagonal.
    @inlinable public static func diagonal(_ d: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: [d.x, 0, 0], [0, d.y, 0], [0, 0, d.z])
    }

    /// `[v]×`, the matrix with `[v]× · w = v × w`.
    @inlinable public static func crossProduct(_ v: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: [0, -v.z, v.y], [v.z, 0, -v.x], [-v.y, v.x, 0])
    }

    /// `a · bᵀ`.
    @inlinable public static func outer(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: a.x * b, a.y * b, a.z * b)
    }

    /// Entry at `row`, `column` (both 0–2).
    @inlinable public subscript(row: Int, column: Int) -> Double {
        get {
            switch row {
            case 0: return row0[column]
            case 1: return row1[column]
            default: return row2[column]
            }
        }
        set {
            switch row {
            case 0: row0[column] = newValue
            case 1: row1[column] = newValue
            default: row2[column] = newValue
            }
        }
    }

    /// Column `index` (0–2).
    @inlinable public func column(_ index: Int) -> SIMD3<Double> { SIMD3(row0[index], row1[index], row2[index]) }

    @inlinable public var trace: Double { row0.x + row1.y + row2.z }

    /// The sum of the squares of all entries.
    @inlinable public var frobeniusNormSquared: Double {
        (row0 * row0).sum() + (row1 * row1).sum() + (row2 * row2).sum()
    }

    @inlinable public static func + (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 + b.row0, a.row1 + b.row1, a.row2 + b.row2)
    }

    @inlinable public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2)
    }

    @inlinable public static func * (s: Double, m: Matrix3) -> Matrix3 {
        Matrix3(rows: s * m.row0, s * m.row1, s * m.row2)
    }

    /// The inverse, or nil when the matrix is singular to working precision.
    @inlinable public var inverse: Matrix3? {
        let c0 = row1.cross(row2), c1 = row2.cross(row0), c2 = row0.cross(row1)
        let det = row0.dot(c0)
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        return (1 / det) * Matrix3(columns: c0, c1, c2)
    }

    /// The rotation `exp([v]×)`: by `|v|` radians about `v` (Rodrigues), accurate near zero.
    @inlinable public static func rotation(vector v: SIMD3<Double>) -> Matrix3 {
        let theta2 = v.dot(v)
        let k = crossProduct(v)
        let a: Double, b: Double
        if theta2 < 1e-12 {
            a = 1 - theta2 / 6
            b = 0.5 - theta2 / 24
        } else {
            let theta = theta2.squareRoot()
            a = sin(theta) / theta
            b = (1 - cos(theta)) / theta2
        }
        return identity + a * k + b * (k * k)
    }

    /// The rotation vector (axis × angle, angle in [0, π]) of a rotation matrix: the inverse of
    /// `rotation(vector:)`. Goes through the quaternion, which stays accurate at 0 and near π.
    @inlinable public var rotationVector: SIMD3<Double> {
        let q = Quaternion(self)
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
        guard s > 1e-15 else { return SIMD3(2 * q.x, 2 * q.y, 2 * q.z) }
        let angle = 2 * atan2(s, q.w)
        return SIMD3(q.x, q.y, q.z) * (angle / s)
    }

    /// The angle in radians of the rotation `aᵀ b` that takes rotation `a` to rotation `b`.
    @inlinable public static func angleBetween(_ a: Matrix3, _ b: Matrix3) -> Double {
        (a.transposed * b).rotationVector.length
    }
}
