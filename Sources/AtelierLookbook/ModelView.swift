import AtelierCharts
import AtelierFormats
import AtelierImaging
import Foundation

/// The first view of a 3D model, shared by the still (the poster shown while the page loads)
/// and the interactive viewer (`ViewerScript`), so the picture does not jump when the live one
/// replaces it: a perspective camera a little to the right of and above the model's front (a
/// model faces +Z, stands on y = 0, +Y up), framing its bounding sphere, looking at its centre.
public enum ModelView {
    /// Degrees round the vertical axis from the front (+Z) towards +X.
    static let azimuth: Float = 25
    /// Degrees above the horizontal.
    static let elevation: Float = 12
    /// The vertical field of view, in degrees.
    static let fieldOfView: Float = 35
    /// The camera's distance as a share of the one that fits the bounding sphere whole (a
    /// sphere is loose round a garment: its corners are empty).
    static let framing: Float = 0.85
    /// The poster's size, and the viewer's aspect ratio (4:3).
    static let posterWidth = 800, posterHeight = 600
    /// The page's background behind the model (#f2f2f0), in the poster and the viewer.
    static let background: UInt32 = 0xF2F2F0

    /// A still of the mesh as the viewer first shows it: each face visible from the camera filled
    /// with the texture's colour at its centre (or `colour` when there is no texture), shaded by a
    /// light at the camera as the viewer lights it, far faces first; drawn by cairo.
    public static func poster(_ mesh: TexturedMesh, colour: SIMD3<UInt8> = [176, 176, 176]) throws -> [UInt8] {
        let texture: Image? = try mesh.texturePNG.map { png in
            try png.withUnsafeBytes { bytes throws(ImagingError) in try PNG.decode(bytes, channels: 3) }
        }
        let (lo, hi) = mesh.bounds
        let centre = (lo + hi) / 2
        let radius = max(length(hi - lo) / 2, 1e-6)
        let a = azimuth * .pi / 180, e = elevation * .pi / 180, halfFOV = fieldOfView * .pi / 360
        let eye = centre + SIMD3(sin(a) * cos(e), sin(e), cos(a) * cos(e)) * (radius / sin(halfFOV) * framing)
        let forward = normalize(centre - eye)
        let right = normalize(cross(forward, [0, 1, 0]))
        let up = cross(right, forward)
        let focal = Float(posterHeight) / 2 / tan(halfFOV)
        let half = SIMD2(Float(posterWidth), Float(posterHeight)) / 2

        var faces: [(depth: Float, triangle: PNGRenderer.Triangle)] = []
        faces.reserveCapacity(mesh.triangles.count / 2)
        for t in mesh.triangles {
            let p0 = mesh.positions[Int(t.x)], p1 = mesh.positions[Int(t.y)], p2 = mesh.positions[Int(t.z)]
            let normal = cross(p1 - p0, p2 - p0)
            let middle = (p0 + p1 + p2) / 3
            let toEye = eye - middle
            // Faces turned away are not drawn, as the viewer's single-sided material does not.
            guard dot(normal, toEye) > 0 else { continue }
            var corners: [SIMD2<Float>] = []
            for p in [p0, p1, p2] {
                let d = p - eye
                let z = max(dot(d, forward), 1e-4)
                corners.append(half + SIMD2(dot(d, right), -dot(d, up)) * (focal / z))
            }
            var rgb = SIMD3<Float>(colour)
            if let texture, !mesh.textureCoordinates.isEmpty {
                let uv = (mesh.textureCoordinates[Int(t.x)] + mesh.textureCoordinates[Int(t.y)] + mesh.textureCoordinates[Int(t.z)]) / 3
                // A PLY's (0, 0) is the image's bottom-left corner.
                let x = min(max(Int(uv.x * Float(texture.width - 1) + 0.5), 0), texture.width - 1)
                let y = min(max(Int((1 - uv.y) * Float(texture.height - 1) + 0.5), 0), texture.height - 1)
                let sample = texture[x, y]
                rgb = SIMD3(Float(sample[sample.startIndex]), Float(sample[sample.startIndex + 1]), Float(sample[sample.startIndex + 2]))
            }
            let lambert = max(0, dot(normalize(normal), normalize(toEye)))
            // The viewer lights in linear light and writes gamma 2.2: a factor k there is k^(1/2.2) here.
            let light = pow(ViewerScript.ambient + ViewerScript.headlight * lambert, 1 / 2.2)
            let shaded = (rgb * light).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
            faces.append((dot(middle - eye, forward), PNGRenderer.Triangle(corners[0], corners[1], corners[2], rgb: SIMD3<UInt8>(shaded, rounding: .toNearestOrAwayFromZero))))
        }
        faces.sort { $0.depth > $1.depth }
        return try PNGRenderer.png(triangles: faces.map(\.triangle), width: posterWidth, height: posterHeight, background: background)
    }

    private static func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }
    private static func length(_ a: SIMD3<Float>) -> Float { dot(a, a).squareRoot() }
    private static func normalize(_ a: SIMD3<Float>) -> SIMD3<Float> { a / max(length(a), 1e-20) }
    private static func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
        [a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x]
    }
}
