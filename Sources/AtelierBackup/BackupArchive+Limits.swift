import AtelierFormats
import Foundation
import ZIPFoundation

extension BackupArchive {
    /// How much a backup may inflate to: the bounds that keep a hostile archive (a zip bomb)
    /// from filling the disk or the memory of the machine restoring it. Far above any real
    /// wardrobe: a catalog table of a million garments is about 500 MB, a photo a few MB.
    public struct Limits: Sendable {
        /// `metadata.json`, which is read into memory.
        public var metadataBytes: Int64
        /// Any other member, which is streamed to disk.
        public var memberBytes: Int64
        /// All members together, as their headers declare them (each is stopped at its
        /// declared size, so this bounds what a restore can write).
        public var totalBytes: Int64
        /// How many members an archive may have (each costs a little memory to check).
        public var memberCount: Int

        public init(metadataBytes: Int64 = 16 << 20, memberBytes: Int64 = 8 << 30, totalBytes: Int64 = 1 << 40, memberCount: Int = 4_000_000) {
            self.metadataBytes = metadataBytes
            self.memberBytes = memberBytes
            self.totalBytes = totalBytes
            self.memberCount = memberCount
        }
    }
}

extension BackupArchive.Reader {
    /// Inflates `entry` chunk by chunk into `consume`, and stops with an error as soon as it
    /// passes `limit` or the size its header declares, whichever is smaller: the declared size
    /// is checked first (no work for an honest bomb), but never trusted alone, since a header
    /// can lie. At the end the member must be exactly its declared size and match its CRC.
    static func inflate(_ entry: Entry, of archive: Archive, name: String, limit: Int64,
                        _ consume: (Data) throws -> Void) throws {
        // Plain reasons, like the reader's others: the caller says the backup is unusable.
        func failure(_ reason: String) -> BackupError { .badArchive("\(name) \(reason)") }
        let declared = entry.uncompressedSize
        guard declared <= UInt64(limit) else {
            throw failure("would inflate to \(declared) bytes, over the \(limit)-byte limit for a backup member")
        }
        var inflated: UInt64 = 0
        let crc: CRC32
        do {
            crc = try archive.extract(entry, skipCRC32: false) { chunk in
                inflated += UInt64(chunk.count)
                guard inflated <= declared else { throw Overrun() }
                do { try consume(chunk) } catch { throw ConsumerFailure(error: error) }
            }
        } catch is Overrun {
            throw failure("inflates past the \(declared) bytes its header declares")
        } catch let carried as ConsumerFailure {
            throw carried.error  // writing it out failed: not the archive's fault
        } catch {
            throw failure("is damaged (\(error))")
        }
        guard inflated == declared else { throw failure("inflates to \(inflated) bytes, not the \(declared) its header declares") }
        guard crc == entry.checksum else { throw failure("does not match its CRC") }
    }

    /// Thrown from inside the inflation to stop it at the declared size.
    private struct Overrun: Error {}

    /// An error of the consumer's, carried out of the inflation as it was.
    private struct ConsumerFailure: Error {
        var error: Error
    }
}
