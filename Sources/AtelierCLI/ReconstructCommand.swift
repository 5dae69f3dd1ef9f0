import ArgumentParser
import AtelierFormats
import AtelierReconstruction
import AtelierRecords
import Foundation

/// `atl-reconstruct`: photos of a garment in, calibrated cameras and a sparse point cloud out.
public struct ReconstructCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-reconstruct",
        abstract: "Turn 10–40+ photos taken around a garment into calibrated cameras and a sparse 3D point cloud.",
        discussion: """
            Reads photos named as arguments (files, or directories searched for JPEG and PNG), or \
            capture and image records on standard input, as atl-recv and atl-import print them, to \
            the end of the input: atl-recv ends with its batch record (status "complete"), so \
            'atl-recv | atl-reconstruct' starts as soon as the batch is in (capture records without \
            that record are warned about). Other records pass through to standard output, before \
            the model record.

            Structure from motion, as COLMAP does it: SIFT features (RootSIFT descriptors), \
            matching by mutual nearest neighbours with a ratio test (every pair up to 60 photos; \
            neighbours in capture order beyond, or with --sample-ordering sequential), geometric \
            verification (five-point essential matrix in LO-RANSAC), then incremental mapping: the \
            best-conditioned pair first, each next photo by P3P, triangulation, and bundle \
            adjustment with a robust loss, which also refines the focal length and radial \
            distortion (--refine-intrinsics; k2 and the principal point on request). The focal length \
            starts from the EXIF 35 mm equivalent (30 mm when absent). Photos of different sizes or \
            focal lengths get a camera each.

            Writes a COLMAP text model (cameras.txt, images.txt, points3D.txt) and the points as a \
            coloured PLY (points3D.ply) to DIR/sparse/ \
            (--out; default Models/<yyyyMMdd-HHmmss>), which COLMAP, pycolmap, OpenMVS and \
            nerfstudio read, and prints one model record: the files, photos used and registered, \
            points, mean track length, mean reprojection error, seconds per stage, and every photo \
            left out with the reason (unreadable, duplicate, too few features, not registered). \
            Progress goes to stderr by stage (pre-processing, feature matching, image alignment).

            Exit status: 0 when a model was written (photos left out are warned about on stderr), \
            65 when fewer than three photos are usable or no two can be aligned, 66 when a named \
            photo does not exist, 73 when the output exists (without --overwrite) or cannot be written.

            EXAMPLES
              atl-reconstruct capture --out model
              atl-reconstruct --sample-ordering sequential --feature-sensitivity high capture/*.jpg -o model-high | jq -c '{registered, points}'
              atl-recv --code 7-crane-orbit --into received | atl-reconstruct --out model-received & atl-send --code 7-crane-orbit capture/*.jpg > /dev/null; wait
              atl-reconstruct capture --auto-mask -o model-masked | jq '.metrics.automaticallyMasked'
              atl-reconstruct capture -o model-json --progress json 2> progress.ndjson | jq '.skipped[] | "\\(.name): \\(.reason)"'
              python3 -c 'import pycolmap; print(pycolmap.Reconstruction("model/sparse").summary())'
            """,
        version: AtelierVersion.string)

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

    @OptionGroup var output: OutputOptions
    @OptionGroup var progress: ProgressOptions

    public init() {}

    public func validate() throws {
        if let garment, !(garment.hasPrefix("g_") && garment.count > 2) { throw ValidationError("--garment takes a garment id (g_…)") }
        if !(64 ... 16384).contains(maxImageSide) { throw ValidationError("--max-image-side takes 64 to 16384") }
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
        let directory = Self.absolute(out ?? "Models/" + Self.timestamp())
        if FileManager.default.fileExists(atPath: directory + "/sparse") && !overwrite {
            throw ToolFailure("\(directory)/sparse already exists; choose another --out or pass --overwrite", .cannotCreate)
        }
        let bar = StageProgress(mode: progress.progress)
        let result: SparseReconstruction
        do {
            result = try SparseReconstructor(options: options).reconstruct(input.sources) { event in
                bar.update(stage: event.stage.rawValue, fraction: event.fraction, detail: event.detail)
            }
        } catch {
            bar.finish()
            throw ToolFailure(error.description, .dataError)
        }
        bar.finish()
        for skipped in result.skipped { Diagnostics.warn("\(skipped.name): left out: \(skipped.reason)") }
        let points = result.model.points.compactMap { $0 }
        let cloud: [UInt8]
        do {
            cloud = try PLYPointCloudWriter.write(points: points.map { SIMD3<Float>($0.position) }, colours: points.map(\.colour),
                                                  comments: ["Atelier atl-reconstruct: sparse points, the same as points3D.txt"])
        } catch {
            throw ToolFailure("cannot write the point cloud: \(error)", .software)
        }
        try SparseModelFiles.write(result.colmapText, pointCloud: cloud, into: directory, overwrite: overwrite)
        return ModelRecord.sparse(result, directory: directory, inputCount: input.sources.count, garment: garment, batch: input.batch)
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

    static func absolute(_ path: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }

    static func timestamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: Date())
    }
}

extension FeatureSensitivity: ExpressibleByArgument {}
