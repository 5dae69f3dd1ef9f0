import AtelierFormats
import AtelierRecords
import Foundation

/// The content-addressed photo store beside a catalog (DESIGN.md, "Storage"):
/// `images/ab/cdef….jpg` holds the photo whose sha256 is `abcdef…`, byte for byte, and
/// `images/thumbs/ab/cdef…-256.jpg` and `…-256sq.jpg` its thumbnails (fitted, and a centred
/// square for grid views).
///
/// The catalog keeps these paths relative to its own directory, so a catalog and its store can
/// move (or be restored elsewhere) together; records leaving the catalog carry them absolute,
/// so the next tool in a pipeline can open the files. Files enter the store through an
/// `ImageStoreStaging`, which makes a whole import's files durable at once.
public struct ImageStore: Sendable {
    /// The directory that holds `images/`: the catalog's own.
    public let root: String

    public init(catalogPath: String) {
        let dir = (catalogPath as NSString).deletingLastPathComponent
        root = dir.isEmpty ? FileManager.default.currentDirectoryPath : (dir.hasPrefix("/") ? dir : FileManager.default.currentDirectoryPath + "/" + dir)
    }

    /// `images/ab/cdef….ext` for an image id `sha256:abcdef…`.
    public static func photoPath(id: String, fileExtension: String) -> String {
        let hex = hexDigest(id)
        return "images/\(hex.prefix(2))/\(hex.dropFirst(2)).\(fileExtension)"
    }

    /// `images/thumbs/ab/cdef…-256.jpg`, or `-256sq.jpg` for the square crop.
    public static func thumbnailPath(id: String, side: Int, square: Bool) -> String {
        let hex = hexDigest(id)
        return "images/thumbs/\(hex.prefix(2))/\(hex.dropFirst(2))-\(side)\(square ? "sq" : "").jpg"
    }

    private static func hexDigest(_ id: String) -> Substring {
        precondition(id.hasPrefix("sha256:") && id.count == 71, "an image id is sha256:<64 hex digits>")
        return id.dropFirst(7)
    }

    public func absolute(_ relative: String) -> String { relative.hasPrefix("/") ? relative : root + "/" + relative }

    public func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: absolute(relative)) }

    /// Removes a file an import added (undoing an import whose transaction failed).
    public func remove(_ relative: String) { unlink(absolute(relative)) }

    /// The record with its store paths made absolute, as it leaves the catalog.
    func resolving(_ record: JSONObject) -> JSONObject {
        var out = record
        for field in ImageStore.pathFields {
            if case .string(let relative)? = record[field], !relative.hasPrefix("/") { out[field] = .string(absolute(relative)) }
        }
        return out
    }

    /// The record with absolute paths inside this store made relative, as it enters the catalog.
    func relativising(_ record: JSONObject) -> JSONObject {
        var out = record
        let prefix = root + "/"
        for field in ImageStore.pathFields {
            if case .string(let path)? = record[field], path.hasPrefix(prefix + "images/") { out[field] = .string(String(path.dropFirst(prefix.count))) }
        }
        return out
    }

    /// The image fields that name files in the store.
    package static let pathFields = ["path", "thumbnail", "thumbnailSquare"]
}
