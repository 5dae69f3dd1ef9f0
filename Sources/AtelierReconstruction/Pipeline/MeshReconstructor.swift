import AtelierFormats
import AtelierGeometry
import AtelierImaging
import Foundation

/// Settings of the stages after camera alignment.
public struct MeshOptions: Sendable {
    public var detail: DetailLevel = .medium
    /// Overrides of the detail level's triangle budget and texture side.
    public var maxTriangles: Int?
    public var textureSize: Int?
    /// Keep depth to each photo's garment silhouette when the photo has a plain backdrop (Object
    /// Capture's object masking, on by default there too).
    public var objectMasking = true
    /// The garment's real height in metres, to scale the model; nil keeps the model's own units.
    public var realHeight: Double?
    public var threads = 0
    /// The memory to plan within (nil: what the machine has, `MemoryBudget.system()`).
    public var memory: MemoryBudget?

    public init(detail: DetailLevel = .medium) { self.detail = detail }
}

/// A finished model: the textured mesh (upright, +Y up, standing on y = 0, centred), the dense
/// cloud (in the sparse model's frame, like the cameras), and how the two frames relate.
public struct MeshReconstruction: Sendable {
    public var mesh: TexturedMesh
    public var densePoints: [DensePoint]
    /// Takes sparse-model coordinates to the mesh's.
    public var meshFromSparse: SimilarityTransform
    /// Whether a floor or turntable was found and cut away.
    public var groundRemoved: Bool
    public var depthMaps: Int
    public var rawTriangles: Int
    public var texturing: TexturingReport
    public var stageSeconds: [ReconstructionStage: Double]
    public var skipped: [SkippedImage]
    public var memory: MemoryReport
}

/// How the run fitted its memory budget: the sizes it worked at, and what it brought down.
public struct MemoryReport: Sendable {
    public var budgetBytes: Int?
    /// Longest side of the photos in stereo (nil when the dense stage came from a checkpoint).
    public var stereoSide: Int?
    /// Longest side of the photos the texture was taken from, and the atlas's side.
    public var texturePhotoSide = 0
    public var textureSize = 0
    /// The largest estimated peak of the planned stages.
    public var estimatedPeakBytes = 0
    /// One sentence per stage that was downscaled to fit.
    public var notices: [String] = []
}

/// Finished stages a run can start from (`--checkpoint`): the fused depth maps and dense points,
/// then the closed surface. Depth maps are in the order of the registered images, by `images`.
public struct MeshCheckpoint: Sendable {
    public var images: [Int]
    public var depthMaps: [DepthMap]
    public var densePoints: [DensePoint]
    public var surface: Surface?

    public init(images: [Int], depthMaps: [DepthMap], densePoints: [DensePoint], surface: Surface? = nil) {
        self.images = images
        self.depthMaps = depthMaps
        self.densePoints = densePoints
        self.surface = surface
    }

    /// The dense stage's part, to resume multi-view stereo from.
    public var dense: DenseCheckpoint { DenseCheckpoint(images: images, depthMaps: depthMaps, densePoints: densePoints) }
}

/// Dense stereo, surface, simplification, texture, and the upright frame: part 2 of the
/// pipeline, after `SparseReconstructor`.
public struct MeshReconstructor: Sendable {
    public var options: MeshOptions

    public init(options: MeshOptions) { self.options = options }

