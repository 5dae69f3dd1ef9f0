import AtelierRecords
import Crypto
import Foundation
import ZIPFoundation

/// The `.atelier` backup container: a zip holding `metadata.json` (format, versions, time,
/// record counts, a sha256 per member) and member files. It knows nothing of tables: the
/// catalog decides what goes in; this type makes the container trustworthy (checksums,
/// version checks, safe member names, bounded sizes) in both directions. The reading side is
/// in BackupArchive+Reader.swift.
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
}
