import AtelierCatalog
import AtelierFormats
import AtelierRecords
import Foundation
import GRDB

extension CatalogBackup {
    /// Replaces the catalog at `catalogPath` with the archive's contents; returns the counts.
    ///
    /// In order: the container and metadata checked (`BackupArchive.Reader`, `RestorePlan`);
    /// every store member verified, and those the stores lack extracted to a scratch directory
    /// beside the catalog; a new catalog built there, table by table, each record's store files
    /// checked, and its counts compared with the metadata; the new store files flushed and moved
    /// into the stores; the new catalog renamed over the old one. Any failure before that rename
    /// leaves the catalog exactly as it was (and takes back the store files it added): an
    /// unusable archive is `CatalogError.badArchive`, a full disk `.cannotWrite` saying so.
    @discardableResult
    public static func restore(archive archivePath: String, into catalogPath: String) throws -> [String: Int] {
        guard access(archivePath, R_OK) == 0 else {
            throw CatalogError.missingInput(path: archivePath, reason: String(cString: strerror(errno)))
        }
        let parent = (catalogPath as NSString).deletingLastPathComponent
        let dir = parent.isEmpty ? "." : parent
        do {
            let reader: BackupArchive.Reader
            do { reader = try BackupArchive.Reader(path: archivePath) } catch BackupError.badArchive(let reason) {
                throw CatalogError.badArchive(path: archivePath, reason: reason)
            }
            let plan: RestorePlan
            do { plan = try RestorePlan(reader, liveRoot: dir) } catch {
                throw CatalogError.badArchive(path: archivePath, reason: error.reason)
            }
            try BackupArchive.makeDirectories(dir)
            return try restore(reader, plan, archivePath: archivePath, catalogPath: catalogPath)
        } catch let error as CatalogError {
            if let code = outOfSpaceCode(error) { throw outOfSpace(code, archivePath, dir, detail: nil) }
            // SQLite does not always say that the disk was full (a log it could not fold in
            // reads back as a damaged file); what is not the archive's fault, on a full disk, is.
            switch error {
            case .badArchive, .missingInput: break
            default: if freeBytes(dir) == 0 { throw outOfSpace(ENOSPC, archivePath, dir, detail: nil) }
            }
            throw error
        } catch BackupError.badArchive(let reason) {
            throw CatalogError.badArchive(path: archivePath, reason: reason)
        } catch {
            if let code = outOfSpaceCode(error) { throw outOfSpace(code, archivePath, dir, detail: nil) }
            if case BackupError.cannotWrite(let path, let code)? = error as? BackupError {
                throw CatalogError.cannotWrite(path: path, reason: String(cString: strerror(code)) + "; the catalog was not changed")
            }
            throw CatalogError.cannotWrite(path: dir, reason: plainReason(error) + "; the catalog was not changed")
        }
    }

    static func outOfSpace(_ code: Int32, _ archivePath: String, _ dir: String, detail: String?) -> CatalogError {
        .cannotWrite(path: dir, reason: "\(outOfSpaceWords(code)) while restoring \(archivePath)\(detail ?? ""); free some space and try again; the catalog was not changed")
    }

