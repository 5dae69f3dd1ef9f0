import AtelierGeometry
import AtelierRecords
import Foundation

/// One view's work on one band of pixel rows: rasterise the band's triangles into a supersampled
/// depth buffer, shade every sample, filter, and write the band's 8-bit pixels. Bands share
/// only read-only data and write disjoint rows.
struct BandJob: @unchecked Sendable {
    // The view's geometry.
    let fixed: UnsafePointer<SIMD2<Int64>>
    let inverseDepth: UnsafePointer<Float>
    let setups: UnsafePointer<TriangleSetup>
    let binStart: UnsafePointer<Int>
    let binned: UnsafePointer<Int32>
    // The mesh's attributes.
    let normals: UnsafePointer<SIMD3<Float>>
    let uvs: UnsafePointer<SIMD2<Float>>
    let occlusion: UnsafePointer<Float>
    // Surfaces and light.
    let garment: TextureSampler
    let turntable: TextureSampler
    let turntableRadius: Float
    let lighting: Lighting
    let groundLight: Float
    let studio: (horizon: SIMD3<Float>, zenith: SIMD3<Float>, floor: SIMD3<Float>, fadeStart: Float, fadeEnd: Float)
    // The camera: world directions of its axes, its centre, its intrinsics.
    let right: SIMD3<Float>
    let down: SIMD3<Float>
    let forward: SIMD3<Float>
    let centre: SIMD3<Float>
    let focal: SIMD2<Float>
    let principal: SIMD2<Float>
    // Sizes.
    let width: Int
    let height: Int
    let ss: Int
    let samplesWide: Int
    let samplesHigh: Int
    let bandPixelRows: Int
    // The sensor.
    let vignetting: Float
    let noiseLevels: Float
    let noiseKey: UInt64
    // Outputs.
    let pixels: SharedPointer<UInt8>
    let visibleTriangles: SharedPointer<Int32>?
    let visibleBarycentrics: SharedPointer<SIMD2<Float>>?

    init(renderer: Renderer, setup: ViewSetup, intrinsics: PinholeIntrinsics, pose: CameraPose, settings: RenderSettings, view: Int,
         pixels: SharedPointer<UInt8>, visibleTriangles: SharedPointer<Int32>?, visibleBarycentrics: SharedPointer<SIMD2<Float>>?) {
        fixed = UnsafePointer(setup.fixed.base)
        inverseDepth = UnsafePointer(setup.inverseDepth.base)
        setups = UnsafePointer(setup.setups.base)
        binStart = UnsafePointer(setup.binStart.base)
        binned = UnsafePointer(setup.binned.base)
        normals = UnsafePointer(renderer.normals.base)
        uvs = UnsafePointer(renderer.uvs.base)
        occlusion = UnsafePointer(renderer.occlusion.base)
        let scene = renderer.scene
        garment = scene.texture.sampler
        turntable = scene.studio.turntable.sampler
        turntableRadius = scene.studio.turntableRadiusMetres
        lighting = scene.lighting
        groundLight = scene.lighting.irradiance(normal: [0, 1, 0], occlusion: 1)
        studio = (scene.studio.horizonColour, scene.studio.zenithColour, scene.studio.floorAlbedo,
                  scene.studio.floorFadeStartMetres, scene.studio.floorFadeEndMetres)
        let r = pose.camFromWorld
        right = SIMD3<Float>(r.row0)
        down = SIMD3<Float>(r.row1)
        forward = SIMD3<Float>(r.row2)
        centre = SIMD3<Float>(pose.centre)
        focal = SIMD2(Float(intrinsics.focalLengthXPixels), Float(intrinsics.focalLengthYPixels))
        principal = SIMD2(Float(intrinsics.principalPointX), Float(intrinsics.principalPointY))
        width = intrinsics.width
        height = intrinsics.height
        ss = settings.supersampling
        samplesWide = setup.samplesWide
        samplesHigh = setup.samplesHigh
        bandPixelRows = setup.bandSamples / settings.supersampling
        vignetting = settings.sensor.vignetting
        noiseLevels = settings.sensor.noiseLevels
        noiseKey = SplitMix64.mix(settings.noiseSeed ^ SplitMix64.mix(UInt64(view) &+ 0x9015E))
        self.pixels = pixels
        self.visibleTriangles = visibleTriangles
        self.visibleBarycentrics = visibleBarycentrics
    }

    func run(band: Int) {
        let pixelRow0 = band * bandPixelRows, pixelRow1 = min(height, pixelRow0 + bandPixelRows)
        let sampleRow0 = pixelRow0 * ss, rows = (pixelRow1 - pixelRow0) * ss
        let count = samplesWide * rows
        let depth = UnsafeMutablePointer<Float>.allocate(capacity: count)
        let ids = UnsafeMutablePointer<Int32>.allocate(capacity: count)
        let barycentrics = UnsafeMutablePointer<SIMD2<Float>>.allocate(capacity: count)
        defer {
            depth.deallocate()
            ids.deallocate()
            barycentrics.deallocate()
        }
        depth.initialize(repeating: 0, count: count)
        ids.initialize(repeating: -1, count: count)
        barycentrics.initialize(repeating: .zero, count: count)

        rasterise(band: band, sampleRow0: sampleRow0, rows: rows, depth: depth, ids: ids, barycentrics: barycentrics)
        if visibleTriangles != nil { recordVisibility(sampleRow0: sampleRow0, count: count, ids: ids, barycentrics: barycentrics) }
        shade(pixelRows: pixelRow0 ..< pixelRow1, sampleRow0: sampleRow0, depth: depth, ids: ids, barycentrics: barycentrics)
    }

