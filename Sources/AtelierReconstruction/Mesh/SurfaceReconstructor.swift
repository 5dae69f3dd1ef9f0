import AtelierFormats
import AtelierGeometry
import Foundation

/// Settings of surface reconstruction.
public struct SurfaceOptions: Sendable {
    /// Grid samples along the longest side of the object's bounds.
    public var resolution = 160
    /// The signed distance is truncated at this many grid steps.
    public var truncationSteps = 2.5
    /// Find the floor or turntable under the garment and cut it away; where none is found, cut
    /// below the lowest point the photos saw.
    public var removeGround = true
    /// Keep only the surface that can be reached from outside (`OutsideRegion`): cavities are
    /// filled, and channels into the object narrower than about `2 · channelSteps + 1` grid steps
    /// closed. Negative: keep every surface fusion found.
    public var channelSteps = 1
    /// Lay the surface no photo showed as flat as its seen rim allows (`UnseenSurface`), rather
    /// than leave the visual hull's cone.
    public var relaxUnseen = true
    /// Worker threads (0: one per core).
    public var threads = 0

    public init() {}
}

/// A closed surface from fused depth maps, in the sparse model's frame, with what was found on
/// the way.
public struct Surface: Sendable {
    public var mesh: TexturedMesh
    /// The dense points kept: above the ground, inside the object's bounds.
    public var points: [DensePoint]
    /// The ground's up direction and height (up·x) when one was found and cut away.
    public var groundUp: SIMD3<Double>?
    public var groundHeight: Double?
    /// The cameras' mean up direction.
    public var cameraUp: SIMD3<Double>
    /// Triangles before the largest piece was kept (the rest were floating fragments).
    public var trianglesBeforeCleaning: Int

    public init(mesh: TexturedMesh, points: [DensePoint], groundUp: SIMD3<Double>?, groundHeight: Double?,
                cameraUp: SIMD3<Double>, trianglesBeforeCleaning: Int) {
        self.mesh = mesh
        self.points = points
        self.groundUp = groundUp
        self.groundHeight = groundHeight
        self.cameraUp = cameraUp
        self.trianglesBeforeCleaning = trianglesBeforeCleaning
    }
}

/// From dense depth maps to a watertight mesh: ground removal, bounds, silhouettes mended by the
/// points (`SilhouetteRepair`), signed-distance fusion (`VolumetricFusion`), the outside region
/// only (`OutsideRegion`), marching tetrahedra, the largest connected piece, and the unseen
/// parts laid flat (`UnseenSurface`).
public enum SurfaceReconstructor {
    public static func reconstruct(_ dense: DenseReconstruction, options: SurfaceOptions = SurfaceOptions()) -> Surface? {
        guard dense.points.count >= 100 else { return nil }
        let splitter = WorkSplitter(threads: options.threads)
        let up = GroundPlane.cameraUp(dense.views.map(\.pose))
        let positions = dense.points.map(\.position)
        // A rough scale: the spread of the points.
        let spread = extent(positions, low: 0.01, high: 0.99)
        let size = max(spread.max.x - spread.min.x, spread.max.y - spread.min.y, spread.max.z - spread.min.z)
        guard size > 0 else { return nil }
        var points = dense.points
        var ground: GroundPlane?
        if options.removeGround, let plane = GroundPlane.find(points: positions, up: up, tolerance: size * 0.004) {
            ground = plane
            let margin = size * 0.01
            points = points.filter { plane.up.dot(SIMD3<Double>($0.position)) > plane.height + margin }
        }
        guard points.count >= 100 else { return nil }
        let bounds = extent(points.map(\.position), low: 0.002, high: 0.998)
        let longest = max(bounds.max.x - bounds.min.x, bounds.max.y - bounds.min.y, bounds.max.z - bounds.min.z)
        let spacing = longest / Double(max(16, options.resolution))
        let margin = 0.04 * longest + 3 * spacing
        let origin = bounds.min - margin
        let counts = (bounds.max - bounds.min + 2 * margin) / spacing
        let grid = VolumetricFusion.Grid(origin: origin, spacing: spacing,
                                         nx: Int(counts.x.rounded(.up)) + 1, ny: Int(counts.y.rounded(.up)) + 1, nz: Int(counts.z.rounded(.up)) + 1)
        points = points.filter {
            let p = SIMD3<Double>($0.position)
            return all(p .>= origin) && all(p .<= origin + counts * spacing)
        }
        var cut = ground.map { (normal: $0.up, offset: $0.height + 1.5 * spacing) }
        if options.removeGround, cut == nil {
            // No ground among the points (a plain floor has no texture to match): below the
            // lowest surface the photos saw there is nothing they could show, so nothing is built.
            let heights = points.map { up.dot(SIMD3<Double>($0.position)) }.sorted()
            cut = (normal: up, offset: heights[heights.count / 1000] - spacing)
        }
        // The silhouettes hold every confirmed point; mend the ones that do not.
        var views = dense.views
        if views.contains(where: { !$0.mask.isEmpty }) { SilhouetteRepair.widen(&views, with: points, radius: 1, splitter: splitter) }
        var (volume, observed) = VolumetricFusion.volume(views: views, maps: dense.depthMaps, grid: grid,
                                                         truncation: options.truncationSteps * spacing, cut: cut, splitter: splitter)
        // The grid's faces are outside, so the surface closes inside the grid.
        closeBorder(&volume)
        if options.channelSteps >= 0 { OutsideRegion.keepReachable(&volume, channelSteps: options.channelSteps) }
        // A sample at (or within rounding of) the level would put a surface vertex exactly on it,
        // where the surfaces of the cells around could pinch together: move it off.
        for i in volume.values.indices where abs(volume.values[i]) < 1e-4 { volume.values[i] = volume.values[i] < 0 ? -1e-4 : 1e-4 }
        let raw = MarchingTetrahedra.extract(volume)
        var mesh = MeshComponents.largest(raw)
        if options.relaxUnseen { UnseenSurface.relax(&mesh, volume: volume, observed: observed) }
        return Surface(mesh: mesh, points: points, groundUp: ground?.up, groundHeight: ground?.height, cameraUp: up,
                       trianglesBeforeCleaning: raw.triangles.count)
    }

    /// Sets every sample on the grid's faces outside.
    static func closeBorder(_ volume: inout ScalarVolume) {
        for z in 0 ..< volume.nz {
            for y in 0 ..< volume.ny {
                for x in 0 ..< volume.nx where x == 0 || y == 0 || z == 0 || x == volume.nx - 1 || y == volume.ny - 1 || z == volume.nz - 1 {
                    volume.values[volume.index(x, y, z)] = max(volume.values[volume.index(x, y, z)], 1)
                }
            }
        }
    }

    /// Per-axis percentiles of a cloud.
    static func extent(_ points: [SIMD3<Float>], low: Double, high: Double) -> (min: SIMD3<Double>, max: SIMD3<Double>) {
        var lo = SIMD3<Double>.zero, hi = SIMD3<Double>.zero
        for axis in 0 ..< 3 {
            let values = points.map { Double($0[axis]) }.sorted()
            lo[axis] = values[Int(Double(values.count - 1) * low)]
            hi[axis] = values[Int(Double(values.count - 1) * high)]
        }
        return (lo, hi)
    }
}