    private static func restore(_ reader: BackupArchive.Reader, _ plan: RestorePlan, archivePath: String, catalogPath: String) throws -> [String: Int] {
        func bad(_ reason: String) -> CatalogError { .badArchive(path: archivePath, reason: reason) }
        let dir = plan.liveRoot
        let scratch = try ScratchDirectory(near: catalogPath)
        defer { scratch.remove() }
        // What must be written: the tables (one at a time, each removed once read) and the
        // store files the stores do not hold yet. Refused at once when it cannot fit.
        let missing = plan.storeMembers.filter { !RestorePlan.isRegularFile(dir + "/" + $0) }
        let needed = (missing + order.map(member)).reduce(Int64(0)) { $0 + (reader.declaredSize(of: $1) ?? 0) }
        if let free = freeBytes(dir), needed > free {
            throw outOfSpace(ENOSPC, archivePath, dir, detail: " (it needs about \(size(needed)) and \(size(free)) are free)")
        }

        // 1. Every store member verified; the new ones extracted under the scratch directory.
        let stores = scratch.path + "/stores"
        let toExtract = Set(missing)
        for name in plan.storeMembers {
            if toExtract.contains(name) { try reader.extract(name, under: stores) } else { try reader.extract(name, to: nil) }
        }

        // 2. A new catalog beside the old one, filled and checked. It is built with a rollback
        //    journal, not a write-ahead log: one transaction into a new file journals almost
        //    nothing, where a WAL would hold a second copy of the whole catalog until the commit.
        //    (The file is made here, empty, so that the catalog is migrated in it in place:
        //    `Catalog` builds a new file under another name and links it, and on a full disk
        //    that loses what its log could not fold in. Nothing here is the archive's fault.)
        let newPath = scratch.path + "/catalog.sqlite"
        let fresh: Catalog
        do {
            let fd = open(newPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw BackupError.cannotWrite(path: newPath, code: errno) }
            close(fd)
            fresh = try Catalog(path: newPath, create: true)
            try fresh.setJournal("DELETE")
        } catch {
            if outOfSpaceCode(error) != nil { throw error }
            throw CatalogError.cannotWrite(path: dir, reason: "cannot build the new catalog: \(plainReason(error)); the catalog was not changed")
        }
        var stopped: Error?  // a failure that is not the archive's, carried out as it was
        try fresh.write { writer in
            writer.restoring = true
            writer.wantsOutput = false
            for type in order {
                // Read straight out of the archive, line by line: no copy of the table on disk.
                // Its checksum is known good only at the end; until then the records are in
                // this transaction alone, which a mismatch rolls back.
                func load(_ line: UnsafeRawBufferPointer, _ number: Int) throws(RecordsError) {
                    do {
                        let record = try JSONParser.parseObject(line)
                        guard record["type"] == .string(type) else { throw RecordsError.field("expected a \(type) record") }
                        try plan.checkFiles(of: record, type: type)
                        _ = try writer.apply(record)
                    } catch let error as RecordsError {
                        throw error.at(member(type), line: number)
                    } catch let error as CatalogError {
                        if case .cannotWrite = error { stopped = error }
                        throw RecordsError.input(.data, source: member(type), line: number, message: error.description)
                    } catch {
                        stopped = error
                        throw RecordsError.input(.io, source: member(type), line: number, message: plainReason(error))
                    }
                }
                var lines = ChunkLines(source: member(type))
                do {
                    try reader.extract(member(type)) { chunk in try lines.feed(chunk, load) }
                    try lines.finish(load)
                } catch let error as RecordsError {
                    throw stopped ?? bad(error.description)
                }
            }
            // Catalogs before schema 3 did not count wears since the last wash.
            if plan.schemaVersion < 3 { try writer.recountWearsSinceWash() }
            return true
        }
        let counts = try fresh.counts()
        for type in order where plan.counts[type] != counts[type] {
            throw bad("it promises \(plan.counts[type] ?? 0) \(type) records but holds \(counts[type] ?? 0)")
        }
        try fresh.setJournal("WAL")  // what every catalog is in, so no opener need switch it
        try fresh.close()

        // 3. The new store files, flushed, join the stores: nothing there is deleted or
        //    replaced (names are content addresses or model ids, and the directories beside a
        //    catalog may hold files that are not Atelier's). Before the swap, so the new
        //    catalog never names a file that is not there yet.
        if !toExtract.isEmpty { try flushFileSystem(of: scratch.path) }
        var added: [String] = []
        do {
            for name in plan.storeMembers where toExtract.contains(name) {
                let target = dir + "/" + name
                guard access(target, F_OK) != 0 else { continue }
                try BackupArchive.makeDirectories(BackupArchive.parentDirectory(of: target))
                guard rename(stores + "/" + name, target) == 0 else { throw BackupError.cannotWrite(path: target, code: errno) }
                added.append(target)
            }
            if !added.isEmpty { try flushFileSystem(of: dir) }

            // 4. Swap: the old catalog's WAL is folded in first so no stale log outlives it.
            if FileManager.default.fileExists(atPath: catalogPath) {
                let old = try Catalog(path: catalogPath, create: true)
                try old.checkpoint()
                try old.close()
            }
            do {
                try AtomicFile.commit(temporary: newPath, to: catalogPath)
            } catch {
                throw CatalogError.cannotWrite(path: catalogPath, reason: error.reason + "; the catalog was not changed")
            }
        } catch {
            for path in added { unlink(path) }
            throw error
        }
        for suffix in ["-wal", "-shm"] { unlink(catalogPath + suffix) }
        return counts
    }

