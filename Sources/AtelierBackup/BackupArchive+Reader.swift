import AtelierFormats
import AtelierRecords
import Crypto
import Foundation
import ZIPFoundation

extension BackupArchive {
    /// Opens an archive, checks that it is an Atelier backup this version can read, and
    /// extracts members with their checksums verified, their names checked and their sizes bounded.
    ///
    /// Nothing in an archive is trusted before it is checked, and a check that fails refuses
    /// the whole archive, never just the member: an archive that is not exactly what a writer
    /// made is damaged or forged. Opening reads only the zip's directory and `metadata.json`:
    /// every member name must be safe (`isSafeMemberName`) and unique, every member a plain
    /// file listed in the checksums, and every listed one present. Members are then inflated
    /// through `Limits`, stopping as soon as one passes a bound (a zip bomb), and compared
    /// with their CRC and sha256. docs/backup.md lists every check.
    public final class Reader {
        public let metadata: JSONObject
        public let limits: Limits
        /// The members other than `metadata.json`, in archive order.
        public let members: [String]
        /// What extracting every member would write at most: the sizes their headers declare.
        public let declaredBytes: Int64
        private let archive: Archive
        private let entries: [String: Entry]
        private let checksums: [String: String]

        public init(path: String, limits: Limits = Limits()) throws {
            self.limits = limits
            guard FileManager.default.fileExists(atPath: path) else { throw BackupError.badArchive("no such file") }
            do {
                archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
            } catch {
                throw BackupError.badArchive("not a zip archive (corrupt or truncated?)")
            }
            // 1. The zip's directory: names, kinds, duplicates, sizes; nothing inflated yet.
            var entries: [String: Entry] = [:]
            var members: [String] = []
            var metadataEntry: Entry?
            var declared: Int64 = 0
            var memberBytes: Int64 = 0
            for entry in archive {
                let name = entry.path
                guard entries[name] == nil && !(name == "metadata.json" && metadataEntry != nil) else {
                    throw BackupError.badArchive("it holds two members named \(Self.quoted(name))")
                }
                // A directory entry, as `zip -r` writes one: it holds nothing, and nothing is made for it.
                if entry.type == .directory && name.hasSuffix("/") && entry.uncompressedSize == 0
                    && Self.isSafeMemberName(String(name.dropLast())) { continue }
                guard Self.isSafeMemberName(name) else {
                    throw BackupError.badArchive("member name \(Self.quoted(name)) is not allowed (absolute, with a \"..\", empty or control part, or a backslash)")
                }
                guard entry.type == .file else {
                    throw BackupError.badArchive("member \(Self.quoted(name)) is a \(entry.type == .symlink ? "symbolic link" : "directory"); a backup holds plain files only")
                }
                guard entries.count < limits.memberCount else { throw BackupError.badArchive("it has more than \(limits.memberCount) members") }
                declared = declared.addingReportingOverflow(Int64(clamping: entry.uncompressedSize)).partialValue
                guard declared >= 0 && declared <= limits.totalBytes else {
                    throw BackupError.badArchive("its members would inflate to more than the \(limits.totalBytes)-byte limit for a backup")
                }
                if name == "metadata.json" {
                    metadataEntry = entry
                } else {
                    entries[name] = entry
                    members.append(name)
                    memberBytes += Int64(clamping: entry.uncompressedSize)
                }
            }
            guard let metadataEntry else { throw BackupError.badArchive("it has no metadata.json; it is not an Atelier backup") }
            // A member whose name is another's directory (`a` and `a/b`) could not be extracted.
            for name in members {
                var dir = Substring(name)
                while let slash = dir.lastIndex(of: "/") {
                    dir = dir[..<slash]
                    if entries[String(dir)] != nil { throw BackupError.badArchive("member \(Self.quoted(String(dir))) is also the directory of \(Self.quoted(name))") }
                }
            }
            // 2. metadata.json: the format, its version, and a checksum for exactly the members there are.
            var data = Data()
            try Self.inflate(metadataEntry, of: archive, name: "metadata.json", limit: limits.metadataBytes) { data.append($0) }
            guard case .object(let meta)? = data.withUnsafeBytes({ try? JSONParser.parse($0) })
            else { throw BackupError.badArchive("metadata.json is not a JSON object") }
            guard meta["format"] == .string(BackupArchive.formatName) else { throw BackupError.badArchive("metadata.json does not name the atelier-backup format") }
            guard let version = meta["formatVersion"]?.integer else { throw BackupError.badArchive("metadata.json has no formatVersion") }
            guard version <= BackupArchive.formatVersion else {
                throw BackupError.badArchive("it was made by a newer Atelier (backup format \(version)); upgrade to restore it")
            }
            guard version >= 1 else { throw BackupError.badArchive("metadata.json has an unknown formatVersion \(version)") }
            guard case .object(let listed)? = meta["checksums"] else { throw BackupError.badArchive("metadata.json has no checksums") }
            var checksums: [String: String] = [:]
            for (name, value) in listed {
                guard name != "metadata.json" else { throw BackupError.badArchive("metadata.json lists a checksum for itself") }
                guard case .string(let sum) = value, Self.isChecksum(sum) else {
                    throw BackupError.badArchive("metadata.json's checksum for \(Self.quoted(name)) is not \"sha256:\" and 64 hex digits")
                }
                guard entries[name] != nil else { throw BackupError.badArchive("\(Self.quoted(name)) is listed in metadata.json but missing from the archive") }
                checksums[name] = sum
            }
            if let unlisted = members.first(where: { checksums[$0] == nil }) {
                throw BackupError.badArchive("member \(Self.quoted(unlisted)) has no checksum in metadata.json")
            }
            metadata = meta
            self.entries = entries
            self.members = members
            self.checksums = checksums
            declaredBytes = memberBytes
        }

