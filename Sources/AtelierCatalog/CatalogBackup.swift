import AtelierFormats
import AtelierRecords
import Foundation
import GRDB

/// Backup and restore of a whole catalog (DESIGN.md, "Storage").
///
/// A backup holds one NDJSON file per record type (`tables/garment.ndjson`, …: the records
/// exactly as `atl-query` prints them) from one consistent read transaction, plus the image and model stores
/// when present. Restore is replace-only and atomic: the archive is verified member by member,
/// a new catalog is built beside the old one and checked against the archive's counts, and only
/// then renamed over it. Any failure leaves the current catalog exactly as it was. Store files
/// from the archive are added beside the catalog; none already there is removed.
public enum CatalogBackup {
    /// Table files in restore order: what others refer to comes first.
    static let order = ["garment", "outfit", "image", "model", "laundry", "wear"]

    static func member(_ type: String) -> String { "tables/\(type).ndjson" }

    /// Writes a backup of the catalog at `catalogPath` to `archivePath`; returns the counts.
    @discardableResult
    public static func export(catalogPath: String, to archivePath: String, toolVersion: String) throws -> [String: Int] {
        let catalog = try Catalog(path: catalogPath, create: false)
        let scratch = try TemporaryDirectory(near: archivePath)
        defer { scratch.remove() }
        let writer: BackupArchive.Writer
        do { writer = try BackupArchive.Writer(destination: archivePath) } catch {
            throw CatalogError.cannotWrite(path: archivePath, reason: "\(error)")
        }
        var counts: [String: Int] = [:]
        do {
            try catalog.read { reader in
                reader.resolvesStorePaths = false  // relative, so the backup restores anywhere
                for type in order {
                    let file = scratch.path + "/" + type + ".ndjson"
                    guard let out = OutputStream(toFileAtPath: file, append: false) else { throw CatalogError.cannotWrite(path: file, reason: "cannot open") }
                    out.open()
                    var buffer: [UInt8] = []
                    var n = 0
                    try reader.forEach(type: type) { record in
                        JSONWriter.append(record, to: &buffer)
                        buffer.append(0x0A)
                        n += 1
                        if buffer.count > 1 << 20 { try write(&buffer, to: out, file) }
                    }
                    try write(&buffer, to: out, file)
                    out.close()
                    counts[type] = n
                    try writer.addFile(member(type), from: file)
                }
            }
            let storeDir = (catalogPath as NSString).deletingLastPathComponent
            for store in ["images", "models"] {
                try addTree(storeDir + "/" + store, as: store, to: writer)
            }
            var metadata = JSONObject()
            metadata["toolVersion"] = .string(toolVersion)
            metadata["schemaVersion"] = .int(Int64(CatalogSchema.latestVersion))
            metadata["exportedAt"] = .string(ISODate.formatInstant(Date()))
            metadata["counts"] = .object(JSONObject(order.map { ($0, .int(Int64(counts[$0] ?? 0))) }))
            try writer.finish(metadata: metadata)
        } catch {
            writer.abandon()
            if let error = error as? CatalogError { throw error }
            throw CatalogError.cannotWrite(path: archivePath, reason: "\(error)")
        }
        return counts
    }

    private static func write(_ buffer: inout [UInt8], to out: OutputStream, _ file: String) throws {
        guard !buffer.isEmpty else { return }
        let written = buffer.withUnsafeBufferPointer { out.write($0.baseAddress!, maxLength: $0.count) }
        guard written == buffer.count else { throw CatalogError.cannotWrite(path: file, reason: out.streamError.map { "\($0)" } ?? "short write (disk full?)") }
        buffer.removeAll(keepingCapacity: true)
    }

