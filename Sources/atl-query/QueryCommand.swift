import AtelierCLI
import ArgumentParser
import AtelierCatalog
import AtelierImaging
import AtelierRecords
import AtelierWardrobe
import Foundation

/// `atl-query`: get records out of the catalog, or filter any NDJSON stream.
public struct QueryCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "atl-query",
        abstract: "List, filter and summarise records from the Atelier catalog, or filter NDJSON on standard input.",
        discussion: """
            <view> is one of: \(QueryView.list). \
            With '-' instead, records are read from standard input (or the files after it) and the \
            same --where, --sort, --limit and --fields apply to them; matching lines pass through \
            unchanged. duplicates, laundry-plan, suggest, stats and outfits read a stream too when given \
            files, '-' for standard input: 'atl-query laundry-plan -' is 'atl-query - laundry-plan'; stats \
            over a stream of garment, outfit and wear records gives what it gives on their catalog.

            A --where condition is FIELD OP VALUE with OP one of = != < <= > >= ~ (regular \
            expression) !~ or 'has' (list contains). Paths may be dotted (price.amount) and reach \
            into lists (composition.fabric). Numbers compare as numbers, other values as text, so \
            dates compare in time order; 'today', 'yesterday' and 'today-30d' (d, w, m, y) stand \
            for dates. Repeated --where conditions must all hold. A missing field satisfies only \
            != and !~. Exits 1 when nothing matched.

            'laundry-plan' prints the garments that want washing as machine loads: one laundry record \
            per load (status planned, with its program, temperature, care symbols and warnings), then \
            one 'unplaced' record per garment it could not place, with the reason. Nothing is stored \
            until the loads are piped to atl-import. --where picks the garments considered; \
            --capacity-kg is the machine's. A garment wants washing when it was worn its \
            subcategory's wears-before-wash since its last wash, or worn since a wash 30 or more \
            days ago, or its state is toWash (not while drying, onLoan, underRepair or archived); \
            'readyToWash' says so in --where and --fields of garments.

            'suggest' prints outfit records for --date (default today), not stored until piped to \
            atl-import: a top and a bottom or a one-piece, footwear, outerwear and a warm layer when \
            cold (--temperature below 10 °C; without one, winter counts as cold), nothing heavy when \
            hot (above 25 °C), an accessory when one is due. Only garments at home and clean, for the \
            season (--season, else that of --date) and fit for --occasion (casual, work, formal, \
            party, sport) or --style. Each outfit's 'why' gives its score and the parts: rotation \
            (garments not worn for a week or more, the longer the better, the least worn of their \
            kind first), colour harmony (OkLCh hues: neutrals, monochrome, analogous, \
            complementary), formality agreeing, and pairs worn together before or in a favourite \
            outfit, with reasons in words. No outfit worn in the last week comes back. --count \
            gives different outfits, --lock keeps garments and fills the rest, --seed repeats a \
            choice (the same catalog, day and seed give the same bytes); --days N plans a trip: N outfits from as few garments as possible, then a \
            'packing' record listing them. --where picks the garments considered.

            'stats' prints one record per group of garments (--by category, brand, season, …) with \
            counts, value, wears, cost per wear, the most and least worn and what has not been worn \
            for --not-worn-days, then a total. There --where picks the garments counted, and --sort, \
            --limit and --fields shape the groups. --by garment gives one record per garment, with \
            its versatility (the outfits it is in) and the days since it was last worn; --by month \
            and --by weekday give the wear log over time (and by month, what was bought). --since \
            counts the wear log's entries in a window instead of each garment's lifetime wearCount: \
            30d is the 30 days ending on --until (today unless given), a day is the first day \
            counted; --compare sets each group beside the window of the same length before. The \
            total also says how evenly the wardrobe is worn (rotation: the Gini coefficient of \
            wears, the share worn) and the wear log's current and longest streaks.

            duplicates groups photos that are the same picture. Photos within --verify-within pHash \
            bits, or one within 10 bits of a window of the other (phashWindows, which \
            atl-classify --task hash and atl-import --images add), are read and compared by their \
            local features, which find crops, re-framings and small turns that move the hash far; a \
            plain photo with too few features is compared pixel by pixel; where neither can tell (a \
            blank photo, a file that cannot be read), and with --hash-only, photos within \
            --threshold bits count.

            EXAMPLES
              atl-query garments --where 'season has winter' --where category=outerwear --sort -wearCount
              atl-query garments --where 'lastWornOn<today-60d' --fields id,name,lastWornOn
              atl-query outfits --expand --limit 1
              atl-query outfits --available --fields name,tone,value
              atl-query stats --by category
              atl-query stats --by brand --where category=top --sort -wears --limit 5
              atl-query stats --by garment --since 30d --sort wears --limit 5 --fields group,wears,daysSinceWorn
              atl-query stats --since 30d --compare --fields group,wears,wearsChange,rotation
              atl-query stats --by weekday --since 90d --fields group,wears,outfits
              atl-query stats --by fabric --fields group,garments,known
              atl-query wear --where 'date>=2026-11-01'
              atl-query garments --where readyToWash=true --fields name,wearsSinceWash,lastWashedOn
              atl-query laundry-plan --fields bin,program,temperature,garments,name,reason
              atl-query laundry-plan --capacity-kg 5 | atl-import
              atl-query garments | atl-query - laundry-plan --date today+3d
              atl-query garments | atl-query - --where 'brand~^Levi'
              atl-query duplicates --fields id,size
              atl-classify --task hash photos/*.jpg | atl-query - duplicates --hash-only
              atl-query suggest --season autumn --temperature 14 --occasion work --fields name,why.score,why.reasons
              atl-query suggest --season autumn --count 3 --seed 7 --lock "$(atl-query garments --where 'name~Chinos' --fields id | jq -r .id)"
              atl-query suggest | atl-import | jq -c '{type: "wear", outfit: .id}' | atl-import
              atl-query suggest --days 5 --season winter --temperature 4 | jq -c 'select(.type == "packing") | .names'
            """,
        version: AtelierVersion.string)

    @Argument(help: ArgumentHelp("What to list: a view, or '-' to filter records from standard input.", valueName: "view"),
              completion: .list(QueryView.names + ["-"]))
    var view: String

    @Argument(help: ArgumentHelp("With '-', duplicates, laundry-plan, suggest or stats: NDJSON files to read instead of the catalog ('-' for standard input).", valueName: "file"),
              completion: .file(extensions: ["ndjson", "jsonl"]))
    var files: [String] = []

    @Option(name: .customLong("where"), help: ArgumentHelp("A condition records must meet, like 'category=top' (repeatable).", valueName: "condition"))
    var conditions: [String] = []

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp("Sort by a field, '-field' for descending (repeatable).", valueName: "field"))
    var sort: [String] = []

    @Option(name: .long, help: ArgumentHelp("Print at most this many records.", valueName: "n"))
    var limit: Int?

    @Option(name: .long, help: ArgumentHelp("Keep only these fields (comma-separated, dotted paths allowed); 'type' is always kept. In the views of stored records (garments, outfits, wear, laundry, images, models), a name their records do not have is reported on stderr.", valueName: "list"))
    var fields: String?

    @Flag(name: .long, help: "For outfits: inline each garment's record in place of its id.")
    var expand = false

    @Flag(name: .long, help: "For outfits: only those whose garments are all at home and clean (available, not ready to wash).")
    var available = false

    @Option(name: .long, help: ArgumentHelp("For stats: what to group garments by.", valueName: "dimension"))
    var by: WardrobeStats.Dimension = .category

    @Option(name: .long, help: ArgumentHelp("For stats: a garment not worn for this many days counts as unworn.", valueName: "days"))
    var notWornDays: Int = 90

    @Option(name: .long, help: ArgumentHelp("For stats: count the wears of the last N days (30d, 12w, 6m, 1y) or since a day (2026-11-01, today-30d), from the wear log.", valueName: "window"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp("For stats with --since: the last day counted (default today).", valueName: "day"))
    var until: String?

    @Flag(name: .long, help: "For stats with --since: set each group beside the window of the same length just before.")
    var compare = false

    @Option(name: .long, help: ArgumentHelp("For duplicates: the most pHash bits two photos may differ in when their files are not read (--hash-only, or a photo that cannot be read) (default 8).", valueName: "bits"))
    var threshold: Int?

    @Option(name: .long, help: ArgumentHelp("For duplicates: photos within this many pHash bits are compared by their local features, which also finds crops, re-framings and small turns (default \(NearDuplicateSearch.defaultWithin)).", valueName: "bits"))
    var verifyWithin: Int?

    @Flag(name: .long, help: "For duplicates: judge by the pHash alone (--threshold), without reading the photos.")
    var hashOnly = false

    @Option(name: .long, help: ArgumentHelp("For laundry-plan: the washing machine's capacity in kilograms of dry laundry.", valueName: "kg"))
    var capacityKg: Double = LaundryPlanner.defaultCapacityKilograms

    @Option(name: .long, help: ArgumentHelp("For laundry-plan, readyToWash and outfits --available: the day to judge on, YYYY-MM-DD or today+1d (default today).", valueName: "day"))
    var date: String?

    @Option(name: .long, help: ArgumentHelp("For suggest: the season to dress for (default: the season of --date, northern hemisphere).", valueName: "season"),
            completion: .list(Domain.season.values))
    var season: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("For suggest: the temperature in °C; below 10 adds outerwear and a warm layer, above 25 leaves out anything heavy.", valueName: "celsius"))
    var temperature: Double?

    @Option(name: .long, help: ArgumentHelp("For suggest: what the outfit is for: \(Occasion.all.map(\.name).joined(separator: ", ")) (sets the formality).", valueName: "occasion"),
            completion: .list(Occasion.all.map(\.name)))
    var occasion: String?

    @Option(name: .long, help: ArgumentHelp("For suggest: only garments of this style (or of none).", valueName: "style"),
            completion: .list(Domain.style.values))
    var style: String?

    @Option(name: .long, help: ArgumentHelp("For suggest: how many different outfits (default 1).", valueName: "n"))
    var count: Int?

    @Option(name: .long, help: ArgumentHelp("For suggest: a garment every outfit keeps (repeatable, or ids separated by commas); the rest is filled around it.", valueName: "id"))
    var lock: [String] = []

    @Option(name: .long, help: ArgumentHelp("For suggest: another seed chooses otherwise among near-equal outfits (default 0: the same catalog and day give the same outfits).", valueName: "n"))
    var seed: UInt64?

    @Option(name: .long, help: ArgumentHelp("For suggest: plan a trip of N days from --date: N outfits from as few garments as possible, then a packing record.", valueName: "n"))
    var days: Int?

    @OptionGroup var catalog: CatalogOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var progress: ProgressOptions

    public init() {}

    /// With '-', a view named first among the files (`atl-query - duplicates`).
    private var streamView: QueryView? {
        view == "-" ? files.first.flatMap(QueryView.init(rawValue:)).flatMap { $0.worksOnStream ? $0 : nil } : nil
    }

    /// The view to compute: a catalog view, or one named after '-'; nil to filter a stream.
    private var chosenView: QueryView? { view == "-" ? streamView : QueryView(rawValue: view) }

    /// Whether records come from standard input or files rather than the catalog: after '-'
    /// (`atl-query - laundry-plan`), or after a view that works on a stream
    /// (`atl-query laundry-plan -`, `atl-query duplicates images.ndjson`).
    var readsStream: Bool { view == "-" || (!files.isEmpty && chosenView?.worksOnStream == true) }

    /// The inputs of a stream, '-' for standard input.
    var streamFiles: [String] {
        let inputs = view == "-" && streamView != nil ? Array(files.dropFirst()) : files
        return inputs.isEmpty ? ["-"] : inputs
    }

    /// The days --since and --until name: `30d` is the 30 days ending on --until (today by
    /// default); a day (or `today-30d`) is the first day counted.
    func statsWindow() throws -> ClosedRange<Int>? {
        guard let since else { return nil }
        let today = ISODate.today()
        guard let last = try until.map({ try ISODate.resolveDay($0, today: today) }) ?? today else {
            throw ValidationError("--until must be a day like 2026-11-30 or today-7d; got \"\(until ?? "")\"")
        }
        let first: Int
        if let count = Int(since.dropLast()), count > 0, let unit = since.last, "dwmy".contains(unit) {
            // The `count` units ending on --until, that day included.
            guard let start = try ISODate.resolveDay("today-\(since)", today: last) else { throw ValidationError("--since \(since) is not a window") }
            first = start + 1
        } else if let day = try ISODate.resolveDay(since, today: today) {
            first = day
        } else {
            throw ValidationError("--since must be a window like 30d, 12w, 6m or 1y, or a day like 2026-11-01; got \"\(since)\"")
        }
        guard first <= last else { throw ValidationError("--since \(ISODate.formatDay(first)) is after --until \(ISODate.formatDay(last))") }
        return first ... last
    }

    /// The day --date names (validated), else today.
    var day: Int {
        let today = ISODate.today()
        return date.flatMap { (try? ISODate.resolveDay($0, today: today)) ?? nil } ?? today
    }

    public func validate() throws {
        guard view == "-" || QueryView(rawValue: view) != nil else {
            let hint = Vocabulary("view", QueryView.names).suggestion(for: view).map { "; did you mean \"\($0)\"?" } ?? " (expected one of: \(QueryView.list), -)"
            throw ValidationError("unknown view \"\(view)\"\(hint)")
        }
        if view != "-" && !files.isEmpty && chosenView?.worksOnStream != true {
            throw ValidationError("files can only be given after '-' (or after \(QueryView.allCases.filter(\.worksOnStream).map(\.rawValue).joined(separator: " or ")))")
        }
        if threshold != nil && chosenView != .duplicates { throw ValidationError("--threshold applies to duplicates only") }
        if let threshold, !(0 ... 32).contains(threshold) { throw ValidationError("--threshold is a number of bits from 0 to 32") }
        if (verifyWithin != nil || hashOnly) && chosenView != .duplicates { throw ValidationError("--verify-within and --hash-only apply to duplicates only") }
        if verifyWithin != nil && hashOnly { throw ValidationError("--verify-within reads the photos and --hash-only does not: give one") }
        if let verifyWithin, !(0 ... 24).contains(verifyWithin) { throw ValidationError("--verify-within is a number of bits from 0 to 24") }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if expand && chosenView != .outfits { throw ValidationError("--expand applies to outfits only") }
        if available && chosenView != .outfits { throw ValidationError("--available applies to outfits only") }
        if capacityKg != LaundryPlanner.defaultCapacityKilograms && chosenView != .laundryPlan {
            throw ValidationError("--capacity-kg applies to laundry-plan only")
        }
        if !(capacityKg > 0 && capacityKg <= 100) { throw ValidationError("--capacity-kg must be more than 0 and at most 100") }
        if (since != nil || until != nil) && chosenView != .stats { throw ValidationError("--since and --until apply to stats only") }
        if until != nil && since == nil { throw ValidationError("--until needs --since (the first day counted)") }
        if compare && since == nil { throw ValidationError("--compare needs --since (the window to compare with the one before)") }
        if since != nil { _ = try statsWindow() }
        if date != nil && chosenView != .laundryPlan && chosenView != .garments && chosenView != .outfits && chosenView != .suggest && !(view == "-" && chosenView == nil) {
            throw ValidationError("--date applies to laundry-plan, suggest, garments, outfits and '-' (readyToWash) only")
        }
        try validateSuggestOptions()
        if let date, (try? ISODate.resolveDay(date, today: ISODate.today())) ?? nil == nil {
            throw ValidationError("--date must be a day like 2026-12-01, today or today+3d; got \"\(date)\"")
        }
    }

    public func run() throws {
        Diagnostics.prepareProcess()
        let printed: Int
        do {
            printed = try query()
        } catch {
            throw Diagnostics.exitCode(for: error)
        }
        if printed == 0 { throw ExitCode(Sysexit.noMatch.rawValue) }
    }

    private func query() throws -> Int {
        let filters = try conditions.map { try FieldFilter.parse($0) }
        let keys = try sort.map { try SortKey.parse($0) }
        let projection = try fields.map { try parseFieldList($0) }
        let out = RecordOutput(lineBuffered: output.lineBuffered)
        defer { try? out.flush() }
        if chosenView == .duplicates {
            return try duplicates(filters: filters, keys: keys, projection: projection, out: out)
        }
        if chosenView == .laundryPlan {
            return try laundryPlan(filters: filters, projection: projection, day: day, out: out)
        }
        if chosenView == .suggest {
            return try suggest(filters: filters, projection: projection, day: day, out: out)
        }
        if chosenView == .outfits && readsStream {
            try ScratchCatalog.read(streamFiles) { reader in try list(reader, filters: filters, keys: keys, projection: projection, out: out) }
            try out.flush()
            return out.count
        }
        if chosenView == .stats && readsStream {
            try ScratchCatalog.read(streamFiles) { reader in try stats(reader, filters: filters, keys: keys, projection: projection, out: out) }
            try out.flush()
            return out.count
        }
        if view == "-" {
            let filter = StreamFilter(filters: filters, sort: keys, limit: limit, fields: projection, today: day)
            for file in files.isEmpty ? ["-"] : files {
                if try filter.run(LineReader(path: file), out) { break }
            }
            try filter.finish(out)
            try out.flush()
            return out.count
        }
        let store = try Catalog(path: catalog.path, create: false)
        try store.read { reader in
            if chosenView == .stats {
                try stats(reader, filters: filters, keys: keys, projection: projection, out: out)
            } else {
                try list(reader, filters: filters, keys: keys, projection: projection, out: out)
            }
        }
        try out.flush()
        return out.count
    }

    /// A record view (garments, outfits, …) of a catalog, or of a scratch one filled from a stream.
    private func list(_ reader: CatalogReader, filters: [FieldFilter], keys: [SortKey], projection: [[String]]?, out: RecordOutput) throws {
        // validate() lets only views through, and the computed views are answered before.
        guard let type = chosenView?.recordType else { return }
        let computed = projection?.contains { Schemas.garment.computed.contains($0[0]) } ?? false
        var query = CatalogQuery(type: type, filters: filters, sort: keys, limit: limit, expand: expand,
                                 computedFields: computed, today: day)
        query.availableOnly = available
        query.fields = projection
        let warnings: [String]
        if let projection {
            warnings = try reader.run(query) { record in try out.write(projectRecord(record, fields: projection)) }
        } else {
            // Whole records: written as NDJSON by the catalog, straight from SQLite where it can.
            warnings = try reader.writeLines(query, chunkBytes: out.chunkBytes) { bytes, lines in try out.writeLines(bytes, lines: lines) }
        }
        warnings.forEach(Diagnostics.warn)
    }
}

