import AtelierCLI
import AtelierReconstruction
import AtelierRecords
import Foundation

/// The `model` record `atl-reconstruct` prints (atelier(7) documents its fields).
enum ModelRecord {
    static func sparse(_ result: SparseReconstruction, directory: String, inputCount: Int, garment: String?, batch: String?) -> JSONObject {
        var generator = RecordIDGenerator()
        let model = result.model
        var record: JSONObject = ["type": "model", "id": .string(generator.next("m"))]
        if let garment { record["garment"] = .string(garment) }
        if let batch, !batch.isEmpty { record["batch"] = .string(batch) }
        record["dir"] = .string(directory)
        record["detail"] = "sparse"
        record["files"] = .object(["cameras": .string(directory + "/sparse/cameras.txt"),
                                   "images": .string(directory + "/sparse/images.txt"),
                                   "points3D": .string(directory + "/sparse/points3D.txt"),
                                   "pointCloud": .string(directory + "/sparse/points3D.ply")])
        record["images"] = .int(Int64(inputCount))
        record["registered"] = .int(Int64(result.registeredCount))
        record["points"] = .int(Int64(model.pointCount))
        let observations = model.points.reduce(0) { $0 + ($1?.observations.count ?? 0) }
        var seconds = JSONObject()
        for stage in ReconstructionStage.allCases { if let s = result.stageSeconds[stage] { seconds[stage.rawValue] = .double(round3(s)) } }
        record["metrics"] = .object(["meanTrackLength": .double(round3(result.mapping.meanTrackLength)),
                                     "meanReprojectionErrorPixels": .double(round3(result.mapping.meanReprojectionErrorPixels)),
                                     "observations": .int(Int64(observations)),
                                     "verifiedPairs": .int(Int64(result.verifiedPairs)),
                                     "automaticallyMasked": .int(Int64(result.automaticallyMasked)),
                                     "seconds": .object(seconds)])
        record["cameras"] = .array(model.cameras.map { c in
            .object(["model": "RADIAL", "width": .int(Int64(c.width)), "height": .int(Int64(c.height)),
                     "focalLengthPixels": .double(round3(c.focalLengthPixels)), "focalLength35mm": .double(round3(c.focalLength35mm)),
                     "principalPoint": .array([.double(round3(c.principalPoint.x)), .double(round3(c.principalPoint.y))]),
                     "k1": .double((c.k1 * 1e6).rounded() / 1e6), "k2": .double((c.k2 * 1e6).rounded() / 1e6)])
        })
        let pathOf = Dictionary(result.used.map { ($0.name, $0.path) }, uniquingKeysWith: { a, _ in a })
        record["skipped"] = .array(result.skipped.map { s in
            var entry: JSONObject = ["name": .string(s.name)]
            if let path = pathOf[s.name] { entry["path"] = .string(path) }
            entry["reason"] = .string(s.reason)
            return .object(entry)
        })
        return record
    }

    /// Adds what the mesh stages made: the detail (a level, or `custom`), files, counts, seconds and frame.
    static func addMesh(_ mesh: MeshReconstruction, detail: String, directory: String, to record: inout JSONObject) {
        record["detail"] = .string(detail)
        if case .object(var files)? = record["files"] {
            files["densePointCloud"] = .string(directory + "/dense/points.ply")
            files["mesh"] = .string(directory + "/mesh/" + MeshFiles.meshName)
            if mesh.mesh.texturePNG != nil { files["texture"] = .string(directory + "/mesh/" + MeshFiles.textureName) }
            record["files"] = .object(files)
        }
        record["vertices"] = .int(Int64(mesh.mesh.positions.count))
        record["faces"] = .int(Int64(mesh.mesh.triangles.count))
        if case .object(var metrics)? = record["metrics"] {
            metrics["densePoints"] = .int(Int64(mesh.densePoints.count))
            metrics["rawTriangles"] = .int(Int64(mesh.rawTriangles))
            metrics["groundRemoved"] = .bool(mesh.groundRemoved)
            let (lo, hi) = mesh.mesh.bounds
            metrics["size"] = .array([Double(hi.x - lo.x), Double(hi.y - lo.y), Double(hi.z - lo.z)].map { .double(round3($0 * 1000) / 1000) })
            var memory: JSONObject = ["texturePhotoSide": .int(Int64(mesh.memory.texturePhotoSide)), "textureSize": .int(Int64(mesh.memory.textureSize)),
                                      "estimatedPeakBytes": .int(Int64(mesh.memory.estimatedPeakBytes)), "downscaled": .bool(!mesh.memory.notices.isEmpty)]
            if let budget = mesh.memory.budgetBytes { memory["budgetBytes"] = .int(Int64(budget)) }
            if let side = mesh.memory.stereoSide { memory["stereoSide"] = .int(Int64(side)) }
            metrics["memory"] = .object(memory)
            if case .object(var seconds)? = metrics["seconds"] {
                for stage in ReconstructionStage.allCases { if let s = mesh.stageSeconds[stage] { seconds[stage.rawValue] = .double(round3(s)) } }
                metrics["seconds"] = .object(seconds)
            }
            record["metrics"] = .object(metrics)
        }
        let t = mesh.meshFromSparse
        record["meshFromSparse"] = .object(["scale": .double(t.scale),
                                            "rotation": .array([t.rotation.row0, t.rotation.row1, t.rotation.row2].map { row in .array([row.x, row.y, row.z].map { .double($0) }) }),
                                            "translation": .array([t.translation.x, t.translation.y, t.translation.z].map { .double($0) })])
    }

    private static func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