    // MARK: Rasterisation

    /// Depth-tests every triangle of the band into the band's sample buffers. Edge functions are
    /// exact integers; a sample exactly on an edge belongs to the triangle for which that edge is
    /// a "top-left" one (direction (dx, dy) with dy > 0, or dy = 0 and dx < 0), and since the two
    /// triangles sharing an edge see it in opposite directions, exactly one of them takes it.
    private func rasterise(band: Int, sampleRow0: Int, rows: Int, depth: UnsafeMutablePointer<Float>,
                           ids: UnsafeMutablePointer<Int32>, barycentrics: UnsafeMutablePointer<SIMD2<Float>>) {
        let step = ViewSetup.subsample, half = step / 2
        let bandTop = Int32(sampleRow0), bandBottom = Int32(sampleRow0 + rows - 1)
        for k in binStart[band] ..< binStart[band + 1] {
            let index = binned[k], s = setups[Int(index)]
            let a = fixed[Int(s.v0)], b = fixed[Int(s.v1)], c = fixed[Int(s.v2)]
            let wa = inverseDepth[Int(s.v0)], wb = inverseDepth[Int(s.v1)], wc = inverseDepth[Int(s.v2)]
            // E0 opposite a (edge b→c), E1 opposite b (edge c→a), E2 opposite c (edge a→b).
            func bias(_ p: SIMD2<Int64>, _ q: SIMD2<Int64>) -> Int64 {
                let d = q &- p
                return d.y > 0 || (d.y == 0 && d.x < 0) ? 0 : 1
            }
            let bias0 = bias(b, c), bias1 = bias(c, a), bias2 = bias(a, b)
            let area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            let inverseArea = 1 / Float(area)
            let stepX0 = -(c.y - b.y) * step, stepX1 = -(a.y - c.y) * step, stepX2 = -(b.y - a.y) * step
            let x0 = Int(s.x0), x1 = Int(s.x1)
            let px = Int64(x0) * step + half
            for row in max(s.y0, bandTop) ... min(s.y1, bandBottom) {
                let py = Int64(row) * step + half
                var e0 = (c.x - b.x) * (py - b.y) - (c.y - b.y) * (px - b.x)
                var e1 = (a.x - c.x) * (py - c.y) - (a.y - c.y) * (px - c.x)
                var e2 = (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x)
                let line = (Int(row) - sampleRow0) * samplesWide
                for x in x0 ... x1 {
                    if e0 >= bias0 && e1 >= bias1 && e2 >= bias2 {
                        let l1 = Float(e1) * inverseArea, l2 = Float(e2) * inverseArea
                        let w = (1 - l1 - l2) * wa + l1 * wb + l2 * wc
                        let at = line + x
                        if w > depth[at] {
                            depth[at] = w
                            ids[at] = index
                            barycentrics[at] = SIMD2(l1, l2)
                        }
                    }
                    e0 += stepX0
                    e1 += stepX1
                    e2 += stepX2
                }
            }
        }
    }

    /// Copies the band's visibility out in mesh terms: triangle index and perspective-correct
    /// barycentrics in the mesh's vertex order.
    private func recordVisibility(sampleRow0: Int, count: Int, ids: UnsafeMutablePointer<Int32>, barycentrics: UnsafeMutablePointer<SIMD2<Float>>) {
        guard let triangleOut = visibleTriangles?.base, let barycentricOut = visibleBarycentrics?.base else { return }
        let offset = sampleRow0 * samplesWide
        for i in 0 ..< count {
            let id = ids[i]
            guard id >= 0 else {
                triangleOut[offset + i] = -1
                continue
            }
            let s = setups[Int(id)], b = perspectiveCorrect(s, barycentrics[i])
            triangleOut[offset + i] = s.triangle
            barycentricOut[offset + i] = s.swapped ? SIMD2(b.z, b.y) : SIMD2(b.y, b.z)
        }
    }

    /// Screen-space barycentrics (of v1, v2) to perspective-correct ones (of v0, v1, v2).
    @inline(__always)
    private func perspectiveCorrect(_ s: TriangleSetup, _ l: SIMD2<Float>) -> SIMD3<Float> {
        let p = SIMD3(1 - l.x - l.y, l.x, l.y) * SIMD3(inverseDepth[Int(s.v0)], inverseDepth[Int(s.v1)], inverseDepth[Int(s.v2)])
        return p / (p.x + p.y + p.z)
    }
}