extension WardrobeStats.Dimension: ExpressibleByArgument {}

extension QueryCommand {
    /// The options of `suggest`: only there, and in range.
    func validateSuggestOptions() throws {
        let given = [season.map { _ in "--season" }, temperature.map { _ in "--temperature" }, occasion.map { _ in "--occasion" },
                     style.map { _ in "--style" }, count.map { _ in "--count" }, lock.isEmpty ? nil : "--lock",
                     seed.map { _ in "--seed" }, days.map { _ in "--days" }].compactMap { $0 }
        if let first = given.first, chosenView != .suggest { throw ValidationError("\(first) applies to suggest only") }
        if let count, !(1 ... 100).contains(count) { throw ValidationError("--count must be from 1 to 100") }
        if let days, !(1 ... 60).contains(days) { throw ValidationError("--days must be from 1 to 60") }
        if count != nil && days != nil { throw ValidationError("--count and --days cannot be used together (--days plans one outfit per day)") }
        if let temperature, !(-60 ... 60).contains(temperature) { throw ValidationError("--temperature is in degrees Celsius, from -60 to 60") }
        do {
            if let season { _ = try Domain.season.canonical(season) }
            if let style { _ = try Domain.style.canonical(style) }
            if let occasion { _ = try Occasion.named(occasion) }
        } catch {
            throw ValidationError(error.description)
        }
        for id in lock.flatMap({ $0.split(separator: ",") }) where !id.trimmingCharacters(in: .whitespaces).hasPrefix("g_") {
            throw ValidationError("--lock takes garment ids (g_…); got \"\(id)\"")
        }
    }
}

