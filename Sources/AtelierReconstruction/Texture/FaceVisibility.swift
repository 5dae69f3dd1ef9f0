import AtelierFormats
import AtelierGeometry
import AtelierRecords

/// Which faces each photo sees, and how well: the data term of view selection.
///
/// Each photo rasterises the whole mesh into an inverse-depth buffer at its own resolution. A face
/// counts as seen when it faces the camera, its corners project inside the image (one pixel in
/// from the border, for bilinear sampling), and every pixel it covers passes the depth test
/// within a relative tolerance, so a partly hidden face is not seen at all: its texels would
/// otherwise copy the occluder. A face too small to cover a pixel centre is tested at its centroid.
/// The quality of a seen face is its projected area in pixels, times the cosine between its normal
/// and the direction to the camera, times the mean image gradient over the face plus one grey
/// level: close, frontal views give the most texels per unit of surface, and of two such views the
/// sharper one has the larger gradients, so a blurred or out-of-focus photo loses. It is Waechter
/// et al.'s gradient magnitude integral ("Let there be color!", ECCV 2014) with the cosine kept,
/// and the floor so that plain fabric, whose gradients are only noise, still goes by area.
enum FaceVisibility {
    /// `quality[view · faceCount + face]`, 0 where the view does not see the face. One photo per
    /// work item, each writing only its own row, so the result does not depend on thread count.
    static func quality(positions: [SIMD3<Float>], triangles: [SIMD3<UInt32>], topology: FaceTopology,
                        views: [TextureView], tolerance: Double) -> [Float] {
        let faceCount = triangles.count
        var quality = [Float](repeating: 0, count: faceCount * views.count)
        quality.withUnsafeMutableBufferPointer { buffer in
            let rows = SharedPointer(base: buffer.baseAddress!)
            WorkSplitter(threads: 0).forEachBalanced(views.count) { v in
                let row = UnsafeMutableBufferPointer(start: rows.base + v * faceCount, count: faceCount)
                qualities(of: views[v], positions: positions, triangles: triangles, topology: topology,
                          tolerance: Float(tolerance), into: row)
            }
        }
        return quality
    }

    /// Each vertex in pixels with its inverse depth as `z`, or `z = 0` when it is behind the camera
    /// or so far outside the field of view that radial distortion would fold it back in.
    static func project(_ positions: [SIMD3<Float>], into view: TextureView) -> [SIMD3<Float>] {
        let intrinsics = view.intrinsics, pose = view.pose
        let halfDiagonal = 0.5 * Double(intrinsics.width * intrinsics.width + intrinsics.height * intrinsics.height).squareRoot()
        let maxRadius2 = 4 * (halfDiagonal / intrinsics.focalLengthPixels) * (halfDiagonal / intrinsics.focalLengthPixels)
        let distorted = intrinsics.k1 != 0 || intrinsics.k2 != 0
        return positions.map { p in
            let inCam = pose.pointInCam(SIMD3(Double(p.x), Double(p.y), Double(p.z)))
            guard inCam.z > 1e-9 else { return .zero }
            let u = inCam.x / inCam.z, w = inCam.y / inCam.z
            if distorted && u * u + w * w > maxRadius2 { return .zero }
            let pixel = intrinsics.pixel(fromNormalised: SIMD2(u, w))
            return SIMD3(Float(pixel.x), Float(pixel.y), Float(1 / inCam.z))
        }
    }

