import AtelierFormats
import AtelierGeometry
import AtelierRecords
import Foundation

/// `atl-reconstruct --checkpoint DIR`: each finished stage is saved in DIR, so that running the same
/// command again after an interruption starts after the last finished one, as Object Capture's
/// checkpoint directory does. Saved: after image alignment, the sparse model (COLMAP text) and
/// what the model record needs; after point cloud generation, the fused depth maps and points;
/// after mesh generation, the closed surface. `state.json` names the stages done and a fingerprint
/// of the photos (paths, sizes, modification times) and of the options that shape each stage;
/// a checkpoint whose fingerprint differs is not used, but started afresh. Every file is written
/// beside its name and renamed, and `state.json` last, so a kill leaves the last complete stage.
public struct ReconstructionCheckpoint {
    public let directory: String
    /// The photos and the options of the camera stages.
    let fingerprint: String
    /// The options of the point cloud and mesh stages: a later run at another detail level
    /// reuses the cameras but not the depth maps.
    let meshFingerprint: String

    /// What it tells the user (resuming, starting again); the tool prints it on stderr.
    let notice: (String) -> Void

    static let sparseStage = ReconstructionStage.imageAlignment.rawValue, denseStage = ReconstructionStage.pointCloudGeneration.rawValue,
               surfaceStage = ReconstructionStage.meshGeneration.rawValue

    /// `options` and `meshOptions` describe the settings that shape the camera stages and the
    /// mesh stages: a checkpoint saved with others is not used.
    public init(directory: String, sources: [CaptureSource], options: String, meshOptions: String, notice: @escaping (String) -> Void) {
        self.directory = directory
        self.notice = notice
        meshFingerprint = meshOptions
        var parts = [options]
        for source in sources {
            var info = stat()
            let described = stat(source.path, &info) == 0 ? "\(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)" : "missing"
            parts.append("\(source.name)\t\(source.path)\t\(source.maskPath ?? "")\t\(described)")
        }
        fingerprint = parts.joined(separator: "\n")
    }

    // MARK: running

    /// The cameras: read back when the checkpoint holds them (saying so), otherwise made by
    /// `compute` and saved. A checkpoint of other photos or options is said to be started again.
    public func sparse(compute: () throws -> SparseReconstruction) throws -> SparseReconstruction {
        let state = state()
        if state == nil, FileManager.default.fileExists(atPath: directory + "/state.json") {
            notice("\(directory): the checkpoint is of other photos or options; starting again")
        }
        if let state, stages(state).contains(Self.sparseStage) {
            let result = try loadSparse(state)
            notice("resuming from \(directory): \(stages(state).joined(separator: ", ")) done")
            return result
        }
        let result = try compute()
        try saveSparse(result)
        return result
    }

    /// The finished mesh stages to start from, if the checkpoint holds any for these options.
    public func meshResume() throws -> MeshCheckpoint? { try state().flatMap { try loadMesh($0) } }

    /// Saves a finished mesh stage after the ones saved before.
    public func save(_ stage: MeshCheckpoint) throws { try saveMesh(stage, state: state() ?? [:]) }

    // MARK: state

    /// The stages done and the sparse record's facts, when the checkpoint matches this run.
    func state() -> JSONObject? {
        guard let data = FileManager.default.contents(atPath: directory + "/state.json"),
              let state = try? Array(data).withUnsafeBytes({ try JSONParser.parseObject($0) }),
              case .string(fingerprint)? = state["fingerprint"] else { return nil }
        return state
    }

    func stages(_ state: JSONObject?) -> [String] {
        guard case .array(let values)? = state?["stages"] else { return [] }
        return values.compactMap { if case .string(let s) = $0 { return s } else { return nil } }
    }

    private func writeState(stages: [String], sparse: JSONObject) throws {
        var state = sparse
        state["fingerprint"] = .string(fingerprint)
        state["stages"] = .array(stages.map { .string($0) })
        var bytes: [UInt8] = []
        JSONWriter.appendPretty(.object(state), indent: 0, to: &bytes)
        try write(bytes, to: "state.json")
    }

    // MARK: sparse

