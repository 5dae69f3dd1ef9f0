import AtelierFormats
import AtelierImaging
import AtelierRecords
import Foundation

/// A model's files in the lookbook, made from its mesh (`files.mesh` of the model record, as
/// `atl-reconstruct` wrote it): the GLB as a script that hands its base64 to the viewer
/// (`models/<id>.glb.js`), the USDZ for AR Quick Look and a still for while the page loads.
///
/// They are written to a work directory first and copied into the site like photos, so a
/// wardrobe of many models is held in memory one model at a time, and a model whose files come
/// out byte for byte the same (every writer here is deterministic) is not rewritten.
///
/// Making them takes a second or more per model, so each is made only when its mesh changed:
/// `madeFrom` holds a fingerprint of what the files were made from (the mesh folder's files with
/// their sizes and times, the colour, the tool's version), and a previous export's files whose
/// fingerprint matches are used again (`reuse`).
public struct ModelAssets: Sendable {
    /// Paths of the files: in the work directory, or in the previous export's site.
    public var script: String
    public var usdz: String
    public var poster: String
    public var madeFrom: String

    /// The site's names of the files of model `id`, by the path each is copied from.
    func siteFiles(id: String) -> [String: String] {
        let stem = "models/\(Lookbook.safe(id))"
        return [stem + ".glb.js": script, stem + ".usdz": usdz, stem + "-poster.png": poster, stem + ".made-from": madeFrom]
    }

    /// A fingerprint of what the files of `record` would be made from: the files of its mesh's
    /// folder (the PLY and its texture) with their sizes and modification times, the fallback
    /// colour and `version` (the tool's, since its writers may change); nil without a mesh.
    public static func source(of record: JSONObject, colour: String?, version: String) -> String? {
        guard let mesh = record["files"]?.object?["mesh"]?.string else { return nil }
        let folder = mesh.lastIndex(of: "/").map { String(mesh[..<$0]) } ?? "."
        var lines = ["atl-export \(version)", "mesh \(mesh)", "colour \(colour ?? "none")"]
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
            var info = stat()
            guard stat(folder + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            lines.append("\(name) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
        }
        // Hashed: the site may be published, and the paths are the owner's business. (FNV-1a,
        // to notice a change, not to resist anyone.)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in lines.joined(separator: "\n").utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return "fnv1a64 " + String(hash, radix: 16) + "\n"
    }

    /// The files a previous export at `site` made from the same `source`, or nil.
    public static func reuse(_ id: String, source: String, site: String) -> ModelAssets? {
        let stem = site + "/models/" + Lookbook.safe(id)
        let assets = ModelAssets(script: stem + ".glb.js", usdz: stem + ".usdz", poster: stem + "-poster.png", madeFrom: stem + ".made-from")
        guard (try? String(contentsOfFile: assets.madeFrom, encoding: .utf8)) == source,
              [assets.script, assets.usdz, assets.poster].allSatisfy(FileManager.default.isReadableFile(atPath:)) else { return nil }
        return assets
    }

    /// Why a model's files could not be made: its mesh is missing or unreadable.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes the files of the model `record` in `directory`; `source` is what they are made from.
    public static func make(_ record: JSONObject, colour: String? = nil, source: String, in directory: String) throws -> ModelAssets {
        let id = record["id"]?.string ?? "model"
        guard let meshPath = record["files"]?.object?["mesh"]?.string else {
            throw Failure(description: "\(id) has no mesh (made with atl-reconstruct --detail sparse?)")
        }
        let mesh: TexturedMesh
        do throws(MeshFile.Failure) {
            mesh = try MeshFile.read(meshPath)
        } catch {
            switch error {
            case .mesh(let why): throw Failure(description: "\(id): \(why)")  // names the path
            case .format(let why): throw Failure(description: "\(id): \(meshPath): \(why)")
            case .texture(_, let why): throw Failure(description: "\(id): the mesh's texture: \(why)")  // names the path
            }
        }
        do {
            return try write(mesh, id: id, colour: colour, source: source, in: directory)
        } catch let failure as Failure {
            throw failure
        } catch let error as ImagingError {
            throw Failure(description: "\(id): the texture of \(meshPath): \(error)")  // the poster decodes it
        } catch {
            throw Failure(description: "\(id): \(meshPath): \(error)")
        }
    }

    private static func write(_ mesh: TexturedMesh, id: String, colour: String?, source: String, in directory: String) throws -> ModelAssets {
        let glb = try GLBWriter.write(mesh)
        let stem = directory + "/" + Lookbook.safe(id)
        let assets = ModelAssets(script: stem + ".glb.js", usdz: stem + ".usdz", poster: stem + "-poster.png", madeFrom: stem + ".made-from")
        let script = "(window.atelierModels = window.atelierModels || {})[\"\(Lookbook.safe(id))\"] = \"\(Data(glb).base64EncodedString())\";\n"
        let grey: SIMD3<UInt8> = [176, 176, 176]
        let rgb = colour.flatMap { hex -> SIMD3<UInt8>? in
            guard hex.count == 7, hex.hasPrefix("#"), let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
            return [UInt8(value >> 16 & 255), UInt8(value >> 8 & 255), UInt8(value & 255)]
        } ?? grey
        for (path, bytes) in [(assets.script, Array(script.utf8)), (assets.usdz, try USDZWriter.usdz(for: mesh)), (assets.poster, try ModelView.poster(mesh, colour: rgb)), (assets.madeFrom, Array(source.utf8))] {
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw Failure(description: "\(id): cannot write \(path)")
            }
        }
        return assets
    }
}
