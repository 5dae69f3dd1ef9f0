import AtelierRecords
import Foundation

/// Imports one input into the catalog as one transaction: every record is stored, or (at the
/// first bad one) none is, unless bad records are to be skipped, in which case each is reported
/// and the rest stored. Records reach `onOutput` only once the transaction has committed
/// (or, for a dry run, once everything has been checked), through the caller's spool.
public final class RecordImporter {
    /// How an import treats what it is given (set from atl-import's flags).
    public struct Options: Sendable {
        public var dryRun = false
        public var skipInvalid = false
        /// Store laundry loads that break a care label (`CatalogWriter.forcesLabels`).
        public var forceLabels = false
        /// Whether the records stored are wanted back as they now are in the catalog (false when
        /// nobody reads them: `onOutput` then gets a record as checked, without the work of
        /// making the stored form, or nothing for a new record stored whole: `Summary` counts).
        public var wantsStoredRecords = true
        public var today = ISODate.today()
        public init() {}
    }

    /// What one input did.
    public struct Summary: Sendable {
        public var stored: [String: Int] = [:]
        public var deleted = 0
        public var passedThrough = 0
        public var skipped = 0
        public init() {}
        public var records: Int { stored.values.reduce(0, +) + deleted + passedThrough }
    }

    let catalog: Catalog
    let options: Options
    /// Receives each record to print, while the transaction is open.
    public var onOutput: (JSONObject) throws -> Void = { _ in }
    /// Receives each bad record that was skipped.
    public var onSkipped: (RecordsError) -> Void = { _ in }
    /// Receives, the first time in this input, each word of an open vocabulary (a subcategory, a
    /// fabric) that a stored garment uses and the vocabulary does not know, with its line.
    public var onUnknownWord: (UnknownWord) -> Void = { _ in }
    var unknownWordsSeen: Set<UnknownWord.Key> = []
    /// Receives the number of records done so far (throttling is the receiver's business).
    public var onProgress: (Int) -> Void = { _ in }
    /// While lines are imported: how many input bytes the records done so far came from, for
    /// a progress fraction (safe to call from `onProgress`).
    public private(set) var bytesDone: (() -> Int)?

    public init(catalog: Catalog, options: Options) {
        self.catalog = catalog
        self.options = options
    }

    /// Imports the NDJSON lines `reader` yields, parsing and checking them on a second core.
    public func importLines(from reader: LineReader) throws -> Summary {
        let pipeline = ParsingPipeline(reader: reader, keepsRecords: options.wantsStoredRecords)
        bytesDone = { pipeline.bytesDelivered }
        defer {
            pipeline.finish()
            bytesDone = nil
        }
        return try run(source: reader.source) { handle in
            while let batch = try pipeline.next() {
                for item in batch { try handle(item) }
            }
        }
    }

    /// Imports records already in memory (the sample wardrobe, CSV rows).
    public func importRecords(_ records: [JSONObject], source: String) throws -> Summary {
        try run(source: source) { handle in
            for (i, record) in records.enumerated() { try handle(.init(line: i + 1, content: .record(record, prepared: nil))) }
        }
    }

    /// Imports records produced by `produce`, which hands each one (or its parse error) to the
    /// handler it is given, with its line number.
    public func importProduced(source: String, _ produce: ((Result<JSONObject, RecordsError>, Int) throws(RecordsError) -> Void) throws -> Void) throws -> Summary {
        try run(source: source) { handle in
            try withoutActuallyEscaping(handle) { handle in
                try produce { (result, line) throws(RecordsError) in
                    switch result {
                    case .success(let record): try handle(.init(line: line, content: .record(record, prepared: nil)))
                    case .failure(let error): try handle(.init(line: line, content: .failure(error)))
                    }
                }
            }
        }
    }

    private func run(source: String, _ produce: ((ParsingPipeline.Item) throws(RecordsError) -> Void) throws -> Void) throws -> Summary {
        var summary = Summary()
        try catalog.write { writer in
            writer.today = options.today
            writer.forcesLabels = options.forceLabels
            writer.wantsOutput = options.wantsStoredRecords
            let deferredIndexes = options.dryRun ? [] : try writer.deferIndexesOfEmptyTables()
            var done = 0
            try produce { (item) throws(RecordsError) in
                let line = item.line
                do {
                    switch item.content {
                    case .failure(let error):
                        throw error
                    case .fresh(let row, let record):
                        let stored = options.skipInvalid
                            ? try writer.isolated { try writer.insert(row, record: record) }
                            : try writer.insert(row, record: record)
                        summary.stored[Tables.all[row.table].schema.type, default: 0] += 1
                        if let stored { try onOutput(stored) }
                        noticeUnknownWords(row.unknownWords, source: source, line: line)
                    case .record(let record, let prepared):
                        let outputs = options.skipInvalid
                            ? try writer.isolated { try writer.apply(record, prepared: prepared) }
                            : try writer.apply(record, prepared: prepared)
                        for output in outputs {
                            Self.count(output, input: record, into: &summary)
                            try onOutput(output)
                        }
                        noticeUnknownWords(given: record, stored: outputs, source: source, line: line)
                    }
                } catch let error as RecordsError {
                    // A field error is placed at its line; an input error already has its place.
                    try fail(error.at(source, line: line), &summary)
                } catch let error as CatalogError {
                    throw RecordsError.input(.data, source: source, line: line, message: error.description)
                } catch {
                    throw RecordsError.input(.io, source: source, line: line, message: "\(error)")
                }
                done += 1
                onProgress(done)
            }
            try writer.restoreIndexes(deferredIndexes)
            return !options.dryRun
        }
        return summary
    }

    private func fail(_ error: RecordsError, _ summary: inout Summary) throws(RecordsError) {
        guard options.skipInvalid else { throw error }
        summary.skipped += 1
        onSkipped(error)
    }

    private static func count(_ output: JSONObject, input: JSONObject, into summary: inout Summary) {
        let type = output["type"]?.string ?? "?"
        if output["op"] == "delete" {
            summary.deleted += 1
        } else if Schemas.byType[type] == nil || type == "care" && input["type"] == output["type"] {
            summary.passedThrough += 1
        } else {
            summary.stored[type, default: 0] += 1
        }
    }
}
