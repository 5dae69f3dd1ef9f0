import AtelierCLI
import AtelierFormats
import AtelierRecords
import Foundation

/// `atl-export --format usdz|glb|obj|ply`: each `model` record's mesh (`files.mesh`, with its
/// texture) written in the chosen format. `-o` names the file, or a directory (an existing one, or
/// a path ending in `/`) that gets `Garment_<yyyyMMdd_HHmmss>.<ext>` as the original app named its
/// models; without `-o`, `Models/` is that directory. Files appear only complete (written beside
/// their final name, flushed, renamed; a texture before the file that names it) and an existing
/// one is replaced only with `--overwrite`. The model record is printed with the new file added
/// to `files`, so `| atl-import` records it; other records pass through untouched.
struct MeshExport {
    /// The mesh formats, in the order the help lists them.
    enum Format: String, CaseIterable, Hashable, Sendable { case usdz, glb, obj, ply }

    let format: Format
    let output: String?
    let overwrite: Bool
    /// Names handed out in this run, so two models exported in one second do not collide.
    private var taken = Set<String>()

    init(format: Format, output: String?, overwrite: Bool) {
        self.format = format
        self.output = output
        self.overwrite = overwrite
    }

    /// Writes the model's mesh and returns the record with `files.<format>` set.
    mutating func export(_ record: JSONObject, source: String, line: Int, index: Int) throws -> JSONObject {
        guard case .object(var files)? = record["files"], case .string(let meshPath)? = files["mesh"] else {
            let detail = { if case .string(let d)? = record["detail"] { return " (detail \(d))" } else { return "" } }()
            throw ToolFailure("\(source):\(line): model record has no mesh\(detail); make one with atl-reconstruct --detail preview or above", .dataError)
        }
        let mesh = try Self.readMesh(meshPath, source: source, line: line)
        let path = try destination(index: index)
        if FileManager.default.fileExists(atPath: path) && !overwrite {
            throw ToolFailure("\(path) already exists; choose another -o or pass --overwrite", .cannotCreate)
        }
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let directory = (path as NSString).deletingLastPathComponent
        var outputs: [(name: String, bytes: [UInt8])]
        do {
            switch format {
            case .usdz: outputs = [((path as NSString).lastPathComponent, try USDZWriter.usdz(for: mesh))]
            case .glb: outputs = [((path as NSString).lastPathComponent, try GLBWriter.write(mesh))]
            case .obj: outputs = try OBJMeshWriter.write(mesh, baseName: base)
            case .ply:
                let texture = mesh.texturePNG == nil ? nil : base + ".png"
                outputs = [((path as NSString).lastPathComponent, try PLYMeshWriter.write(mesh, textureFileName: texture))]
                if let png = mesh.texturePNG { outputs.insert((base + ".png", png), at: 0) }
            }
        } catch {
            throw ToolFailure("\(meshPath): ", wrapping: error)
        }
        // The file named by -o goes last, once everything it refers to is in place.
        outputs.sort { a, b in a.name != (path as NSString).lastPathComponent && b.name == (path as NSString).lastPathComponent }
        try Self.writeAll(outputs, in: directory.isEmpty ? "." : directory, overwrite: overwrite)
        files[format.rawValue] = .string(Paths.absolute(path))
        var updated = record
        updated["files"] = .object(files)
        return updated
    }

    /// The mesh and its texture, read back from a model's `mesh/` files (`MeshFile`).
    static func readMesh(_ path: String, source: String, line: Int) throws -> TexturedMesh {
        do throws(MeshFile.Failure) {
            return try MeshFile.read(path)
        } catch {
            switch error {
            case .mesh(let error):
                if case .notARegularFile = error { throw ToolFailure("\(source):\(line): \(error)", .dataError) }
                throw ToolFailure("\(source):\(line): \(path): cannot read the model's mesh", error.sysexit)
            case .format(let error):
                throw ToolFailure("\(path): ", wrapping: error)
            case .texture(let texturePath, let error):
                if case .notARegularFile = error { throw ToolFailure("\(path): its texture \(error)", .dataError) }
                throw ToolFailure("\(path): its texture \(texturePath) cannot be read", error.sysexit)
            }
        }
    }

    private mutating func destination(index: Int) throws -> String {
        let ext = format.rawValue
        var isDirectory: ObjCBool = false
        if let output, !output.hasSuffix("/"), !(FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) && isDirectory.boolValue) {
            guard index == 0 else { throw ToolFailure("-o \(output) names one file, but the input has more than one model; give a directory (ending in /)", .usage) }
            let parent = (output as NSString).deletingLastPathComponent
            if !parent.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                } catch {
                    throw ToolFailure("\(parent): cannot create the directory: \((error as NSError).localizedDescription)", .cannotCreate)
                }
            }
            return output
        }
        let directory = output ?? "Models/"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ToolFailure("\(directory): cannot create the directory: \((error as NSError).localizedDescription)", .cannotCreate)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd_HHmmss"
        let stem = (directory as NSString).appendingPathComponent("Garment_" + formatter.string(from: Date()))
        var path = stem + "." + ext, n = 2
        while taken.contains(path) || (!overwrite && FileManager.default.fileExists(atPath: path)) {
            path = "\(stem)_\(n).\(ext)"
            n += 1
        }
        taken.insert(path)
        return path
    }

    /// Writes each file beside its final name, flushed, then renames them in order; on failure
    /// nothing new is left behind.
    static func writeAll(_ outputs: [(name: String, bytes: [UInt8])], in directory: String, overwrite: Bool) throws {
        let files = outputs.map { (path: (directory as NSString).appendingPathComponent($0.name), bytes: $0.bytes) }
        if !overwrite, let clash = files.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            throw ToolFailure("\(clash.path) already exists; choose another -o or pass --overwrite", .cannotCreate)
        }
        try AtomicFile.write(files)
    }
}
