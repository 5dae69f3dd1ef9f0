import AtelierCLI
import ArgumentParser
import AtelierFormats
import AtelierReconstruction
import AtelierRecords
import Foundation

/// `atl-reconstruct`: photos of a garment in, calibrated cameras and a sparse point cloud out.
public struct ReconstructCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-reconstruct",
        abstract: "Turn 10–40+ photos taken around a garment into a textured 3D model (and its cameras and point clouds).",
        discussion: """
            Reads photos named as arguments (files, or directories searched for JPEG and PNG), or \
            capture and image records on standard input, as atl-recv and atl-import print them, to \
            the end of the input: atl-recv ends with its batch record (status "complete"), so \
            'atl-recv | atl-reconstruct' starts as soon as the batch is in (capture records without \
            that record are warned about). Other records pass through to standard output, before \
            the model record.

            Cameras, as COLMAP finds them: SIFT features (RootSIFT descriptors), matching by mutual \
            nearest neighbours with a ratio test (every pair up to 60 photos; neighbours in capture \
            order beyond, or with --sample-ordering sequential), geometric verification (five-point \
            essential matrix in LO-RANSAC), then incremental mapping with bundle adjustment, which \
            also refines the focal length and radial distortion (--refine-intrinsics). The focal \
            length starts from the EXIF 35 mm equivalent (30 mm when absent).

            Then the model, in Object Capture's stages: point cloud generation (PatchMatch \
            multi-view stereo depth maps, kept to the garment's silhouette on a plain backdrop, \
            fused where several views agree), mesh generation (signed-distance fusion and marching \
            tetrahedra: a closed surface, the outer one only, with no cavity or wall inside the \
            solid, the floor or turntable cut away, floating fragments dropped), optimisation (quadric edge collapse to the detail level's triangle budget) and \
            texture mapping (a photo per face, charts packed into one atlas, exposure and seams \
            levelled). --detail sets the budget, the texture's side and how finely photos are \
            matched (the default is medium); --detail sparse stops after the cameras. The model stands upright (+Y up, from the cameras' up direction and the \
            floor), on y = 0, facing the first photo; photos alone do not give its size, so it is \
            in the cameras' units unless --height gives the garment's real height in metres.

            Writes to DIR (--out; default Models/<yyyyMMdd-HHmmss>): sparse/ (COLMAP text: \
            cameras.txt, images.txt, points3D.txt, and points3D.ply), dense/points.ply (the fused \
            cloud with normals and colours, in the cameras' frame) and mesh/ (model.ply with \
            texture coordinates, texture.png), all or nothing, and prints one model record: the \
            files, photos used and registered, points, vertices and faces, seconds per stage, \
            meshFromSparse (the similarity from the cameras' frame to the mesh's) and every photo \
            left out with the reason. 'atl-export --format usdz' (or glb, obj, ply) turns the record \
            into the file viewers and AR Quick Look open. Progress goes to stderr by stage. With \
            --checkpoint DIR each finished stage is saved there (cameras, depth maps and dense \
            points, the surface), and the same command run again after an interruption resumes \
            after the last one; a checkpoint of other photos or options is not used. A run that \
            changes only --max-triangles, --texture-size or --height reuses the checkpoint's \
            surface, so trying sizes costs seconds, not a new reconstruction.

            Exit status: 0 when a model was written (photos left out are warned about on stderr), \
            65 when fewer than three photos are usable, no two can be aligned or no surface can be \
            built, 66 when a named photo does not exist, 73 when the output exists (without \
            --overwrite) or cannot be written.

            EXAMPLES
              atl-reconstruct capture --detail preview --checkpoint capture.ckpt --out model | atl-export --format usdz -o Models/
              atl-reconstruct --detail sparse --sample-ordering sequential --feature-sensitivity high capture/*.jpg -o model-high | jq -c '{registered, points}'
              atl-recv --code 7-crane-orbit --into received | atl-reconstruct --detail sparse --out model-received & atl-send --code 7-crane-orbit capture/*.jpg > /dev/null; wait
              atl-reconstruct capture --detail sparse --auto-mask -o model-masked | jq '.metrics.automaticallyMasked'
              atl-reconstruct capture --detail sparse -o model-json --progress json 2> progress.ndjson | jq '.skipped[] | "\\(.name): \\(.reason)"'
              atl-reconstruct capture --detail preview --checkpoint capture.ckpt --max-triangles 5000 --texture-size 512 --height 0.66 -o model-small | jq -c '{faces, size: .metrics.size}'
              python3 -c 'import pycolmap; print(pycolmap.Reconstruction("model/sparse").summary())'
            """,
        version: AtelierVersion.string)

    /// What --sample-ordering takes: photos in any order, or taken in sequence around the garment.
    public enum SampleOrdering: String, ExpressibleByArgument, CaseIterable, Sendable { case unordered, sequential }

    @Argument(help: ArgumentHelp("Photos or directories of them (default: records on standard input).", valueName: "photo"),
              completion: .file(extensions: ["jpg", "jpeg", "png"]))
    var photos: [String] = []

    @Option(name: [.short, .long], help: ArgumentHelp("Write the model to this directory's sparse/ (created).", valueName: "dir"),
            completion: .directory)
    var out: String?

    @Flag(name: .long, help: "Replace an existing DIR/sparse.")
    var overwrite = false

    @Option(name: .long, help: ArgumentHelp("normal, or high to find more features on plain, low-texture fabric (slower).", valueName: "level"))
    var featureSensitivity: FeatureSensitivity = .normal

    @Option(name: .long, help: ArgumentHelp("unordered (match every pair up to 60 photos), or sequential (photos taken in order round the garment).", valueName: "order"))
    var sampleOrdering: SampleOrdering = .unordered

    @Option(name: .long, help: ArgumentHelp("Directory of masks, white where the garment is: photo.jpg.png, photo.png or photo.jpg.", valueName: "dir"),
            completion: .directory)
    var masks: String?

    @Option(name: .long, help: ArgumentHelp("Intrinsics that bundle adjustment refines, comma-separated: focal, principal-point, k1, k2, or none.", valueName: "list"))
    var refineIntrinsics: String = "focal,k1"

    @Flag(name: .long, help: "Keep features off a plain backdrop: find the garment's silhouette in each photo that has no --masks mask (a photo without a plain backdrop is used whole).")
    var autoMask = false

    @Option(name: .long, help: ArgumentHelp("Name this garment in the model record, so that 'atl-import' attaches the model to it.", valueName: "id"))
    var garment: String?

    @Option(name: .long, help: ArgumentHelp("Work on photos reduced to at most this many pixels on the longer side.", valueName: "pixels"))
    var maxImageSide: Int = 1600

    @Option(name: .long, help: ArgumentHelp("\(DetailLevel.helpList).", valueName: "level"))
    var detail: DetailLevel = .medium

    @Option(name: .long, help: ArgumentHelp("A custom triangle budget instead of the detail level's.", valueName: "count"))
    var maxTriangles: Int?

    @Option(name: .long, help: ArgumentHelp("A custom texture side in pixels instead of the detail level's (256–8192).", valueName: "pixels"))
    var textureSize: Int?

    @Option(name: .long, help: ArgumentHelp("The garment's real height in metres, to give the model its real size (photos alone cannot).", valueName: "metres"))
    var height: Double?

    @Flag(name: .long, help: "Reconstruct the whole scene: do not keep depth to the garment's silhouette in photos with a plain backdrop.")
    var noObjectMasking = false

    @Option(name: .long, help: ArgumentHelp("The most memory to plan for, such as 3G or 800M (default: what the machine has available); photos are worked on smaller, and the texture made smaller, when the detail level would need more.", valueName: "size"))
    var memoryLimit: String?

    @Option(name: .long, help: ArgumentHelp("Save each finished stage here; the same command run again after an interruption resumes after the last one.", valueName: "dir"),
            completion: .directory)
    var checkpoint: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var progress: ProgressOptions

    public init() {}

    public func validate() throws {
        if let garment, !(garment.hasPrefix("g_") && garment.count > 2) { throw ValidationError("--garment takes a garment id (g_…)") }
        if !(64 ... 16384).contains(maxImageSide) { throw ValidationError("--max-image-side takes 64 to 16384") }
        if let maxTriangles, maxTriangles < 100 { throw ValidationError("--max-triangles takes at least 100") }
        if let textureSize, !(256 ... 8192).contains(textureSize) { throw ValidationError("--texture-size takes 256 to 8192") }
        if let height, !(height > 0 && height < 100) { throw ValidationError("--height takes a height in metres, above 0 and under 100") }
        if let memoryLimit, MemoryBudget.parse(memoryLimit) == nil {
            throw ValidationError("--memory-limit takes a size such as 3G, 800M or 1.5GB; got \"\(memoryLimit)\"")
        }
        if detail == .sparse && (maxTriangles != nil || textureSize != nil || height != nil || memoryLimit != nil) {
            throw ValidationError("--max-triangles, --texture-size, --height and --memory-limit make a mesh; --detail sparse makes none")
        }
        _ = try intrinsicsRefinement()
    }

    public func run() throws {
        let out = RecordOutput(lineBuffered: output.lineBuffered)
        do {
            let input: ReconstructInput
            if photos.isEmpty {
                if isatty(0) == 1 {
                    throw ToolFailure("atl-reconstruct reads photos named as arguments, or capture records on standard input; try: atl-reconstruct photos/ --out Models/shirt", .usage)
                }
                input = try ReconstructInput.fromRecords(LineReader(path: "-"), masks: masks, out: out)
            } else {
                input = try ReconstructInput.fromArguments(photos, masks: masks)
            }
            input.notes.forEach { Diagnostics.warn($0) }
            try out.write(try reconstruct(input))
            try out.flush()
        } catch {
            throw Diagnostics.exitCode(for: error)
        }
    }

    func reconstruct(_ input: ReconstructInput) throws -> JSONObject {
        var options = ReconstructionOptions()
        options.features.sensitivity = featureSensitivity
        options.features.maxImageSide = maxImageSide
        options.automaticMasks = autoMask
        options.mapper.refineIntrinsics = try intrinsicsRefinement()
        if sampleOrdering == .sequential { options.pairs = .sequential(overlap: 10) }
        let directory = Paths.absolute(out ?? "Models/" + Self.timestamp())
        let folders = detail == .sparse ? ["sparse"] : ["sparse", "dense", "mesh"]
        ModelFiles.recoverAbandoned(folders, in: directory)
        if !overwrite, let clash = ModelFiles.existing(folders, in: directory) {
            throw ToolFailure("\(clash) already exists; choose another --out or pass --overwrite", .cannotCreate)
        }
        let bar = StageProgress(mode: progress.progress)
        let report: @Sendable (ReconstructionProgress) -> Void = { event in
            bar.update(stage: event.stage.rawValue, fraction: event.fraction, detail: event.detail)
        }
        let saved = checkpoint.map {
            ReconstructionCheckpoint(directory: Paths.absolute($0), sources: input.sources,
                                     options: "\(featureSensitivity) \(sampleOrdering) \(refineIntrinsics) \(autoMask) \(maxImageSide)",
                                     meshOptions: "\(detail.stereoSide) \(detail.volumeResolution) \(noObjectMasking)",
                                     notice: Diagnostics.warn)
        }
        let result: SparseReconstruction
        var mesh: MeshReconstruction?
        do {
            let cameras = { try SparseReconstructor(options: options).reconstruct(input.sources, progress: report) }
            result = try saved?.sparse(compute: cameras) ?? cameras()
            if detail != .sparse {
                var meshOptions = MeshOptions(detail: detail)
                meshOptions.maxTriangles = maxTriangles
                meshOptions.textureSize = textureSize
                meshOptions.realHeight = height
                meshOptions.objectMasking = !noObjectMasking
                meshOptions.memory = memoryLimit.flatMap(MemoryBudget.parse)
                mesh = try MeshReconstructor(options: meshOptions).reconstruct(result, resume: try saved?.meshResume(),
                                                                               save: { try saved?.save($0) }, progress: report)
            }
        } catch {
            bar.finish()
            throw error
        }
        bar.finish()
        for cause in SkippedCause.grouping(result.skipped) { Diagnostics.warn("\(cause.photos): left out: \(cause.reason)") }
        for cause in SkippedCause.grouping(mesh?.skipped ?? []) { Diagnostics.warn("\(cause.photos): left out of the mesh: \(cause.reason)") }
        for notice in mesh?.memory.notices ?? [] { Diagnostics.warn(notice) }
        var written: [ModelFiles.Folder] = []
        do {
            let points = result.model.points.compactMap { $0 }
            let cloud = try PLYPointCloudWriter.write(points: points.map { SIMD3<Float>($0.position) }, colours: points.map(\.colour),
                                                      comments: ["Atelier atl-reconstruct: sparse points, the same as points3D.txt"])
            let text = result.colmapText
            written.append(ModelFiles.Folder(name: "sparse", files: [("cameras.txt", Array(text.cameras.utf8)), ("images.txt", Array(text.images.utf8)),
                                                                     ("points3D.txt", Array(text.points3D.utf8)), ("points3D.ply", cloud)]))
            if let mesh {
                let dense = try PLYPointCloudWriter.write(points: mesh.densePoints.map(\.position), normals: mesh.densePoints.map(\.normal),
                                                          colours: mesh.densePoints.map(\.colour),
                                                          comments: ["Atelier atl-reconstruct: fused multi-view stereo points, in the frame of ../sparse"])
                written.append(ModelFiles.Folder(name: "dense", files: [("points.ply", dense)]))
                written.append(ModelFiles.Folder(name: "mesh", files: try MeshFiles.files(mesh.mesh)))
            }
        } catch {
            throw ToolFailure("cannot write the model: ", wrapping: error)
        }
        try ModelFiles.write(written, into: directory, overwrite: overwrite)
        var record = ModelRecord.sparse(result, directory: directory, inputCount: input.sources.count, garment: garment, batch: input.batch)
        if let mesh { ModelRecord.addMesh(mesh, detail: maxTriangles == nil && textureSize == nil ? detail.rawValue : "custom", directory: directory, to: &record) }
        return record
    }

    func intrinsicsRefinement() throws -> IntrinsicsRefinement {
        var refinement: IntrinsicsRefinement = []
        for word in refineIntrinsics.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            switch word {
            case "focal": refinement.insert(.focalLength)
            case "principal-point": refinement.insert(.principalPoint)
            case "k1": refinement.insert(.k1)
            case "k2": refinement.formUnion([.k1, .k2])
            case "none": break
            default: throw ValidationError("--refine-intrinsics takes focal, principal-point, k1, k2 or none, comma-separated; got \"\(word)\"")
            }
        }
        return refinement
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }
}

extension FeatureSensitivity: ExpressibleByArgument {}
extension DetailLevel: ExpressibleByArgument {}
