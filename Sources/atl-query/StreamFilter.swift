import AtelierCLI
import AtelierRecords
import AtelierWardrobe

/// `atl-query -`: applies conditions, order, limit and projection to NDJSON records.
///
/// Without --sort or --fields it parses only the top-level keys the conditions name (skipping,
/// but still validating, the rest) and writes matching lines through byte for byte, which is
/// what makes it faster than jq on large inputs.
///
/// A garment's computed `readyToWash` is worked out as the catalog works it out, when a
/// condition, a sort key or --fields names it (matching lines still pass through as they are).
final class StreamFilter {
    let filters: [FieldFilter]
    let sort: [SortKey]
    let limit: Int?
    let fields: [[String]]?
    private let keys: JSONParser.KeySet?
    private var kept: [JSONObject] = []
    private var matched = 0
    /// Whether garments get their computed `readyToWash`, judged on `today`.
    private let computesReadiness: Bool
    private let today: Int

    init(filters: [FieldFilter], sort: [SortKey], limit: Int?, fields: [[String]]?, today: Int = ISODate.today()) {
        self.filters = filters
        self.sort = sort
        self.limit = limit
        self.fields = fields
        self.today = today
        let named = filters.map { $0.path[0] } + sort.map { $0.path[0] } + (fields ?? []).map { $0[0] }
        computesReadiness = named.contains { Schemas.garment.computed.contains(Schemas.garment.canonicalFieldName($0)) }
        let needsWholeRecord = !sort.isEmpty || fields != nil
        var needed: Set<String> = ["type"]
        for filter in filters {
            needed.insert(filter.path[0])
            for schema in Schemas.byType.values {
                needed.insert(schema.canonicalFieldName(filter.path[0]).split(separator: ".")[0].description)
            }
        }
        if computesReadiness { needed.formUnion(["id", "state", "category", "subcategory", "wearsSinceWash", "lastWashedOn"]) }
        keys = needsWholeRecord ? nil : JSONParser.KeySet(needed)
    }

    /// A garment with its `readyToWash`, as `WashReadiness` says (the catalog's rule).
    private func withComputedFields(_ record: JSONObject) -> JSONObject {
        guard computesReadiness, record["type"] == "garment" else { return record }
        var identified = record
        if identified["id"] == nil { identified["id"] = "g_stream" }
        guard let garment = LaundryGarment(record: identified) else { return record }
        var out = record
        out["readyToWash"] = .bool(garment.isReadyToWash(on: today))
        return out
    }

    /// The conditions as they apply to `record`'s type (aliases resolved, enum values checked),
    /// worked out once per type.
    private func filters(for record: JSONObject) throws(RecordsError) -> [FieldFilter] {
        guard case .string(let type)? = record["type"], let schema = Schemas.byType[type] else { return filters }
        if let known = filtersByType[type] { return known }
        var resolved: [FieldFilter] = []
        for filter in filters { resolved.append(try filter.canonicalized(for: schema)) }
        filtersByType[type] = resolved
        return resolved
    }

    private var filtersByType: [String: [FieldFilter]] = [:]

    /// Filters one input; returns true when the limit is reached and reading can stop.
    func run(_ reader: LineReader, _ out: RecordOutput) throws -> Bool {
        var done = false
        do throws(LineReaderError<RecordsError>) {
            try reader.forEachLine { (line, number) throws(RecordsError) in
                if done { return }
                let record = withComputedFields(try reader.record(line, number: number, keeping: keys))
                let applicable: [FieldFilter]
                do throws(RecordsError) {
                    applicable = try filters(for: record)
                } catch {
                    done = true
                    filterError = error
                    return
                }
                for filter in applicable where !filter.matches(record) { return }
                if !sort.isEmpty {
                    kept.append(record)
                    return
                }
                do throws(OutputError) {
                    if let fields { try out.write(projectRecord(record, fields: fields)) } else { try out.writeLine(line) }
                } catch {
                    done = true
                    outputError = error
                    return
                }
                matched += 1
                if let limit, matched >= limit { done = true }
            }
        } catch {
            throw error.inputError
        }
        if let filterError { throw filterError }
        if let outputError { throw outputError }
        return done
    }

    private var outputError: OutputError?
    private var filterError: RecordsError?

    /// Writes the sorted records, when sorting.
    func finish(_ out: RecordOutput) throws {
        guard !sort.isEmpty else { return }
        sortRecords(&kept, by: sort)
        for record in kept.prefix(limit ?? kept.count) {
            try out.write(fields.map { projectRecord(record, fields: $0) } ?? record)
        }
    }

    /// Parses every record of one input that meets the conditions and hands it to `take`
    /// (and every record, whether or not it does, to `everyRecord`). Lines are parsed a batch at
    /// a time on every core (`RecordBatch`); records are handed over in line order.
    func collect(_ reader: LineReader, everyRecord: (JSONObject) -> Void = { _ in }, _ take: (JSONObject) -> Void) throws {
        var batch = RecordBatch(source: reader.source)
        func hand(_ parsed: JSONObject) -> Bool {
            let record = withComputedFields(parsed)
            everyRecord(record)
            do throws(RecordsError) {
                for filter in try filters(for: record) where !filter.matches(record) { return true }
            } catch {
                filterError = error
                return false
            }
            take(record)
            return true
        }
        do throws(LineReaderError<RecordsError>) {
            try reader.forEachLine { (line, number) throws(RecordsError) in
                guard filterError == nil else { return }
                if batch.add(line, number: number) { try batch.drain(hand) }
            }
        } catch {
            // An unreadable input: a bad line before it, still in the batch, is the one to tell.
            if case .input = error, filterError == nil { try batch.drain(hand) }
            throw error.inputError
        }
        if filterError == nil { try batch.drain(hand) }
        if let filterError { throw filterError }
    }
}
