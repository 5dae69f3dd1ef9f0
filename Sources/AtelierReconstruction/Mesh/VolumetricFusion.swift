import AtelierGeometry

/// Fuses depth maps into a truncated signed distance field (Curless & Levoy 1996, as KinectFusion
/// and Open3D do it) that also closes the surface where no camera looked: a sample near an observed
/// surface takes the mean of the views' truncated distances (positive in front, negative behind);
/// a sample no view saw near a surface is inside when it lies behind the surface in most views that
/// see its direction, and outside otherwise (seen through, off the silhouette, or unseen). The level set at 0 is then a closed surface: the underside of a
/// garment standing on a turntable, which no photo shows, is closed by carving.
enum VolumetricFusion {
    struct Grid {
        var origin: SIMD3<Double>
        var spacing: Double
        var nx: Int, ny: Int, nz: Int
    }

    /// `cut`, when given, is a plane (unit normal n, offset d: points with n·x < d) whose side is
    /// forced outside: the ground and what lies under it.
    /// The volume, and for each sample whether some view saw a surface within the truncation
    /// of it (`observed`): the rest of the surface was closed by the votes, where no photo
    /// showed it.
    static func volume(views: [DenseView], maps: [DepthMap], grid: Grid, truncation: Double,
                       cut: (normal: SIMD3<Double>, offset: Double)?, splitter: WorkSplitter) -> (volume: ScalarVolume, observed: [Bool]) {
        let slices: [(values: [Float], observed: [Bool])] = splitter.map(grid.nz, balanced: true) { z in
            var slice = [Float](repeating: 1, count: grid.nx * grid.ny)
            var observed = [Bool](repeating: false, count: grid.nx * grid.ny)
            for y in 0 ..< grid.ny {
                for x in 0 ..< grid.nx {
                    let p = grid.origin + grid.spacing * SIMD3(Double(x), Double(y), Double(z))
                    if let cut, cut.normal.dot(p) < cut.offset { continue }
                    (slice[y * grid.nx + x], observed[y * grid.nx + x]) = value(at: p, views: views, maps: maps, truncation: truncation)
                }
            }
            return (slice, observed)
        }
        return (ScalarVolume(nx: grid.nx, ny: grid.ny, nz: grid.nz, origin: grid.origin, spacing: grid.spacing,
                             values: slices.flatMap(\.values)), slices.flatMap(\.observed))
    }

    /// The sample's value, and whether a view saw a surface within the truncation of it.
    @inline(__always)
    static func value(at p: SIMD3<Double>, views: [DenseView], maps: [DepthMap], truncation: Double) -> (Float, Bool) {
        var sum = 0.0, weight = 0.0, behind = 0, seen = 0, band = false
        for v in views.indices {
            let view = views[v]
            let inCam = view.pose.pointInCam(p)
            guard inCam.z > 0 else { continue }
            let f = view.intrinsics.focalLengthPixels, c = view.intrinsics.principalPoint
            let u = f * inCam.x / inCam.z + c.x, w = f * inCam.y / inCam.z + c.y
            guard u >= 0, w >= 0, u < Double(view.width), w < Double(view.height) else { continue }
            let pixel = Int(w) * view.width + Int(u)
            seen += 1
            if !view.allows(pixel) {
                sum += 1
                weight += 1
                continue
            }
            let depth = Double(maps[v].depth[pixel])
            guard depth > 0 else { continue }
            let distance = depth - inCam.z
            if distance < -truncation {
                behind += 1
                continue
            }
            if distance <= truncation { band = true }
            sum += min(1, distance / truncation)
            weight += 1
        }
        if weight > 0 { return (Float(sum / weight), band) }
        // Inside only when most views that look this way see it behind their surface: a view with
        // no depth there (plain backdrop, or a hole) counts against, so nothing is extruded
        // behind the garment where only one view looked past it.
        return (2 * behind > seen ? -1 : 1, false)
    }
}
