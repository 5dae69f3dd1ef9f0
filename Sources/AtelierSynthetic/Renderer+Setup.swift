import AtelierGeometry
/// One triangle prepared for one view: vertices in the order that makes its screen area
/// positive, the samples its bounding box covers, and the screen gradients of its barycentric
/// coordinates.
struct TriangleSetup {
    var v0: Int32
    var v1: Int32
    var v2: Int32
    /// Index in the mesh.
    var triangle: Int32
    /// True when v1 and v2 are the mesh's third and second vertices: the triangle appears
    /// clockwise in the mesh's order, which for a mesh wound counter-clockwise seen from outside
    /// means its outside faces the camera.
    var swapped: Bool
    /// Inclusive range of sample columns and rows the triangle may cover.
    var x0: Int32
    var x1: Int32
    var y0: Int32
    var y1: Int32
    /// (∂λ/∂x, ∂λ/∂y) per sample of the barycentric coordinates of v1 and v2.
    var gradient1: SIMD2<Float>
    var gradient2: SIMD2<Float>
}

/// The mesh projected into one view: vertex positions on the sample grid in fixed point, their
/// inverse depths, the triangles that face some sample, and which bands of rows each touches.
struct ViewSetup {
    /// Fixed-point sub-sample precision: positions are in 1/256 of a sample.
    static let subsample: Int64 = 256
    /// Nothing nearer than this is drawn; the rigs keep cameras far outside the mesh.
    static let nearMetres = 0.05

    let samplesWide: Int
    let samplesHigh: Int
    let bandSamples: Int
    let bandCount: Int
    let fixed: FixedBuffer<SIMD2<Int64>>
    let inverseDepth: FixedBuffer<Float>
    let setups: FixedBuffer<TriangleSetup>
    /// Setups in band b are `binned[binStart[b] ..< binStart[b + 1]]`, in triangle order, so that
    /// ties in depth always go to the lower triangle index.
    let binStart: FixedBuffer<Int>
    let binned: FixedBuffer<Int32>

    init(positions: FixedBuffer<SIMD3<Float>>, triangles: FixedBuffer<SIMD3<UInt32>>, intrinsics: PinholeIntrinsics,
         pose: CameraPose, supersampling: Int, bandPixelRows: Int) {
        let ss = Double(supersampling)
        samplesWide = intrinsics.width * supersampling
        samplesHigh = intrinsics.height * supersampling
        bandSamples = bandPixelRows * supersampling
        bandCount = (intrinsics.height + bandPixelRows - 1) / bandPixelRows

        let vertexCount = positions.count
        fixed = FixedBuffer(repeating: .zero, count: vertexCount)
        inverseDepth = FixedBuffer(repeating: 0, count: vertexCount)
        let r = pose.camFromWorld, t = pose.translation
        for i in 0 ..< vertexCount {
            let p = SIMD3<Double>(positions.base[i])
            let c = r * p + t
            guard c.z > Self.nearMetres else { continue }   // inverse depth 0 marks "not drawable"
            let x = (intrinsics.focalLengthXPixels * c.x / c.z + intrinsics.principalPointX) * ss
            let y = (intrinsics.focalLengthYPixels * c.y / c.z + intrinsics.principalPointY) * ss
            let limit = 1e6   // samples: far outside any image, and keeps the fixed-point products inside Int64
            fixed.base[i] = SIMD2(Int64((min(max(x, -limit), limit) * Double(Self.subsample)).rounded()),
                                  Int64((min(max(y, -limit), limit) * Double(Self.subsample)).rounded()))
            inverseDepth.base[i] = Float(1 / c.z)
        }

        var prepared: [TriangleSetup] = []
        prepared.reserveCapacity(triangles.count)
        let half = Self.subsample / 2
        for index in 0 ..< triangles.count {
            let tri = triangles.base[index]
            var a = Int(tri.x), b = Int(tri.y), c = Int(tri.z)
            guard inverseDepth.base[a] > 0, inverseDepth.base[b] > 0, inverseDepth.base[c] > 0 else { continue }
            var pa = fixed.base[a], pb = fixed.base[b], pc = fixed.base[c]
            var area = (pb.x - pa.x) * (pc.y - pa.y) - (pb.y - pa.y) * (pc.x - pa.x)
            guard area != 0 else { continue }
            let swapped = area < 0
            if swapped {
                swap(&b, &c)
                swap(&pb, &pc)
                area = -area
            }
            // Sample i is centred at i·256 + 128; the covered samples lie inside the box.
            let lo = pointwiseMin(pa, pointwiseMin(pb, pc)), hi = pointwiseMax(pa, pointwiseMax(pb, pc))
            let x0 = max(0, Self.ceilDiv(lo.x - half, Self.subsample)), x1 = min(Int64(samplesWide - 1), Self.floorDiv(hi.x - half, Self.subsample))
            let y0 = max(0, Self.ceilDiv(lo.y - half, Self.subsample)), y1 = min(Int64(samplesHigh - 1), Self.floorDiv(hi.y - half, Self.subsample))
            guard x0 <= x1, y0 <= y1 else { continue }
            // λ1 = E(c→a)/area, λ2 = E(a→b)/area with E(p→q)(s) = (q − p) × (s − p); in samples.
            let scale = Float(Self.subsample) / Float(area)
            let gradient1 = SIMD2(-Float(pa.y - pc.y), Float(pa.x - pc.x)) * scale
            let gradient2 = SIMD2(-Float(pb.y - pa.y), Float(pb.x - pa.x)) * scale
            prepared.append(TriangleSetup(v0: Int32(a), v1: Int32(b), v2: Int32(c), triangle: Int32(index), swapped: swapped,
                                          x0: Int32(x0), x1: Int32(x1), y0: Int32(y0), y1: Int32(y1),
                                          gradient1: gradient1, gradient2: gradient2))
        }
        setups = FixedBuffer(prepared)

        var start = [Int](repeating: 0, count: bandCount + 1)
        for s in prepared {
            for band in Int(s.y0) / bandSamples ... Int(s.y1) / bandSamples { start[band + 1] += 1 }
        }
        for band in 0 ..< bandCount { start[band + 1] += start[band] }
        var next = Array(start.dropLast())
        var binned = [Int32](repeating: 0, count: start[bandCount])
        for (index, s) in prepared.enumerated() {
            for band in Int(s.y0) / bandSamples ... Int(s.y1) / bandSamples {
                binned[next[band]] = Int32(index)
                next[band] += 1
            }
        }
        binStart = FixedBuffer(start)
        self.binned = FixedBuffer(binned)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }
}
