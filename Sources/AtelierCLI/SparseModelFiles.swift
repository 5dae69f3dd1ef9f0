import AtelierReconstruction
import Foundation

/// Writes a sparse model as `DIR/sparse/{cameras,images,points3D}.txt` and the points as a coloured
/// `points3D.ply` for viewers (MeshLab, CloudCompare, Blender), all or nothing: the files
/// go into a hidden directory beside `sparse`, each flushed to disk, and the directory is then
/// renamed into place. An existing `sparse` is replaced only when asked, and only once the new
/// one is complete.
enum SparseModelFiles {
    static func write(_ text: COLMAPTextModel, pointCloud: [UInt8], into directory: String, overwrite: Bool) throws {
        let fm = FileManager.default
        let target = directory + "/sparse"
        if fm.fileExists(atPath: target) && !overwrite {
            throw ToolFailure("\(target) already exists; choose another --out or pass --overwrite", .cannotCreate)
        }
        do {
            try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ToolFailure("\(directory): cannot create the directory: \(describe(error))", .cannotCreate)
        }
        let staging = directory + "/.sparse.tmp-\(getpid())"
        try? fm.removeItem(atPath: staging)
        do {
            try fm.createDirectory(atPath: staging, withIntermediateDirectories: false)
            for (name, contents) in [("cameras.txt", text.cameras), ("images.txt", text.images), ("points3D.txt", text.points3D)] {
                try writeSynced(Array(contents.utf8), to: staging + "/" + name)
            }
            try writeSynced(pointCloud, to: staging + "/points3D.ply")
            if fm.fileExists(atPath: target) {
                let old = directory + "/.sparse.old-\(getpid())"
                guard rename(target, old) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                guard rename(staging, target) == 0 else {
                    let code = errno
                    rename(old, target)
                    throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
                }
                try? fm.removeItem(atPath: old)
            } else {
                guard rename(staging, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            }
        } catch {
            try? fm.removeItem(atPath: staging)
            throw ToolFailure("\(target): cannot write the model: \(describe(error))", .cannotCreate)
        }
    }

    private static func writeSynced(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = Foundation.write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                written += n
            }
        }
        guard fsync(fd) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    private static func describe(_ error: Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return (error as NSError).localizedDescription
    }
}