    /// `resume` skips the stages it holds; `save` is called with the checkpoint after each of
    /// point cloud generation and mesh generation finishes.
    public func reconstruct(_ sparse: SparseReconstruction, resume: MeshCheckpoint? = nil,
                            save: ((MeshCheckpoint) throws -> Void)? = nil,
                            progress: @escaping @Sendable (ReconstructionProgress) -> Void = { _ in }) throws -> MeshReconstruction {
        var seconds: [ReconstructionStage: Double] = [:]
        var clock = Date()
        func lap(_ stage: ReconstructionStage) {
            seconds[stage] = Date().timeIntervalSince(clock)
            clock = Date()
        }
        var checkpoint = resume
        var skipped: [SkippedImage] = []
        let sizing = Sizing(sparse, options: options)
        var memory = MemoryReport(budgetBytes: sizing.budget?.bytes)
        if checkpoint?.surface == nil {
            let dense = pointCloud(sparse, resume: checkpoint, sizing: sizing, memory: &memory, progress: progress)
            skipped = dense.skipped
            if !dense.resumed {
                checkpoint = MeshCheckpoint(images: dense.views.map(\.image), depthMaps: dense.depthMaps, densePoints: dense.points)
                try save?(checkpoint!)
                lap(.pointCloudGeneration)
            }
            checkpoint!.surface = try surface(from: dense, progress: progress)
            try save?(checkpoint!)
            lap(.meshGeneration)
        }
        let surface = checkpoint!.surface!
        progress(ReconstructionProgress(stage: .meshGeneration, fraction: 1, detail: "\(surface.mesh.triangles.count) triangles"))
        let optimised = optimised(surface.mesh, progress: progress)
        lap(.optimisation)
        let textured = try textured(optimised, sparse: sparse, sizing: sizing, memory: &memory, progress: progress)
        lap(.textureMapping)
        let transform = Self.uprightFrame(mesh: textured.mesh, up: surface.groundUp ?? surface.cameraUp,
                                          front: sizing.registered.first.flatMap { sparse.model.images[$0].camFromWorld?.centre },
                                          realHeight: options.realHeight)
        return MeshReconstruction(mesh: Self.moved(textured.mesh, by: transform), densePoints: surface.points, meshFromSparse: transform,
                                  groundRemoved: surface.groundUp != nil, depthMaps: checkpoint!.depthMaps.count,
                                  rawTriangles: surface.mesh.triangles.count, texturing: textured.report, stageSeconds: seconds, skipped: skipped,
                                  memory: memory)
    }

    /// The similarity that stands the model up: `up` becomes +Y, the side facing `front` (the
    /// first photo's camera) faces +Z, the lowest point rests on y = 0 and the bounds are
    /// centred on the y axis; scaled so the height is `realHeight` when given.
    static func uprightFrame(mesh: TexturedMesh, up: SIMD3<Double>, front: SIMD3<Double>?, realHeight: Double?) -> SimilarityTransform {
        let y = up.normalized
        let centre = mesh.positions.reduce(SIMD3<Double>.zero) { $0 + SIMD3<Double>($1) } / Double(max(1, mesh.positions.count))
        var toward = (front ?? centre + SIMD3(0, 0, 1)) - centre
        toward -= y * y.dot(toward)
        if toward.length < 1e-9 { toward = abs(y.x) < 0.9 ? SIMD3(1, 0, 0) - y * y.x : SIMD3(0, 0, 1) - y * y.z }
        let z = toward.normalized
        let x = y.cross(z)
        let rotation = Matrix3(rows: x, y, z)
        var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
        for p in mesh.positions {
            let q = rotation * SIMD3<Double>(p)
            lo = pointwiseMin(lo, q)
            hi = pointwiseMax(hi, q)
        }
        let height = hi.y - lo.y
        let scale = realHeight.map { height > 0 ? $0 / height : 1 } ?? 1
        let translation = -scale * SIMD3((lo.x + hi.x) / 2, lo.y, (lo.z + hi.z) / 2)
        return SimilarityTransform(scale: scale, rotation: rotation, translation: translation)
    }

    /// `mesh` moved by `transform`: positions carried, normals turned.
    static func moved(_ mesh: TexturedMesh, by transform: SimilarityTransform) -> TexturedMesh {
        var mesh = mesh
        mesh.positions = mesh.positions.map { SIMD3<Float>(transform.apply(SIMD3<Double>($0))) }
        mesh.normals = mesh.normals.map { SIMD3<Float>((transform.rotation * SIMD3<Double>($0)).normalized) }
        return mesh
    }
}

/// Area-weighted vertex normals of a triangle mesh.
enum VertexNormals {
    static func compute(_ mesh: TexturedMesh) -> [SIMD3<Float>] {
        var normals = [SIMD3<Float>](repeating: .zero, count: mesh.positions.count)
        for t in mesh.triangles {
            let a = mesh.positions[Int(t.x)], b = mesh.positions[Int(t.y)], c = mesh.positions[Int(t.z)]
            let n = cross(b - a, c - a)
            normals[Int(t.x)] += n; normals[Int(t.y)] += n; normals[Int(t.z)] += n
        }
        return normals.map { n in
            let length = (n * n).sum().squareRoot()
            return length > 0 ? n / length : SIMD3(0, 1, 0)
        }
    }

    private static func cross(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
