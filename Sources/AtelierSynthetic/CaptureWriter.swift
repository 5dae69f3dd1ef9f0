import AtelierImaging
import Foundation

/// Writes a capture to a directory:
///
///     DIR/img_0001.jpg …          the pictures, JPEG with EXIF
///     DIR/truth/mesh.ply          the true surface (binary PLY, metres, +Y up)
///     DIR/truth/cameras.txt       COLMAP text model of the true cameras
///     DIR/truth/images.txt
///     DIR/truth/points3D.txt      (empty)
///     DIR/truth/scene.json        everything above and the scene's settings in one document
///     DIR/truth/texture.png       the garment's texture (when asked for)
///
/// Every file is written atomically; `scene.json` comes last, so its presence says the capture is
/// complete.
public enum CaptureWriter {
    /// One image written.
    public struct Progress: Sendable {
        public var index: Int
        public var total: Int
        public var name: String
        public var seconds: Double
    }

    /// What was written.
    public struct Summary: Sendable, Equatable {
        /// The output directory as an absolute path.
        public var directory: String
        public var images: Int
        public var width: Int
        public var height: Int
        public var preset: String
        public var seed: UInt64
        public var surface: String
        public var focalLengthPixels: Double
    }

    /// Files this writer owns in a directory: the only ones `overwrite` removes.
    static let truthFiles = ["mesh.ply", "cameras.txt", "images.txt", "points3D.txt", "scene.json", "texture.png"]

    public static func write(_ capture: SyntheticCapture, to directory: String, overwrite: Bool = false, includeTexture: Bool = false,
                             progress: (Progress) -> Void = { _ in }) throws(SyntheticError) -> Summary {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        let truth = root + "/truth"
        try prepare(root, overwrite: overwrite)
        try createDirectory(truth)

        try CaptureFile.write(PLYWriter.binary(capture.scene.mesh, comments: [
            "Atelier synthetic capture \(capture.spec.preset.rawValue) seed \(capture.spec.seed): the true garment surface",
            "units metres, +Y up, ground plane y = 0",
        ]), to: truth + "/mesh.ply")
        if includeTexture {
            let image = capture.spec.photoTexture ?? textureImage(capture)
            do {
                try CaptureFile.write(try PNG.encode(image), to: truth + "/texture.png")
            } catch let error as SyntheticError {
                throw error
            } catch {
                throw .encodingFailed("\(error)")
            }
        }

        let total = capture.cameras.count
        for index in 0 ..< total {
            let started = DispatchTime.now().uptimeNanoseconds
            let name = SyntheticCapture.imageName(index)
            try CaptureFile.write(try capture.jpeg(index), to: root + "/" + name)
            progress(Progress(index: index + 1, total: total, name: name,
                              seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9))
        }

        let images = capture.cameras.enumerated().map { (name: SyntheticCapture.imageName($0.offset), pose: $0.element.pose) }
        try CaptureFile.write(COLMAPText.cameras(capture.intrinsics), to: truth + "/cameras.txt")
        try CaptureFile.write(COLMAPText.images(images), to: truth + "/images.txt")
        try CaptureFile.write(COLMAPText.emptyPoints3D, to: truth + "/points3D.txt")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let json = try? encoder.encode(capture.sceneDescription) else { throw .encodingFailed("scene.json") }
        try CaptureFile.write(Array(json) + [0x0A], to: truth + "/scene.json")

        return Summary(directory: root, images: total, width: capture.intrinsics.width, height: capture.intrinsics.height,
                       preset: capture.spec.preset.rawValue, seed: capture.spec.seed, surface: capture.spec.resolvedSurface.rawValue,
                       focalLengthPixels: capture.intrinsics.focalLengthXPixels)
    }

    /// The generated texture again (it is cheap next to the renders, and not kept in the scene as
    /// an image).
    private static func textureImage(_ capture: SyntheticCapture) -> Image {
        switch capture.spec.resolvedSurface {
        case .plainWeave: return PlainWeave(size: capture.spec.textureSize).image(seed: capture.spec.seed)
        default: return PrintedFabric(size: capture.spec.textureSize).image(seed: capture.spec.seed)
        }
    }

    /// Makes sure `root` is a directory that is empty, or, with `overwrite`, clears out a previous
    /// capture there (only the files this writer makes).
    private static func prepare(_ root: String, overwrite: Bool) throws(SyntheticError) {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: root, isDirectory: &isDirectory) else {
            try createDirectory(root)
            return
        }
        guard isDirectory.boolValue else { throw .cannotWrite(path: root, reason: "it exists and is not a directory") }
        let entries = (try? files.contentsOfDirectory(atPath: root)) ?? []
        guard !entries.isEmpty else { return }
        guard overwrite else { throw .outputNotEmpty(path: root) }
        do {
            for entry in entries where isImageName(entry) { try files.removeItem(atPath: root + "/" + entry) }
            for entry in truthFiles where files.fileExists(atPath: root + "/truth/" + entry) {
                try files.removeItem(atPath: root + "/truth/" + entry)
            }
        } catch {
            throw .cannotWrite(path: root, reason: "cannot remove the previous capture: \(systemReason(error))")
        }
    }

    /// `img_` followed by four or more digits and `.jpg`.
    static func isImageName(_ name: String) -> Bool {
        guard name.hasPrefix("img_"), name.hasSuffix(".jpg") else { return false }
        let digits = name.dropFirst(4).dropLast(4)
        return digits.count >= 4 && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `mkdir -p`, with the system's own words when it fails ("Permission denied").
    private static func createDirectory(_ path: String) throws(SyntheticError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            guard mkdir(prefix, 0o755) != 0 else { continue }
            let error = errno
            var status = stat()
            if error == EEXIST, stat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { continue }
            let reason = error == EEXIST ? "\(prefix) exists and is not a directory" : String(cString: strerror(error))
            throw .cannotWrite(path: path, reason: reason)
        }
    }

    /// The system's own words for a Foundation file error, when it has them.
    private static func systemReason(_ error: Error) -> String {
        let error = error as NSError
        if let posix = error.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(posix.code)))
        }
        return error.localizedDescription
    }
}