    private static func addTree(_ dir: String, as prefix: String, to writer: BackupArchive.Writer) throws {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: dir) else { return }
        for case let relative as String in walker {
            var isDir: ObjCBool = false
            let full = dir + "/" + relative
            guard fm.fileExists(atPath: full, isDirectory: &isDir), !isDir.boolValue else { continue }
            // Photos and meshes are already compressed.
            try writer.addFile(prefix + "/" + relative, from: full, compress: false)
        }
    }

    /// Replaces the catalog at `catalogPath` with the archive's contents; returns the counts.
    @discardableResult
    public static func restore(archive archivePath: String, into catalogPath: String) throws -> [String: Int] {
        func bad(_ reason: String) -> CatalogError { .badArchive(path: archivePath, reason: reason) }
        guard access(archivePath, R_OK) == 0 else {
            throw CatalogError.missingInput(path: archivePath, reason: String(cString: strerror(errno)))
        }
        let reader: BackupArchive.Reader
        do { reader = try BackupArchive.Reader(path: archivePath) } catch { throw bad("\(error)") }
        guard case .object(let expected)? = reader.metadata["counts"] else { throw bad("metadata.json has no counts") }
        let dir = (catalogPath as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: dir.isEmpty ? "." : dir, withIntermediateDirectories: true) } catch {
            throw CatalogError.cannotWrite(path: dir, reason: error.localizedDescription)
        }
        let scratch = try TemporaryDirectory(near: catalogPath)
        defer { scratch.remove() }
        // 1. Every member out and verified before anything else happens.
        var files: [String: String] = [:]
        for type in order {
            guard reader.members.contains(member(type)) else { throw bad("\(member(type)) is missing") }
            let file = scratch.path + "/" + type + ".ndjson"
            do { try reader.extract(member(type), to: file) } catch { throw bad("\(error)") }
            files[type] = file
        }
        // Store files go to their own paths under the scratch directory: the reader checks a
        // name before it creates a directory for it, so no archive reaches outside.
        let stores = scratch.path + "/stores"
        for name in reader.members where name.hasPrefix("images/") || name.hasPrefix("models/") {
            do { try reader.extract(name, under: stores) } catch { throw bad("\(error)") }
        }
        // 2. A new catalog beside the old one, filled and checked.
        let newPath = scratch.path + "/catalog.sqlite"
        var counts: [String: Int] = [:]
        do {
            let fresh = try Catalog(path: newPath, create: true)
            try fresh.write { writer in
                writer.restoring = true
                writer.wantsOutput = false
                for type in order {
                    let lines = try LineReader(path: files[type]!)
                    do throws(LineReaderError<InputError>) {
                        try lines.forEachLine { (line, number) throws(InputError) in
                            do {
                                let record = try JSONParser.parseObject(line)
                                guard record["type"] == .string(type) else { throw FieldError("expected a \(type) record") }
                                _ = try writer.apply(record)
                            } catch let error as JSONSyntaxError {
                                throw error.at(member(type), line: number)
                            } catch {
                                throw InputError(.data, source: member(type), line: number, message: "\(error)")
                            }
                        }
                    } catch {
                        throw bad(error.inputError.description)
                    }
                }
                return true
            }
            counts = try fresh.counts()
            for type in order where Int(expected[type]?.integer ?? -1) != counts[type] {
                throw bad("it promises \(expected[type].map(JSONWriter.string) ?? "no") \(type) records but holds \(counts[type] ?? 0)")
            }
            try fresh.close()
        }
        // 3. Swap: the old catalog's WAL is folded in first so no stale log outlives it.
        if FileManager.default.fileExists(atPath: catalogPath) {
            let old = try Catalog(path: catalogPath, create: true)
            try old.checkpoint()
            try old.close()
        }
        do {
            try AtomicFile.commit(temporary: newPath, to: catalogPath)
        } catch {
            throw CatalogError.cannotWrite(path: catalogPath, reason: "\(error)")
        }
        for suffix in ["-wal", "-shm"] { unlink(catalogPath + suffix) }
        // 4. The archive's store files join the live stores. Nothing there is deleted or
        //    replaced: names are content addresses or model ids, and the directories beside a
        //    catalog may hold files that are not Atelier's.
        for store in ["images", "models"] {
            try mergeTree(stores + "/" + store, into: (dir.isEmpty ? "." : dir) + "/" + store)
        }
        return counts
    }
}

extension CatalogBackup {
    /// Moves every file under `source` to the same place under `target` unless one is there.
    static func mergeTree(_ source: String, into target: String) throws {
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: source) else { return }
        for case let relative as String in walker {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: source + "/" + relative, isDirectory: &isDir), !isDir.boolValue else { continue }
            let destination = target + "/" + relative
            guard !fm.fileExists(atPath: destination) else { continue }
            do {
                try fm.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try fm.moveItem(atPath: source + "/" + relative, toPath: destination)
            } catch {
                throw CatalogError.cannotWrite(path: destination, reason: error.localizedDescription)
            }
        }
    }
}

/// A scratch directory beside a given path (so renames out of it stay on one file system).
struct TemporaryDirectory {
    let path: String

    init(near target: String) throws {
        let dir = (target as NSString).deletingLastPathComponent
        var template = Array("\(dir.isEmpty ? "." : dir)/.atelier-tmp-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CatalogError.cannotWrite(path: dir.isEmpty ? "." : dir, reason: String(cString: strerror(errno)))
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

extension Catalog {
    /// Folds the write-ahead log into the database file and empties it.
    func checkpoint() throws {
        do {
            try queue.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Closes the connection now rather than when the object goes away.
    public func close() throws {
        do { try queue.close() } catch { throw Self.classify(error, path: path) }
    }
}