    /// Bytes free for this process in the file system holding `dir`; nil when it does not say.
    private static func freeBytes(_ dir: String) -> Int64? {
        var fs = statvfs()
        guard statvfs(dir, &fs) == 0, fs.f_blocks > 0 else { return nil }
        let blocks = geteuid() == 0 ? fs.f_bfree : fs.f_bavail
        return Int64(clamping: UInt64(blocks).multipliedReportingOverflow(by: UInt64(fs.f_frsize)).partialValue)
    }

    /// `340 kB`, `12.5 MB`, `3.1 GB`.
    private static func size(_ bytes: Int64) -> String {
        if bytes < 10_000_000 { return "\((bytes + 999) / 1000) kB" }
        return bytes < 10_000_000_000 ? String(format: "%.1f MB", Double(bytes) / 1e6) : String(format: "%.1f GB", Double(bytes) / 1e9)
    }
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

    /// Switches the journal mode (`DELETE` or `WAL`) of a catalog this process alone has open.
    func setJournal(_ mode: String) throws {
        do {
            try queue.writeWithoutTransaction { db in _ = try Row.fetchAll(db, sql: "PRAGMA journal_mode = \(mode)") }
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Closes the connection now rather than when the object goes away.
    public func close() throws {
        do { try queue.close() } catch { throw Self.classify(error, path: path) }
    }
}

/// Splits a table's bytes, as they inflate, into lines as `LineReader` does: each without its
/// `\n` or `\r\n`, blank ones (spaces and tabs) skipped but counted, none longer than
/// `LineReader.defaultMaximumLineBytes`.
struct ChunkLines {
    let source: String
    var maximumLineBytes = LineReader.defaultMaximumLineBytes
    private var pending: [UInt8] = []
    private var number = 0

    init(source: String) { self.source = source }

    /// Hands `body` every line the bytes so far complete.
    mutating func feed(_ chunk: Data, _ body: (UnsafeRawBufferPointer, Int) throws(RecordsError) -> Void) throws(RecordsError) {
        pending.append(contentsOf: chunk)
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            try emit(start..<newline, body)
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > maximumLineBytes + 1 {
            throw RecordsError.input(.data, source: source, line: number + 1, message: "line is longer than \(maximumLineBytes >> 20) MiB; is this NDJSON?")
        }
    }

    /// Hands `body` the last line, when no newline ended it.
    mutating func finish(_ body: (UnsafeRawBufferPointer, Int) throws(RecordsError) -> Void) throws(RecordsError) {
        if !pending.isEmpty { try emit(0..<pending.count, body) }
        pending = []
    }

    private mutating func emit(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer, Int) throws(RecordsError) -> Void) throws(RecordsError) {
        number += 1
        var end = range.upperBound
        if end > range.lowerBound && pending[end - 1] == 0x0D { end -= 1 }
        guard end - range.lowerBound <= maximumLineBytes else {
            throw RecordsError.input(.data, source: source, line: number, message: "line is longer than \(maximumLineBytes >> 20) MiB; is this NDJSON?")
        }
        guard pending[range.lowerBound..<end].contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        let line = number
        var failure: RecordsError?
        pending.withUnsafeBytes { all in
            do throws(RecordsError) { try body(UnsafeRawBufferPointer(rebasing: all[range.lowerBound..<end]), line) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
