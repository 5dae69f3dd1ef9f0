import AtelierRecords
import Crypto
import Foundation

/// Backup archives made byte by byte, for tests that need what no zip library writes on
/// purpose: duplicate names, NULs and backslashes in names, symbolic links, lying sizes,
/// checksums missing, malformed or for members that are not there. (The fuzz target
/// fuzz/BackupArchiveFuzz.swift builds its seeds with this file too, and the backup tests of
/// AtelierFormatsTests and AtelierCatalogTests share it through AtelierTestSupport.)
public enum StoredZip {
    public struct Member {
        public var name: [UInt8]
        public var bytes: [UInt8]
        /// Unix file mode for the central directory (0o100644 a file, 0o40755 a directory,
        /// 0o120777 a symbolic link).
        public var mode: Int = 0o100644
        /// The uncompressed size the headers declare, when not the true one.
        public var declaredSize: Int?

        public init(_ name: String, _ bytes: [UInt8], mode: Int = 0o100644, declaredSize: Int? = nil) {
            self.init(rawName: Array(name.utf8), bytes, mode: mode, declaredSize: declaredSize)
        }

        /// A member whose name is these bytes, valid UTF-8 or not.
        public init(rawName: [UInt8], _ bytes: [UInt8], mode: Int = 0o100644, declaredSize: Int? = nil) {
            self.name = rawName
            self.bytes = bytes
            self.mode = mode
            self.declaredSize = declaredSize
        }
    }

    /// A zip of stored (uncompressed) members, names written byte for byte as UTF-8.
    public static func make(_ members: [Member]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le(_ value: Int, _ count: Int, into bytes: inout [UInt8]) {
            for k in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * k))) }
        }
        for member in members {
            let offset = out.count
            let crc = Int(crc32(member.bytes))
            let declared = member.declaredSize ?? member.bytes.count
            // Local header: signature, version 2.0, flags (UTF-8 names), stored, time, date, CRC, sizes, name length, extra length.
            le(0x0403_4B50, 4, into: &out); le(20, 2, into: &out); le(0x0800, 2, into: &out); le(0, 2, into: &out)
            le(0, 2, into: &out); le(0x5B75, 2, into: &out); le(crc, 4, into: &out)
            le(member.bytes.count, 4, into: &out); le(declared, 4, into: &out)
            le(member.name.count, 2, into: &out); le(0, 2, into: &out)
            out += member.name + member.bytes
            // Central directory entry: made by Unix 2.0, with the member's mode.
            le(0x0201_4B50, 4, into: &central); le(0x0314, 2, into: &central); le(20, 2, into: &central); le(0x0800, 2, into: &central)
            le(0, 2, into: &central); le(0, 2, into: &central); le(0x5B75, 2, into: &central); le(crc, 4, into: &central)
            le(member.bytes.count, 4, into: &central); le(declared, 4, into: &central)
            le(member.name.count, 2, into: &central); le(0, 2, into: &central); le(0, 2, into: &central)
            le(0, 2, into: &central); le(0, 2, into: &central); le(member.mode << 16, 4, into: &central); le(offset, 4, into: &central)
            central += member.name
        }
        let start = out.count
        out += central
        le(0x0605_4B50, 4, into: &out); le(0, 2, into: &out); le(0, 2, into: &out)
        le(members.count, 2, into: &out); le(members.count, 2, into: &out)
        le(central.count, 4, into: &out); le(start, 4, into: &out); le(0, 2, into: &out)
        return out
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func checksum(_ bytes: [UInt8]) -> String { "sha256:" + SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

    /// `members` and `extra` followed by a `metadata.json` that lists a checksum for each of
    /// `members` (and not of `extra`), after `edit`.
    public static func backup(_ members: [Member], extra: [Member] = [], edit: (inout JSONObject) -> Void = { _ in }) -> [UInt8] {
        var sums = JSONObject()
        for member in members { sums[String(decoding: member.name, as: UTF8.self)] = .string(checksum(member.bytes)) }
        var meta: JSONObject = ["format": "atelier-backup", "formatVersion": 1, "counts": ["garment": 1], "checksums": .object(sums)]
        edit(&meta)
        return make(members + extra + [Member("metadata.json", Array(JSONWriter.string(.object(meta)).utf8))])
    }
}