        /// The size a member's header declares, which extracting it never passes.
        public func declaredSize(of name: String) -> Int64? { entries[name].map { Int64(clamping: $0.uncompressedSize) } }

        /// The checksum `metadata.json` lists for a member (`sha256:` and hex).
        public func checksum(of name: String) -> String? { checksums[name] }

        /// Extracts a member to the same relative path under `directory`, creating the
        /// directories between (only members, whose names are known safe, can be extracted).
        public func extract(_ name: String, under directory: String) throws {
            guard entries[name] != nil else { throw BackupError.badArchive("\(Self.quoted(name)) is not a member of this backup") }
            let target = directory + "/" + name
            try BackupArchive.makeDirectories(BackupArchive.parentDirectory(of: target))
            try extract(name, to: target)
        }

        /// Extracts a member to `path`, verifying its size, CRC and the sha256 from
        /// `metadata.json`; with `path` nil, verifies it without writing anything. A failure to
        /// write is `BackupError.cannotWrite`, anything wrong with the member
        /// `.badArchive`.
        public func extract(_ name: String, to path: String?) throws {
            var fd: Int32 = -1
            if let path {
                guard entries[name] != nil else { throw BackupError.badArchive("\(Self.quoted(name)) is not a member of this backup") }
                fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
                guard fd >= 0 else { throw BackupError.cannotWrite(path: path, code: errno) }
            }
            defer { if fd >= 0 { close(fd) } }
            try extract(name) { chunk in
                if let path { try Self.write(chunk, to: fd, path: path) }
            }
        }

        /// Inflates a member chunk by chunk into `consume`, verifying its size and CRC, and at
        /// the end its sha256: what `consume` was given is only known good once this returns.
        /// An error `consume` throws comes out as it was.
        public func extract(_ name: String, into consume: (Data) throws -> Void) throws {
            guard let entry = entries[name], let expected = checksums[name] else {
                throw BackupError.badArchive("\(Self.quoted(name)) is not a member of this backup")
            }
            var hasher = SHA256()
            try Self.inflate(entry, of: archive, name: name, limit: limits.memberBytes) { chunk in
                hasher.update(data: chunk)
                try consume(chunk)
            }
            guard BackupArchive.checksum(hasher.finalize()) == expected else { throw BackupError.badArchive("\(name) does not match its checksum") }
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

        /// `sha256:` and 64 lowercase hex digits.
        static func isChecksum(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return bytes.count == 71 && text.hasPrefix("sha256:")
                && bytes[7...].allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        /// A name as a message shows it: JSON-quoted (so a NUL or a newline is visible), and cut
        /// short when long.
        public static func quoted(_ name: String) -> String {
            let shown = name.unicodeScalars.count > 120 ? String(String.UnicodeScalarView(name.unicodeScalars.prefix(120))) + "…" : name
            return JSONWriter.string(.string(shown))
        }

        private static func write(_ chunk: Data, to fd: Int32, path: String) throws {
            try chunk.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw BackupError.cannotWrite(path: path, code: n < 0 ? errno : EIO) }
                    offset += n
                }
            }
        }
    }
}