    private static func qualities(of view: TextureView, positions: [SIMD3<Float>], triangles: [SIMD3<UInt32>],
                                  topology: FaceTopology, tolerance: Float, into row: UnsafeMutableBufferPointer<Float>) {
        let width = view.intrinsics.width, height = view.intrinsics.height
        let screen = project(positions, into: view)
        var depth = [Float](repeating: 0, count: width * height)
        view.image.pixels.withUnsafeBufferPointer { pixels in
            let gradient = ImageGradient(pixels: pixels, width: width, height: height)
            depth.withUnsafeMutableBufferPointer { depth in
                // Pass 1: the nearest surface at every pixel centre (largest inverse depth).
                for t in triangles {
                    let a = screen[Int(t.x)], b = screen[Int(t.y)], c = screen[Int(t.z)]
                    guard a.z > 0, b.z > 0, c.z > 0 else { continue }
                    _ = TriangleRaster.scan(SIMD2(a.x, a.y), SIMD2(b.x, b.y), SIMD2(c.x, c.y), width: width, height: height) { x, y, wa, wb in
                        let z = wa * a.z + wb * b.z + (1 - wa - wb) * c.z
                        let i = y &* width &+ x
                        if z > depth[i] { depth[i] = z }
                        return true
                    }
                }
                // Pass 2: a face is seen when none of its pixels has a surface clearly in front of it.
                let centre = view.pose.centre
                let keep = 1 - tolerance
                let maxX = Float(width - 1), maxY = Float(height - 1)
                for (f, t) in triangles.enumerated() {
                    row[f] = 0
                    let a = screen[Int(t.x)], b = screen[Int(t.y)], c = screen[Int(t.z)]
                    guard a.z > 0, b.z > 0, c.z > 0 else { continue }
                    guard min(a.x, b.x, c.x) >= 1, max(a.x, b.x, c.x) <= maxX,
                          min(a.y, b.y, c.y) >= 1, max(a.y, b.y, c.y) <= maxY else { continue }
                    let toCamera = centre - topology.centroids[f]
                    let distance = toCamera.length
                    guard distance > 0 else { continue }
                    let cosine = topology.normals[f].dot(toCamera) / distance
                    guard cosine > 0 else { continue }
                    let pa = SIMD2(a.x, a.y), pb = SIMD2(b.x, b.y), pc = SIMD2(c.x, c.y)
                    var gradients: Float = 0
                    var visited = TriangleRaster.scan(pa, pb, pc, width: width, height: height) { x, y, wa, wb in
                        let z = wa * a.z + wb * b.z + (1 - wa - wb) * c.z
                        guard z >= depth[y &* width &+ x] * keep else { return false }
                        gradients += gradient.magnitude(x, y)
                        return true
                    }
                    if visited < 0 { continue }
                    if visited == 0 {
                        let mid = (a + b + c) / 3
                        let x = min(width - 1, Int(mid.x)), y = min(height - 1, Int(mid.y))
                        guard mid.z >= depth[y * width + x] * keep else { continue }
                        gradients = gradient.magnitude(x, y)
                        visited = 1
                    }
                    let area = 0.5 * abs((pb.x - pa.x) * (pc.y - pa.y) - (pb.y - pa.y) * (pc.x - pa.x))
                    let sharpness = 1 + gradients / Float(visited)
                    row[f] = max(Float.leastNormalMagnitude, area * Float(cosine) * sharpness)
                }
            }
        }
    }
}

/// The brightness gradient of an RGB photo at a pixel: the L1 norm of central differences of
/// (r + 2g + b) / 4, in grey levels per pixel, clamped at the border.
struct ImageGradient {
    let pixels: UnsafeBufferPointer<UInt8>
    let width: Int
    let height: Int

    @inline(__always)
    func magnitude(_ x: Int, _ y: Int) -> Float {
        let left = brightness(max(x - 1, 0), y), right = brightness(min(x + 1, width - 1), y)
        let up = brightness(x, max(y - 1, 0)), down = brightness(x, min(y + 1, height - 1))
        return (abs(right - left) + abs(down - up)) * 0.5
    }

    @inline(__always)
    private func brightness(_ x: Int, _ y: Int) -> Float {
        let i = (y &* width &+ x) &* 3
        return Float(Int(pixels[i]) &+ 2 &* Int(pixels[i &+ 1]) &+ Int(pixels[i &+ 2])) * 0.25
    }
}
