import AtelierCatalog
import AtelierFormats
import AtelierRecords
import Foundation
import GRDB

/// Backup and restore of a whole catalog (DESIGN.md, "Storage"; docs/backup.md).
///
/// A backup holds one NDJSON file per record type (`tables/garment.ndjson`, …: the records
/// exactly as `atl-query` prints them) from one consistent read transaction, plus the image and
/// model stores when present. Restore (CatalogBackup+Restore.swift) is replace-only and atomic:
/// the whole archive is verified, a new catalog is built beside the old one and checked, and
/// only then renamed over it. Any failure leaves the current catalog exactly as it was.
public enum CatalogBackup {
    /// Table files in restore order: what others refer to comes first.
    static let order = ["garment", "outfit", "image", "model", "laundry", "wear"]

    /// The stores beside a catalog that a backup carries.
    static let stores = ["images", "models"]

    static func member(_ type: String) -> String { "tables/\(type).ndjson" }

    /// Writes a backup of the catalog at `catalogPath` to `archivePath`; returns the counts.
    /// A full disk is `CatalogError.cannotWrite` saying so; nothing is left behind either way.
    @discardableResult
    public static func export(catalogPath: String, to archivePath: String, toolVersion: String) throws -> [String: Int] {
        let catalog = try Catalog(path: catalogPath, create: false)
        let scratch: ScratchDirectory
        let writer: BackupArchive.Writer
        do {
            scratch = try ScratchDirectory(near: archivePath)
            do { writer = try BackupArchive.Writer(destination: archivePath) } catch {
                scratch.remove()
                throw error
            }
        } catch {
            throw exportFailure(error, archivePath)
        }
        defer { scratch.remove() }
        var counts: [String: Int] = [:]
        do {
            try catalog.read { reader in
                reader.resolvesStorePaths = false  // relative, so the backup restores anywhere
                for type in order {
                    let file = scratch.path + "/" + type + ".ndjson"
                    let out = try TableFile(path: file)
                    var n = 0
                    try reader.forEach(type: type) { record in
                        try out.append(record)
                        n += 1
                    }
                    try out.close()
                    counts[type] = n
                    try writer.addFile(member(type), from: file)
                    unlink(file)
                }
            }
            let storeDir = (catalogPath as NSString).deletingLastPathComponent
            for store in stores {
                try addTree((storeDir.isEmpty ? "." : storeDir) + "/" + store, as: store, to: writer)
            }
            var metadata = JSONObject()
            metadata["toolVersion"] = .string(toolVersion)
            metadata["schemaVersion"] = .int(Int64(CatalogSchema.latestVersion))
            metadata["exportedAt"] = .string(ISODate.formatInstant(Date()))
            metadata["counts"] = .object(JSONObject(order.map { ($0, .int(Int64(counts[$0] ?? 0))) }))
            try writer.finish(metadata: metadata)
        } catch {
            writer.abandon()
            throw exportFailure(error, archivePath)
        }
        return counts
    }

    /// An export's error as the message a person reads: a full disk said plainly.
    private static func exportFailure(_ error: Error, _ archivePath: String) -> Error {
        if let code = outOfSpaceCode(error) {
            return CatalogError.cannotWrite(path: archivePath, reason: "\(outOfSpaceWords(code)); free some space and try again; nothing was written")
        }
        switch error {
        case let error as CatalogError: return error
        case BackupError.cannotWrite(_, let code): return CatalogError.cannotWrite(path: archivePath, reason: String(cString: strerror(code)))
        default: return CatalogError.cannotWrite(path: archivePath, reason: plainReason(error))
        }
    }

    /// Adds every file under `dir` as `prefix/…`, leaving out an import's staging directories
    /// (`images/.staging-*`, files not yet in the store).
    private static func addTree(_ dir: String, as prefix: String, to writer: BackupArchive.Writer) throws {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: dir) else { return }
        for case let relative as String in walker {
            if relative.split(separator: "/").first?.hasPrefix(".staging-") == true {
                walker.skipDescendants()
                continue
            }
            var isDir: ObjCBool = false
            let full = dir + "/" + relative
            guard fm.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue else { continue }
            // Photos and meshes are already compressed.
            try writer.addFile(prefix + "/" + relative, from: full, compress: false)
        }
    }
}

/// One table's NDJSON written to a scratch file, buffered, with write errors kept as errno.
private final class TableFile {
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []

    init(path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BackupError.cannotWrite(path: path, code: errno) }
    }

    deinit { if fd >= 0 { Foundation.close(fd) } }

    func append(_ record: JSONObject) throws {
        JSONWriter.append(record, to: &buffer)
        buffer.append(0x0A)
        if buffer.count > 1 << 20 { try flush() }
    }

    func close() throws { try flush() }

    private func flush() throws {
        try buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw BackupError.cannotWrite(path: path, code: n < 0 ? errno : EIO) }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
