import Foundation

/// A 3×3 matrix of doubles stored by rows: rotations, essential matrices, covariances.
public struct Matrix3: Sendable, Equatable {
    public var row0: SIMD3<Double>
    public var row1: SIMD3<Double>
    public var row2: SIMD3<Double>

    @inlinable public init(rows row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    public static let identity = Matrix3(rows: [1, 0, 0], [0, 1, 0], [0, 0, 1])

    @inlinable public var transposed: Matrix3 {
        Matrix3(rows: [row0.x, row1.x, row2.x], [row0.y, row1.y, row2.y], [row0.z, row1.z, row2.z])
    }

    @inlinable public var determinant: Double { row0.dot(row1.cross(row2)) }

    @inlinable public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v))
    }

    @inlinable public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(rows: [a.row0.dot(t.row0), a.row0.dot(t.row1), a.row0.dot(t.row2)],
                       [a.row1.dot(t.row0), a.row1.dot(t.row1), a.row1.dot(t.row2)],
                       [a.row2.dot(t.row0), a.row2.dot(t.row1), a.row2.dot(t.row2)])
    }

    /// The rotation by `angleRadians` about the unit vector `axis`, right-handed (Rodrigues).
    @inlinable public static func rotation(axis: SIMD3<Double>, angleRadians angle: Double) -> Matrix3 {
        let a = axis.normalized, c = cos(angle), s = sin(angle), k = 1 - c
        return Matrix3(rows: [c + a.x * a.x * k, a.x * a.y * k - a.z * s, a.x * a.z * k + a.y * s],
                       [a.y * a.x * k + a.z * s, c + a.y * a.y * k, a.y * a.z * k - a.x * s],
                       [a.z * a.x * k - a.y * s, a.z * a.y * k + a.x * s, c + a.z * a.z * k])
    }
}

/// A unit quaternion `w + xi + yj + zk` in Hamilton's convention, the one COLMAP (through Eigen)
/// writes as `QW QX QY QZ`. Kept with `w ≥ 0`, so each rotation has one spelling.
public struct Quaternion: Sendable, Equatable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w
        self.x = x
        self.y = y
        self.z = z
    }

    /// The quaternion of a rotation matrix (Shepperd's method: divide by the largest of the four
    /// candidate terms, which keeps it accurate for every angle), normalised, with `w ≥ 0`.
    @inlinable public init(_ m: Matrix3) {
        let (m00, m01, m02) = (m.row0.x, m.row0.y, m.row0.z)
        let (m10, m11, m12) = (m.row1.x, m.row1.y, m.row1.z)
        let (m20, m21, m22) = (m.row2.x, m.row2.y, m.row2.z)
        let trace = m00 + m11 + m22
        var q: SIMD4<Double>   // w, x, y, z
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = [s / 4, (m21 - m12) / s, (m02 - m20) / s, (m10 - m01) / s]
        } else if m00 > m11 && m00 > m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2
            q = [(m21 - m12) / s, s / 4, (m01 + m10) / s, (m02 + m20) / s]
        } else if m11 > m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2
            q = [(m02 - m20) / s, (m01 + m10) / s, s / 4, (m12 + m21) / s]
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2
            q = [(m10 - m01) / s, (m02 + m20) / s, (m12 + m21) / s, s / 4]
        }
        q /= (q * q).sum().squareRoot()
        if q[0] < 0 { q = -q }
        self.init(w: q[0], x: q[1], y: q[2], z: q[3])
    }

    /// The rotation matrix (for a unit quaternion).
    @inlinable public var rotationMatrix: Matrix3 {
        Matrix3(rows: [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)])
    }
}
