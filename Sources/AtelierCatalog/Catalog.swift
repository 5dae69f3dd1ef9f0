import AtelierRecords
import Foundation
import GRDB

/// An Atelier catalog: one SQLite file in WAL mode with foreign keys on.
///
/// Writers take the write lock up front (`BEGIN IMMEDIATE`) and wait up to `busyTimeoutSeconds`
/// for another writer, so two imports at once both succeed one after the other, or one fails
/// with `CatalogError.busy`; SQLite's locking keeps the file consistent either way.
public final class Catalog {
    public let path: String
    package let queue: DatabaseQueue

    public static let busyTimeoutSeconds: TimeInterval = 30

    /// The photo store beside this catalog.
    public var store: ImageStore { ImageStore(catalogPath: path) }

    /// Opens the catalog at `path`. With `create`, a missing file (and its directory) is made and
    /// the schema migrated; without, a missing file is `CatalogError.notFound` and the catalog is
    /// opened read-only.
    public init(path: String, create: Bool) throws(CatalogError) {
        self.path = path
        let config = Self.configuration(readonly: !create)
        if !FileManager.default.fileExists(atPath: path) {
            guard create else { throw .notFound(path: path) }
            try Self.createComplete(at: path, configuration: config)
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: config)
        } catch {
            throw Self.classify(error, path: path)
        }
        try checkSchema(migrate: create)
    }

    private static func configuration(readonly: Bool) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        config.busyMode = .timeout(Self.busyTimeoutSeconds)
        config.readonly = readonly
        config.label = "atelier"
        config.prepareDatabase { db in
            if !db.configuration.readonly {
                try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            }
            // A writer's index builds spill to temporary files past its page cache. At 8 MB a
            // million-record import peaks near 58 MB (110 MB at 32 MB, 75 at 16), in the same time
            // within the noise (27.3, 27.7 and 29.0 s on one quiet run each). A reader needs little: queries
            // read each page once or walk an index in order (the kernel caches the file), and the
            // sorter spills to temporary files past the cache's size. 500 KB keeps a query of any
            // size near 29 MB of RSS, of which the Swift runtime, Foundation and SQLite's code take
            // 28 (issue 28 asks for under 30).
            try db.execute(sql: "PRAGMA cache_size = \(db.configuration.readonly ? -500 : -8192)")
            try RegexpFunction.register(db)
        }
        return config
    }

    /// Makes a new catalog appear at `path` complete (WAL mode, schema migrated) or not at all:
    /// it is built under a temporary name and hard-linked into place, which fails if another
    /// process got there first, in which case that one is used. Switching a database to WAL
    /// needs an exclusive lock that SQLite does not wait for, so doing it on the shared file
    /// would make two first imports at once fail with "busy".
    private static func createComplete(at path: String, configuration: Configuration) throws(CatalogError) {
        let fm = FileManager.default
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
                throw CatalogError.writing(dir, error: error)
            }
        }
        let name = (path as NSString).lastPathComponent
        let temporary = (dir.isEmpty ? "" : dir + "/") + ".\(name).new-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        }
        do {
            let queue = try DatabaseQueue(path: temporary, configuration: configuration)
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try CatalogSchema.migrate(db, path: path)
                    return .commit
                }
            }
            try queue.close()
        } catch {
            throw classify(error, path: path)
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw CatalogError.writing(path, code: errno)
        }
    }

    /// Migrates the schema when writing (see `CatalogSchema`), or checks it when reading.
    private func checkSchema(migrate: Bool) throws(CatalogError) {
        do {
            if migrate {
                try queue.writeWithoutTransaction { db in
                    try db.inTransaction(.immediate) {
                        try CatalogSchema.migrate(db, path: path)
                        return .commit
                    }
                }
            } else {
                try queue.read { db in try CatalogSchema.checkCurrent(db, path: path) }
            }
        } catch let error as CatalogError {
            throw error
        } catch {
            throw Self.classify(error, path: path)
        }
    }

    /// Maps SQLite's errors to the catalog's.
    package static func classify(_ error: Error, path: String) -> CatalogError {
        if let error = error as? CatalogError { return error }
        guard let db = error as? DatabaseError else { return .database("\(error)") }
        switch db.resultCode {
        case .SQLITE_NOTADB: return .notACatalog(path: path, reason: "not an SQLite database")
        case .SQLITE_CORRUPT: return .notACatalog(path: path, reason: "the database file is damaged")
        case .SQLITE_BUSY, .SQLITE_LOCKED: return .busy(path: path)
        case .SQLITE_CANTOPEN: return .cannotWrite(path: path, reason: db.message ?? "cannot open")
        case .SQLITE_READONLY, .SQLITE_PERM: return .cannotWrite(path: path, reason: "read-only")
        case .SQLITE_FULL: return .diskFull(path: path)
        case .SQLITE_IOERR: return .cannotWrite(path: path, reason: "I/O error: \(db.message ?? "")")
        default: return .database(db.message ?? "\(db)")
        }
    }

    /// Runs `body` in one immediate write transaction; it commits when `body` returns true and
    /// rolls back when it returns false or throws.
    public func write(_ body: (CatalogWriter) throws -> Bool) throws {
        do {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try body(CatalogWriter(db: db, store: store)) ? .commit : .rollback
                }
            }
        } catch let error as DatabaseError {
            throw Self.classify(error, path: path)
        }
    }

    /// Runs `body` with a consistent read-only view of the catalog.
    public func read<T>(_ body: (CatalogReader) throws -> T) throws -> T {
        do {
            return try queue.read { db in try body(CatalogReader(db: db, store: store)) }
        } catch let error as DatabaseError {
            throw Self.classify(error, path: path)
        }
    }

    /// The number of records of each stored type.
    public func counts() throws -> [String: Int] {
        try read { reader in try reader.counts() }
    }
}