    func saveSparse(_ result: SparseReconstruction) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = result.colmapText
        try write(Array(text.cameras.utf8), to: "cameras.txt")
        try write(Array(text.images.utf8), to: "images.txt")
        try write(Array(text.points3D.utf8), to: "points3D.txt")
        var seconds = JSONObject()
        for (stage, s) in result.stageSeconds { seconds[stage.rawValue] = .double(s) }
        let sparse: JSONObject = [
            "used": .array(result.used.map { .object(["name": .string($0.name), "path": .string(Paths.absolute($0.path)),
                                                      "mask": $0.maskPath.map { .string(Paths.absolute($0)) } ?? .null]) }),
            "skipped": .array(result.skipped.map { .object(["name": .string($0.name), "reason": .string($0.reason)]) }),
            "verifiedPairs": .int(Int64(result.verifiedPairs)), "automaticallyMasked": .int(Int64(result.automaticallyMasked)),
            "meanReprojectionErrorPixels": .double(result.mapping.meanReprojectionErrorPixels), "meanTrackLength": .double(result.mapping.meanTrackLength),
            "seconds": .object(seconds),
        ]
        try writeState(stages: [Self.sparseStage], sparse: sparse)
    }

    func loadSparse(_ state: JSONObject) throws -> SparseReconstruction {
        guard case .array(let usedValues)? = state["used"] else { throw ReconstructionError.invalidModel("state.json has no photos") }
        let used: [CaptureSource] = usedValues.compactMap {
            guard case .object(let o) = $0, case .string(let name)? = o["name"], case .string(let path)? = o["path"] else { return nil }
            if case .string(let mask)? = o["mask"] { return CaptureSource(name: name, path: path, maskPath: mask) }
            return CaptureSource(name: name, path: path)
        }
        func text(_ name: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { throw ReconstructionError.invalidModel("\(name) is missing") }
            return String(decoding: data, as: UTF8.self)
        }
        let read = try COLMAPTextReader.read(cameras: try text("cameras.txt"), images: try text("images.txt"), points3D: try text("points3D.txt"),
                                             names: used.map { COLMAPTextModel.safeName($0.name) })
        var model = read.model
        for i in model.images.indices { model.images[i].name = used[i].name }
        func number(_ key: String) -> Double { if case .double(let d)? = state[key] { return d }; if case .int(let i)? = state[key] { return Double(i) }; return 0 }
        var skipped: [SkippedImage] = []
        if case .array(let values)? = state["skipped"] {
            for case .object(let o) in values { if case .string(let n)? = o["name"], case .string(let r)? = o["reason"] { skipped.append(SkippedImage(name: n, reason: r)) } }
        }
        var seconds: [ReconstructionStage: Double] = [:]
        if case .object(let o)? = state["seconds"] {
            for (key, value) in o { if let stage = ReconstructionStage(rawValue: key), case .double(let s) = value { seconds[stage] = s } }
        }
        let mapping = MappingResult(model: model, unregistered: [], meanErrors: read.meanErrors,
                                    meanReprojectionErrorPixels: number("meanReprojectionErrorPixels"), meanTrackLength: number("meanTrackLength"))
        return SparseReconstruction(used: used, keypoints: read.keypoints, mapping: mapping, skipped: skipped,
                                    verifiedPairs: Int(number("verifiedPairs")), automaticallyMasked: Int(number("automaticallyMasked")), stageSeconds: seconds)
    }

    // MARK: dense and surface

    func saveMesh(_ checkpoint: MeshCheckpoint, state: JSONObject) throws {
        var stages = self.stages(state)
        if case .string(let saved)? = state["meshFingerprint"], saved != meshFingerprint { stages = [Self.sparseStage] }
        if !stages.contains(Self.denseStage) {
            var depth: [UInt8] = []
            append(&depth, UInt32(checkpoint.images.count))
            for (image, map) in zip(checkpoint.images, checkpoint.depthMaps) {
                append(&depth, UInt32(image)); append(&depth, UInt32(map.width)); append(&depth, UInt32(map.height))
                for d in map.depth { append(&depth, d.bitPattern) }
            }
            try write(depth, to: "depth.bin")
            try write(try PLYPointCloudWriter.write(points: checkpoint.densePoints.map(\.position), normals: checkpoint.densePoints.map(\.normal),
                                                    colours: checkpoint.densePoints.map(\.colour)), to: "dense.ply")
            stages.append(Self.denseStage)
        }
        if let surface = checkpoint.surface, !stages.contains(Self.surfaceStage) {
            try write(try PLYMeshWriter.write(surface.mesh), to: "surface.ply")
            var facts: JSONObject = ["cameraUp": vector(surface.cameraUp), "trianglesBeforeCleaning": .int(Int64(surface.trianglesBeforeCleaning))]
            if let up = surface.groundUp, let height = surface.groundHeight { facts["groundUp"] = vector(up); facts["groundHeight"] = .double(height) }
            var bytes: [UInt8] = []
            JSONWriter.appendPretty(.object(facts), indent: 0, to: &bytes)
            try write(bytes, to: "surface.json")
            stages.append(Self.surfaceStage)
        }
        var sparse = state
        sparse["stages"] = nil
        sparse["fingerprint"] = nil
        sparse["meshFingerprint"] = .string(meshFingerprint)
        try writeState(stages: stages, sparse: sparse)
    }

    func loadMesh(_ state: JSONObject) throws -> MeshCheckpoint? {
        let stages = self.stages(state)
        guard case .string(meshFingerprint)? = state["meshFingerprint"] else { return nil }
        guard stages.contains(Self.denseStage), let depth = FileManager.default.contents(atPath: directory + "/depth.bin"),
              let dense = FileManager.default.contents(atPath: directory + "/dense.ply") else { return nil }
        var cursor = 0
        let bytes = [UInt8](depth)
        func next() throws -> UInt32 {
            guard cursor + 4 <= bytes.count else { throw ReconstructionError.invalidModel("depth.bin ends early") }
            defer { cursor += 4 }
            return UInt32(bytes[cursor]) | UInt32(bytes[cursor + 1]) << 8 | UInt32(bytes[cursor + 2]) << 16 | UInt32(bytes[cursor + 3]) << 24
        }
        let count = Int(try next())
        var images: [Int] = [], maps: [DepthMap] = []
        for _ in 0 ..< min(count, 10_000) {
            let image = Int(try next()), width = Int(try next()), height = Int(try next())
            guard width > 0, height > 0, width * height * 4 <= bytes.count - cursor else { throw ReconstructionError.invalidModel("depth.bin is damaged") }
            var map = DepthMap(width: width, height: height)
            for i in 0 ..< width * height { map.depth[i] = Float(bitPattern: try next()) }
            images.append(image)
            maps.append(map)
        }
        let cloud: TexturedMesh
        do { cloud = try PLYMeshReader.read(Array(dense)).mesh } catch { throw ReconstructionError.invalidModel("dense.ply: \(error)") }
        let colours = try PLYColours.read(Array(dense), count: cloud.positions.count)
        let points = cloud.positions.indices.map { DensePoint(position: cloud.positions[$0], normal: cloud.normals[$0], colour: colours[$0]) }
        var checkpoint = MeshCheckpoint(images: images, depthMaps: maps, densePoints: points)
        if stages.contains(Self.surfaceStage), let surfaceBytes = FileManager.default.contents(atPath: directory + "/surface.ply"),
           let factsBytes = FileManager.default.contents(atPath: directory + "/surface.json"),
           let facts = try? Array(factsBytes).withUnsafeBytes({ try JSONParser.parseObject($0) }) {
            let mesh: TexturedMesh
            do { mesh = try PLYMeshReader.read(Array(surfaceBytes)).mesh } catch { throw ReconstructionError.invalidModel("surface.ply: \(error)") }
            guard let cameraUp = vector(facts["cameraUp"]) else { throw ReconstructionError.invalidModel("surface.json is damaged") }
            var trianglesBefore = mesh.triangles.count
            if case .int(let n)? = facts["trianglesBeforeCleaning"] { trianglesBefore = Int(n) }
            var groundHeight: Double?
            if case .double(let h)? = facts["groundHeight"] { groundHeight = h } else if case .int(let h)? = facts["groundHeight"] { groundHeight = Double(h) }
            checkpoint.surface = Surface(mesh: mesh, points: points, groundUp: vector(facts["groundUp"]), groundHeight: groundHeight,
                                         cameraUp: cameraUp, trianglesBeforeCleaning: trianglesBefore)
        }
        return checkpoint
    }

    // MARK: files

    private func write(_ bytes: [UInt8], to name: String) throws {
        do {
            try AtomicFile.write([(directory + "/" + name, bytes)])
        } catch {
            if error.isOutOfSpace { throw error }
            throw ReconstructionError.unwritableCheckpoint(directory: directory, file: name, reason: error.reason, status: error.sysexit)
        }
    }

    private func append(_ out: inout [UInt8], _ value: UInt32) {
        out.append(UInt8(truncatingIfNeeded: value)); out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value >> 16)); out.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    private func vector(_ v: SIMD3<Double>) -> JSONValue { .array([.double(v.x), .double(v.y), .double(v.z)]) }

    private func vector(_ value: JSONValue?) -> SIMD3<Double>? {
        guard case .array(let a)? = value, a.count == 3 else { return nil }
        let d = a.compactMap { v -> Double? in if case .double(let x) = v { return x }; if case .int(let i) = v { return Double(i) }; return nil }
        return d.count == 3 ? SIMD3(d[0], d[1], d[2]) : nil
    }
}

/// The per-point colours of a PLY point cloud as `PLYPointCloudWriter` writes it (x y z nx ny nz
/// as floats, then red green blue as bytes), which `PLYMeshReader` skips.
enum PLYColours {
    static func read(_ bytes: [UInt8], count: Int) throws -> [SIMD3<UInt8>] {
        let marker = Array("end_header\n".utf8)
        guard let start = (0 ..< min(bytes.count, 65536)).first(where: { bytes.count >= $0 + marker.count && Array(bytes[$0 ..< $0 + marker.count]) == marker }) else {
            throw ReconstructionError.invalidModel("dense.ply has no header")
        }
        let body = start + marker.count, stride = 27
        guard bytes.count >= body + count * stride else { throw ReconstructionError.invalidModel("dense.ply ends early") }
        return (0 ..< count).map { i in
            let o = body + i * stride + 24
            return SIMD3(bytes[o], bytes[o + 1], bytes[o + 2])
        }
    }
}
