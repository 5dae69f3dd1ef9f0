import AtelierCatalog
import AtelierFormats
import AtelierRecords
import Foundation

/// What a restore checks beyond the container (`BackupArchive.Reader`): that the metadata
/// describes tables this version knows, that every member belongs in a backup, that a photo's
/// bytes are the content address its name says, and that every store file a record names will
/// be there once the archive's files join the stores. docs/backup.md lists every check.
struct RestorePlan {
    /// Records per type, as `metadata.json` promises them.
    let counts: [String: Int]
    /// The catalog schema the backup was made from.
    let schemaVersion: Int
    /// The members under `images/` and `models/`, in archive order.
    let storeMembers: [String]
    /// The directory the stores live in (the catalog's).
    let liveRoot: String
    private let memberSet: Set<String>
    private let memberDirectories: Set<String>

    init(_ reader: BackupArchive.Reader, liveRoot: String) throws(RecordsError) {
        let meta = reader.metadata
        guard let schema = meta["schemaVersion"]?.integer else { throw RecordsError.field("metadata.json has no schemaVersion") }
        guard schema <= CatalogSchema.latestVersion else {
            throw RecordsError.field("it was made by a newer Atelier (catalog schema \(schema); this one reads up to \(CatalogSchema.latestVersion)); upgrade to restore it")
        }
        guard schema >= 1 else { throw RecordsError.field("metadata.json has an unknown schemaVersion \(schema)") }
        schemaVersion = Int(schema)
        guard case .object(let promised)? = meta["counts"] else { throw RecordsError.field("metadata.json has no counts") }
        var counts: [String: Int] = [:]
        for (type, value) in promised {
            guard CatalogBackup.order.contains(type) else { throw RecordsError.field("metadata.json counts \(JSONWriter.string(.string(type))) records, a type this version does not know") }
            guard let n = value.integer, n >= 0 else { throw RecordsError.field("metadata.json's count of \(type) records is not a whole number") }
            counts[type] = Int(n)
        }
        var storeMembers: [String] = []
        var directories: Set<String> = []
        for name in reader.members {
            if name.hasPrefix("tables/") {
                guard CatalogBackup.order.contains(where: { CatalogBackup.member($0) == name }) else {
                    throw RecordsError.field("member \(BackupArchive.Reader.quoted(name)) is not a table this version knows")
                }
            } else if CatalogBackup.stores.contains(where: { name.hasPrefix($0 + "/") }) {
                if let hex = Self.photoAddress(name), reader.checksum(of: name) != "sha256:" + hex {
                    throw RecordsError.field("\(name) is not the photo its name says: a photo is named by its sha256, and this one's differs")
                }
                storeMembers.append(name)
                var dir = BackupArchive.parentDirectory(of: name)
                while !dir.isEmpty && directories.insert(dir).inserted { dir = BackupArchive.parentDirectory(of: dir) }
            } else {
                throw RecordsError.field("member \(BackupArchive.Reader.quoted(name)) is not part of an Atelier backup (metadata.json, tables/, images/ and models/ only)")
            }
        }
        for type in CatalogBackup.order {
            guard reader.members.contains(CatalogBackup.member(type)) else { throw RecordsError.field("\(CatalogBackup.member(type)) is missing") }
            guard counts[type] != nil else { throw RecordsError.field("metadata.json has no count of \(type) records") }
        }
        self.counts = counts
        self.storeMembers = storeMembers
        self.liveRoot = liveRoot
        memberSet = Set(storeMembers)
        memberDirectories = directories
    }

    /// Checks that every store file `record` names is in the archive or already in the store:
    /// an image's `path`, `thumbnail` and `thumbnailSquare`, and a model's `dir` and `files`
    /// under `models/`. (Absolute paths, and a model's paths elsewhere, name files outside the
    /// catalog's directory, which no backup holds.) An image's path that is a photo address
    /// must be its own id's.
    func checkFiles(of record: JSONObject, type: String) throws(RecordsError) {
        switch type {
        case "image":
            for field in ImageStore.pathFields {
                guard case .string(let path)? = record[field], !path.hasPrefix("/") else { continue }
                try requireFile(path, field: field)
                if field == "path", let hex = Self.photoAddress(path), case .string(let id)? = record["id"], id != "sha256:" + hex {
                    throw RecordsError.field("field \"path\" names \(path), the photo whose sha256 is \(hex), not this image's \(id)")
                }
            }
        case "model":
            if case .string(let dir)? = record["dir"], dir.hasPrefix("models/") {
                guard BackupArchive.Reader.isSafeMemberName(dir) else { throw outside(dir, field: "dir") }
                var isDirectory: ObjCBool = false
                guard memberDirectories.contains(dir) || (FileManager.default.fileExists(atPath: liveRoot + "/" + dir, isDirectory: &isDirectory) && isDirectory.boolValue) else {
                    throw RecordsError.field("field \"dir\" names \(dir), which is neither in the backup nor beside the catalog")
                }
            }
            if case .object(let files)? = record["files"] {
                for (key, value) in files {
                    guard case .string(let path) = value, path.hasPrefix("models/") else { continue }
                    try requireFile(path, field: "files." + key)
                }
            }
        default: break
        }
    }

    private func requireFile(_ path: String, field: String) throws(RecordsError) {
        guard BackupArchive.Reader.isSafeMemberName(path) else { throw outside(path, field: field) }
        guard memberSet.contains(path) || Self.isRegularFile(liveRoot + "/" + path) else {
            throw RecordsError.field("field \"\(field)\" names \(path), which is neither in the backup nor beside the catalog")
        }
    }

    private func outside(_ path: String, field: String) -> RecordsError {
        RecordsError.field("field \"\(field)\" names \(BackupArchive.Reader.quoted(path)), which is outside the catalog's directory")
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The sha256 hex a photo's store name says, for `images/ab/<62 hex>.<ext>` (see
    /// `ImageStore.photoPath`); nil for any other name (thumbnails are named after their
    /// photo, not their own bytes).
    static func photoAddress(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        let isHex: (UInt8) -> Bool = { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard bytes.count >= 74, name.hasPrefix("images/"), bytes[9] == UInt8(ascii: "/"), bytes[72] == UInt8(ascii: "."),
              bytes[7..<9].allSatisfy(isHex), bytes[10..<72].allSatisfy(isHex),
              !bytes[73...].contains(UInt8(ascii: "/")) else { return nil }
        return String(decoding: bytes[7..<9] + bytes[10..<72], as: UTF8.self)
    }
}