extension QueryCommand {
    /// `stats`: the groups, then the total, from a catalog (or a scratch one filled from a stream).
    func stats(_ reader: CatalogReader, filters: [FieldFilter], keys: [SortKey], projection: [[String]]?, out: RecordOutput) throws {
        // --where picks the garments counted; --sort, --limit and --fields shape the groups.
        // The total stays last, whatever the order of the groups.
        let stats = WardrobeStats(by: by, notWornDays: notWornDays, filters: filters, window: try statsWindow())
        var groups = try compare ? stats.compared(reader, warn: Diagnostics.warn) : stats.compute(reader, warn: Diagnostics.warn)
        let total = groups.popLast()
        if !keys.isEmpty { sortRecords(&groups, by: keys) }
        for record in groups.prefix(limit ?? groups.count) + (total.map { [$0] } ?? []) {
            try out.write(projection.map { projectRecord(record, fields: $0) } ?? record)
        }
    }
}

extension QueryCommand {
    /// `duplicates`: image records (from the catalog, or a stream) grouped by pHash distance.
    private func duplicates(filters: [FieldFilter], keys: [SortKey], projection: [[String]]?, out: RecordOutput) throws -> Int {
        var images: [JSONObject] = []
        if readsStream {
            let filter = StreamFilter(filters: filters + [try FieldFilter.parse("type=image")], sort: [], limit: nil, fields: nil)
            for file in streamFiles {
                try filter.collect(LineReader(path: file)) { images.append($0) }
            }
        } else {
            let store = try Catalog(path: catalog.path, create: false)
            try store.read { reader in
                let warnings = try reader.run(CatalogQuery(type: "image", filters: filters, sort: keys)) { images.append($0) }
                warnings.forEach(Diagnostics.warn)
            }
        }
        let threshold = threshold ?? DuplicateGrouping.defaultThreshold
        let grouping: DuplicateGrouping
        // Records that name no photo file (hashes from elsewhere) leave the features nothing to read.
        if hashOnly || !images.contains(where: { $0["path"]?.string != nil }) {
            grouping = DuplicateGrouping(images: images, threshold: threshold)
        } else {
            let search = try NearDuplicateSearch(progress: progress.progress)
            grouping = DuplicateGrouping(images: images, threshold: threshold, confirmWithin: verifyWithin ?? NearDuplicateSearch.defaultWithin,
                                         windowWithin: NearDuplicateSearch.windowWithin, judge: search)
            search.warnings.forEach(Diagnostics.warn)
        }
        if grouping.unhashed > 0 {
            Diagnostics.warn("\(grouping.unhashed) image\(grouping.unhashed == 1 ? " has" : "s have") no phash and \(grouping.unhashed == 1 ? "was" : "were") left out; add hashes with: atl-classify --task hash")
        }
        for record in grouping.records.prefix(limit ?? Int.max) {
            try out.write(projection.map { projectRecord(record, fields: $0) } ?? record)
        }
        try out.flush()
        return out.count
    }
}
