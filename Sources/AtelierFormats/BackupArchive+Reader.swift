import AtelierRecords
import Crypto
import Foundation
import ZIPFoundation

extension BackupArchive {
    /// Opens an archive, checks that it is an Atelier backup this version can read, and extracts
    /// members with their checksums verified, their names checked and their sizes bounded.
    ///
    /// Nothing in an archive is trusted before it is checked: a member's name could point out
    /// of the directory it is extracted into, and its header could promise a few bytes and
    /// inflate to gigabytes (a zip bomb). So names are checked before anything is created, and
    /// every member is inflated through `Limits`, stopping as soon as it passes one.
    public final class Reader {
        public let metadata: JSONObject
        public let limits: Limits
        private let archive: Archive

        public init(path: String, limits: Limits = Limits()) throws {
            self.limits = limits
            guard FileManager.default.fileExists(atPath: path) else { throw Failure("no such file") }
            do {
                archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
            } catch {
                throw Failure("not a zip archive (corrupt or truncated?)")
            }
            guard let entry = archive["metadata.json"] else { throw Failure("it has no metadata.json; it is not an Atelier backup") }
            var data = Data()
            try Self.inflate(entry, of: archive, name: "metadata.json", limit: limits.metadataBytes) { data.append($0) }
            guard case .object(let meta)? = data.withUnsafeBytes({ try? JSONParser.parse($0) })
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

        /// Extracts a member to the same relative path under `directory`, creating the
        /// directories between, once its name is known to be safe: nothing is created for an
        /// unsafe name.
        public func extract(_ name: String, under directory: String) throws {
            guard Self.isSafeMemberName(name) else { throw Failure("member name \"\(name)\" is not allowed") }
            let target = directory + "/" + name
            do {
                try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            } catch {
                throw Failure("cannot create a directory for \(name): \(error.localizedDescription)")
            }
            try extract(name, to: target)
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
            try Self.inflate(entry, of: archive, name: name, limit: limits.memberBytes) { chunk in
                hasher.update(data: chunk)
                try handle.write(contentsOf: chunk)
            }
            let actual = "sha256:" + hasher.finalize().map { String(format: "%02x", $0) }.joined()
            guard actual == expected else { throw Failure("\(name) does not match its checksum") }
        }

        /// Relative, no `.` or `..` component, no empty one (`a//b`, a trailing `/`), no
        /// backslash, no control character, under 1024 bytes: nothing that could escape the
        /// directory it is extracted into.
        ///
        /// Checked on UTF-8 bytes, as the file system reads the name: a combining mark after a
        /// `/` joins it into one Character, and a Character-wise split would miss that `/`.
        public static func isSafeMemberName(_ name: String) -> Bool {
            let bytes = name.utf8
            guard !bytes.isEmpty, bytes.count < 1024, bytes.first != UInt8(ascii: "/") else { return false }
            guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) else { return false }
            return !bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains { component in
                component.isEmpty || component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E])
            }
        }
    }
}
