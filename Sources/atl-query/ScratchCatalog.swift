import AtelierCLI
import AtelierCatalog
import AtelierRecords
import Foundation

/// A catalog filled from NDJSON for a view that is computed in SQL (`atl-query - stats`), so a
/// stream gets the very same statistics as the catalog rather than a second implementation.
///
/// The records are stored as a restore stores them (`CatalogWriter.restoring`): garments keep
/// their `wearCount` and `lastWornOn`, and wear records fill the log without counting twice.
/// A record the catalog cannot take (a wear of a garment not on the stream) is left out and
/// counted; the catalog lives in a temporary directory that is removed afterwards.
enum ScratchCatalog {
    static func read<T>(_ files: [String], _ body: (CatalogReader) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("atl-query-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let catalog = try Catalog(path: dir + "/stream.sqlite", create: true)
        var records: [JSONObject] = []
        for file in files {
            let reader = try LineReader(path: file)
            do throws(LineReaderError<RecordsError>) {
                try reader.forEachLine { (line, number) throws(RecordsError) in
                    records.append(try reader.record(line, number: number))
                }
            } catch {
                throw error.inputError
            }
        }
        var left: [String: Int] = [:]
        try catalog.write { writer in
            writer.restoring = true
            writer.wantsOutput = false
            // Garments, then outfits, then the rest, whatever the order of the stream (a stable sort).
            for record in records.enumerated().sorted(by: { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }).map(\.element) {
                do {
                    _ = try writer.isolated { try writer.apply(record) }
                } catch is RecordsError {
                    left[record["type"]?.string ?? "other", default: 0] += 1
                }
            }
            return true
        }
        for (type, count) in left.sorted(by: { $0.key < $1.key }) {
            Diagnostics.warn("\(count) \(type) record\(count == 1 ? "" : "s") left out: \(count == 1 ? "it names" : "they name") garments or outfits not on the stream, or \(count == 1 ? "is" : "are") not valid")
        }
        return try catalog.read(body)
    }

    /// Garments, then outfits, then the rest (the wear log refers to both).
    private static func rank(_ record: JSONObject) -> Int {
        switch record["type"]?.string {
        case "garment": return 0
        case "outfit": return 1
        default: return 2
        }
    }
}
