/// A triangle mesh with one texture: what reconstruction produces and every mesh format here
/// writes (PLY, OBJ+MTL+PNG, glTF/GLB, USDZ).
///
/// Conventions, fixed so every writer agrees: positions in metres, +Y up, right-handed, triangles
/// counter-clockwise seen from outside; texture coordinates with (0, 0) at the bottom-left of the
/// texture image and v pointing up (OBJ's and USD's convention; the glTF writer flips v, since
/// glTF puts (0, 0) at the top-left).
public struct TexturedMesh: Sendable, Equatable {
    public var positions: [SIMD3<Float>]
    /// One unit normal per vertex, or empty.
    public var normals: [SIMD3<Float>]
    /// One texture coordinate per vertex, or empty (then no texture is written).
    public var textureCoordinates: [SIMD2<Float>]
    /// Vertex indices, three per triangle.
    public var triangles: [SIMD3<UInt32>]
    /// The texture as PNG bytes, or nil.
    public var texturePNG: [UInt8]?
    /// A name for the object inside the file (a USD prim, a glTF node): letters, digits and `_`.
    public var name: String

    public init(positions: [SIMD3<Float>], normals: [SIMD3<Float>] = [], textureCoordinates: [SIMD2<Float>] = [],
                triangles: [SIMD3<UInt32>], texturePNG: [UInt8]? = nil, name: String = "Garment") {
        self.positions = positions
        self.normals = normals
        self.textureCoordinates = textureCoordinates
        self.triangles = triangles
        self.texturePNG = texturePNG
        self.name = name
    }

    /// Why the mesh cannot be written, or nil when it is consistent: per-vertex arrays of the
    /// right length, indices in range, finite positions.
    public var inconsistency: String? {
        if !normals.isEmpty && normals.count != positions.count { return "\(normals.count) normals for \(positions.count) vertices" }
        if !textureCoordinates.isEmpty && textureCoordinates.count != positions.count {
            return "\(textureCoordinates.count) texture coordinates for \(positions.count) vertices"
        }
        let count = UInt32(positions.count)
        if let bad = triangles.first(where: { $0.x >= count || $0.y >= count || $0.z >= count }) {
            return "triangle \(bad) refers to a vertex beyond the \(count)"
        }
        if positions.contains(where: { !$0.x.isFinite || !$0.y.isFinite || !$0.z.isFinite }) { return "a vertex position is not finite" }
        return nil
    }

    /// The axis-aligned bounds of the positions (zero for an empty mesh).
    public var bounds: (minimum: SIMD3<Float>, maximum: SIMD3<Float>) {
        guard var lo = positions.first else { return (.zero, .zero) }
        var hi = lo
        for p in positions {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        return (lo, hi)
    }
}
