import AtelierFormats
import AtelierImaging
import Foundation

/// The stages of `MeshReconstructor.reconstruct`, one function each, in the order it runs them.
extension MeshReconstructor {
    /// What the stages' memory plans need to know about a run: the budget, the threads, and
    /// the registered photos with the largest camera among them.
    struct Sizing {
        let budget: MemoryBudget?
        let threads: Int
        let registered: [Int]
        let largest: CameraIntrinsics?

        init(_ sparse: SparseReconstruction, options: MeshOptions) {
            budget = options.memory ?? MemoryBudget.system()
            threads = WorkSplitter(threads: options.threads).threads
            registered = sparse.model.registeredImages
            largest = registered.map { sparse.model.intrinsics(of: $0) }.max { $0.width * $0.height < $1.width * $1.height }
        }
    }

    /// Point cloud generation: depth maps of the registered photos, fused into points, at a
    /// working size brought within the memory budget (noted in `memory`); from `resume`'s depth
    /// maps and points when it has them.
    func pointCloud(_ sparse: SparseReconstruction, resume: MeshCheckpoint?, sizing: Sizing, memory: inout MemoryReport,
                    progress: @escaping @Sendable (ReconstructionProgress) -> Void) -> DenseReconstruction {
        var denseOptions = DenseOptions()
        denseOptions.workingSide = options.detail.stereoSide
        if let budget = sizing.budget, let largest = sizing.largest {
            let plan = MemoryPlan.stereo(views: sizing.registered.count, width: largest.width, height: largest.height, side: options.detail.stereoSide,
                                         threads: sizing.threads, resident: MemoryBudget.residentBytes(), budget: budget)
            denseOptions.workingSide = plan.photoSide
            memory.estimatedPeakBytes = plan.estimatedBytes
            if let notice = plan.notice { memory.notices.append(notice) }
        }
        memory.stereoSide = denseOptions.workingSide
        denseOptions.automaticMasks = options.objectMasking
        denseOptions.threads = options.threads
        return DenseReconstructor(options: denseOptions).reconstruct(sparse.model, sources: sparse.used, resume: resume?.dense) { fraction, detail in
            progress(ReconstructionProgress(stage: .pointCloudGeneration, fraction: fraction, detail: detail))
        }
    }

    /// Mesh generation: the closed surface of the fused depth maps. Throws `noSurface` when the
    /// photos agreed too little to close one.
    func surface(from dense: DenseReconstruction,
                 progress: @escaping @Sendable (ReconstructionProgress) -> Void) throws(ReconstructionError) -> Surface {
        progress(ReconstructionProgress(stage: .meshGeneration, fraction: 0, detail: "fusing \(dense.points.count) points"))
        var surfaceOptions = SurfaceOptions()
        surfaceOptions.resolution = options.detail.volumeResolution
        surfaceOptions.threads = options.threads
        guard let found = SurfaceReconstructor.reconstruct(dense, options: surfaceOptions), !found.mesh.triangles.isEmpty else {
            throw ReconstructionError.noSurface(points: dense.points.count)
        }
        return found
    }

    /// Optimisation: the surface simplified to the triangle budget, with vertex normals.
    func optimised(_ surface: TexturedMesh, progress: @escaping @Sendable (ReconstructionProgress) -> Void) -> TexturedMesh {
        var mesh = surface
        if let budget = options.maxTriangles ?? options.detail.maxTriangles, mesh.triangles.count > budget {
            progress(ReconstructionProgress(stage: .optimisation, fraction: 0, detail: "simplifying to \(budget) triangles"))
            mesh = QuadricSimplifier.simplify(mesh, targetTriangles: budget)
        }
        mesh.normals = VertexNormals.compute(mesh)
        progress(ReconstructionProgress(stage: .optimisation, fraction: 1, detail: "\(mesh.triangles.count) triangles"))
        return mesh
    }

    /// Texture mapping: the photos read again at the size the atlas can use, photo and atlas
    /// sizes brought within the memory budget (noted in `memory`), and the atlas baked from them.
    func textured(_ mesh: TexturedMesh, sparse: SparseReconstruction, sizing: Sizing, memory: inout MemoryReport,
                  progress: @escaping @Sendable (ReconstructionProgress) -> Void) throws(ReconstructionError) -> (mesh: TexturedMesh, report: TexturingReport) {
        progress(ReconstructionProgress(stage: .textureMapping, fraction: 0, detail: "reading photos"))
        var textureSide = options.textureSize ?? options.detail.textureSize
        var photoSide = textureSide
        if let budget = sizing.budget, let largest = sizing.largest {
            let plan = MemoryPlan.texture(views: sizing.registered.count, width: largest.width, height: largest.height, side: textureSide, atlas: textureSide,
                                          threads: sizing.threads, resident: MemoryBudget.residentBytes(), budget: budget)
            (photoSide, textureSide) = (plan.photoSide, plan.atlasSide)
            memory.estimatedPeakBytes = max(memory.estimatedPeakBytes, plan.estimatedBytes)
            if let notice = plan.notice { memory.notices.append(notice) }
        }
        memory.texturePhotoSide = min(photoSide, sizing.largest.map { max($0.width, $0.height) } ?? photoSide)
        memory.textureSize = textureSide
        let sparseModel = sparse.model, registered = sizing.registered
        let photos: [TextureView?] = WorkSplitter(threads: options.threads).map(registered.count, balanced: true) { [photoSide] k in
            Self.textureView(registered[k], model: sparseModel, source: sparse.used[registered[k]], maxSide: photoSide)
        }
        var texturingOptions = TexturingOptions()
        texturingOptions.textureSize = textureSide
        do throws(ReconstructionError) {
            return try MeshTexturer.texture(mesh, views: photos.compactMap { $0 }, options: texturingOptions) { [textureSide] fraction in
                progress(ReconstructionProgress(stage: .textureMapping, fraction: fraction, detail: "\(textureSide)×\(textureSide) atlas"))
            }
        } catch {
            throw ReconstructionError.texturingFailed(error.description)
        }
    }

    /// A photo for texturing: undistorted to a pinhole camera at up to `maxSide` pixels on the
    /// longer side (an atlas cannot use more detail than its own side).
    static func textureView(_ image: Int, model: SparseModel, source: CaptureSource, maxSide: Int) -> TextureView? {
        let camera = model.intrinsics(of: image)
        guard let pose = model.images[image].camFromWorld else { return nil }
        let (width, height) = DenseReconstructor.workingSize(camera, side: maxSide)
        guard let bytes = try? Array(Data(contentsOf: URL(fileURLWithPath: source.path))),
              let decoded = try? bytes.withUnsafeBytes({ buffer throws(ImagingError) in
                  try ImageDecoder.decode(buffer, channels: 3, minimumSide: min(width, height))
              }) else { return nil }
        let undistorted = DenseView(image: image, name: source.name, camera: camera, pose: pose, photo: decoded.image,
                                    mask: nil, width: width, height: height, colourOnly: true)
        return TextureView(intrinsics: undistorted.intrinsics, pose: undistorted.pose, image: undistorted.colour)
    }
}
