import AtelierRecords
import Crypto
import Foundation
import ZIPFoundation

/// The `.atelier` backup container: a zip holding `metadata.json` (format, versions, time,
/// record counts, a sha256 per member) and member files. It knows nothing of tables: the
/// catalog decides what goes in; this type makes the container trustworthy (checksums,
/// version checks, safe member names) in both directions.
public enum BackupArchive {
    public static let formatName = "atelier-backup"
    public static let formatVersion: Int64 = 1

    /// Problems with an archive, as plain messages (the caller adds the path).
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Builds an archive at a temporary path and moves it into place only when complete.
    public final class Writer {
        private let archive: Archive
        private let temporaryURL: URL
        private let destination: URL
        private var checksums = JSONObject()

        public init(destination: String) throws {
            self.destination = URL(fileURLWithPath: destination)
            let dir = self.destination.deletingLastPathComponent()
            temporaryURL = dir.appendingPathComponent(".\(self.destination.lastPathComponent).tmp-\(getpid())")
            try? FileManager.default.removeItem(at: temporaryURL)
            do {
                archive = try Archive(url: temporaryURL, accessMode: .create)
            } catch {
                throw Failure("cannot create \(destination): \(error.localizedDescription)")
            }
        }

        /// Adds a file from disk under `name`, recording its sha256.
        public func addFile(_ name: String, from path: String, compress: Bool = true) throws {
            let url = URL(fileURLWithPath: path)
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            var hasher = SHA256()
            try archive.addEntry(with: name, type: .file, uncompressedSize: size,
                                 compressionMethod: compress ? .deflate : .none) { position, chunk in
                try handle.seek(toOffset: UInt64(position))
                let data = try handle.read(upToCount: chunk) ?? Data()
                hasher.update(data: data)
                return data
            }
            checksums[name] = .string("sha256:" + hasher.finalize().map { String(format: "%02x", $0) }.joined())
        }

        /// Writes `metadata.json` (with the checksums gathered) and moves the archive into place.
        public func finish(metadata: JSONObject) throws {
            var meta = metadata
            meta["format"] = .string(BackupArchive.formatName)
            meta["formatVersion"] = .int(BackupArchive.formatVersion)
            meta["checksums"] = .object(checksums)
            var bytes: [UInt8] = []
            JSONWriter.appendPretty(.object(meta), to: &bytes)
            bytes.append(0x0A)
            let data = Data(bytes)
            try archive.addEntry(with: "metadata.json", type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
            try AtomicFile.commit(temporary: temporaryURL.path, to: destination.path)
        }

        public func abandon() {
            try? FileManager.default.removeItem(at: temporaryURL)
        }
    }

    /// Opens an archive, checks that it is an Atelier backup this version can read, and extracts
    /// members with their checksums verified.
    public final class Reader {
        public let metadata: JSONObject
        private let archive: Archive

        public init(path: String) throws {
            guard FileManager.default.fileExists(atPath: path) else { throw Failure("no such file") }
            do {
                archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
            } catch {
                throw Failure("not a zip archive (corrupt or truncated?)")
            }
            guard let entry = archive["metadata.json"] else { throw Failure("it has no metadata.json; it is not an Atelier backup") }
            var data = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { data.append($0) }
            } catch {
                throw Failure("metadata.json is damaged (\(error))")
            }
            guard data.count < 16 << 20,
                  case .object(let meta)? = data.withUnsafeBytes({ try? JSONParser.parse($0) })
            else { throw Failure("metadata.json is not a JSON object") }
            guard meta["format"] == .string(BackupArchive.formatName) else { throw Failure("metadata.json does not name the atelier-backup format") }
            guard let version = meta["formatVersion"]?.integer else { throw Failure("metadata.json has no formatVersion") }
            guard version <= BackupArchive.formatVersion else {
                throw Failure("it was made by a newer Atelier (backup format \(version)); upgrade to restore it")
            }
            metadata = meta
        }

        /// Member names listed in the checksums, in archive order.
        public var members: [String] {
            let listed = Set(metadata["checksums"]?.object?.keys ?? [])
            return archive.map(\.path).filter { listed.contains($0) }
        }

        /// Extracts a member to `path`, verifying its CRC and the sha256 from `metadata.json`.
        public func extract(_ name: String, to path: String) throws {
            guard Self.isSafeMemberName(name) else { throw Failure("member name \"\(name)\" is not allowed") }
            guard case .string(let expected)? = metadata["checksums"]?.object?[name] else {
                throw Failure("\(name) has no checksum in metadata.json")
            }
            guard let entry = archive[name] else { throw Failure("\(name) is listed in metadata.json but missing") }
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            guard let handle = FileHandle(forWritingAtPath: path) else { throw Failure("cannot write a temporary file for \(name)") }
            defer { try? handle.close() }
            var hasher = SHA256()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    hasher.update(data: chunk)
                    try handle.write(contentsOf: chunk)
                }
            } catch {
                throw Failure("\(name) is damaged (\(error))")
            }
            let actual = "sha256:" + hasher.finalize().map { String(format: "%02x", $0) }.joined()
            guard actual == expected else { throw Failure("\(name) does not match its checksum") }
        }

        /// Relative, no `..`, no absolute paths, no control characters: nothing that could
        /// escape the directory it is extracted into.
        public static func isSafeMemberName(_ name: String) -> Bool {
            guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), name.utf8.count < 1024 else { return false }
            if name.unicodeScalars.contains(where: { $0.value < 0x20 }) { return false }
            return !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." || $0.isEmpty }
        }
    }
}

/// Atomic replacement of a file: flush the new file to disk, rename it over the old one, and
/// flush the directory, so a crash leaves either the old file or the new, never half of one.
public enum AtomicFile {
    public static func commit(temporary: String, to destination: String) throws {
        let fd = open(temporary, O_RDONLY)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw BackupArchive.Failure("cannot move the new file into place at \(destination): \(reason)")
        }
        let dir = (destination as NSString).deletingLastPathComponent
        let dfd = open(dir.isEmpty ? "." : dir, O_RDONLY | O_DIRECTORY)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }
}
