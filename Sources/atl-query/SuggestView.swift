import AtelierCLI
import AtelierCatalog
import AtelierRecords
import AtelierWardrobe

extension QueryCommand {
    /// `suggest`: outfits for a day (or a trip's with --days), from the catalog or from the
    /// garment, outfit and wear records of a stream (read into a scratch catalog, so both see
    /// the same wear counts and log). Nothing is stored until the records go to atl-import.
    func suggest(filters: [FieldFilter], projection: [[String]]?, day: Int, out: RecordOutput) throws -> Int {
        let request = try suggestionRequest(day: day)
        let suggester = try readWardrobe(filters: filters, day: day) { garments, history in
            try OutfitSuggester(garments: garments, history: history, request: request)
        }
        suggester.warnings.forEach(Diagnostics.warn)
        var records: [JSONObject] = []
        if let days {
            let capsule = try suggester.capsule(days: days)
            for (i, outfit) in capsule.outfits.enumerated() {
                let dayName = ISODate.formatDay(day + i)
                records.append(outfit.record(request: request, name: "\(dayName): \(outfit.name)"))
            }
            if capsule.differentCores < days && !capsule.outfits.isEmpty {
                Diagnostics.warn("the wardrobe makes \(capsule.differentCores) different outfit\(capsule.differentCores == 1 ? "" : "s") for these \(days) days; some are worn twice")
            }
            if !capsule.outfits.isEmpty { records.append(capsule.record(request: request)) }
        } else {
            let outfits = try suggester.suggest()
            if outfits.count < request.count && !outfits.isEmpty {
                Diagnostics.warn("only \(outfits.count) different outfit\(outfits.count == 1 ? "" : "s") can be made of \(request.count) asked for")
            }
            records = outfits.map { $0.record(request: request) }
        }
        if records.isEmpty { Diagnostics.warn("no outfit that has not been worn in the last week can be made for \(ISODate.formatDay(day))") }
        for record in records.prefix(limit ?? records.count) {
            try out.write(projection.map { projectRecord(record, fields: $0) } ?? record)
        }
        try out.flush()
        return out.count
    }

    /// The request the options describe.
    private func suggestionRequest(day: Int) throws -> SuggestionRequest {
        let occasion = try self.occasion.map { word throws(RecordsError) in try Occasion.named(word) }
        let locks = lock.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        return SuggestionRequest(day: day, season: try season.map { try Domain.season.canonical($0) }, temperature: temperature,
                                 occasion: occasion, style: try style.map { try Domain.style.canonical($0) },
                                 locked: locks, count: count ?? 1, seed: seed ?? 0)
    }

    /// The garments (those --where picks), the stored outfits and the last year of the wear
    /// log, from the catalog or a stream, handed to `body`.
    private func readWardrobe<T>(filters: [FieldFilter], day: Int, _ body: ([WardrobeGarment], WearHistory) throws -> T) throws -> T {
        func read(_ reader: CatalogReader) throws -> T {
            var garments: [WardrobeGarment] = []
            var history = WearHistory()
            let warnings = try reader.run(CatalogQuery(type: "garment", filters: filters, today: day)) { record in
                if let garment = WardrobeGarment(record: record) { garments.append(garment) }
            }
            warnings.forEach(Diagnostics.warn)
            _ = try reader.run(CatalogQuery(type: "outfit")) { record in
                guard let id = record["id"]?.string else { return }
                history.addOutfit(id: id, name: record["name"]?.string ?? id,
                                  garments: (record["garments"]?.array ?? []).compactMap(\.string),
                                  favorite: record["favorite"]?.bool ?? false)
            }
            let yearAgo = try FieldFilter.parse("date>=\(ISODate.formatDay(day - 365))")
            _ = try reader.run(CatalogQuery(type: "wear", filters: [yearAgo])) { record in
                guard let garment = record["garment"]?.string, let date = record["date"]?.string.flatMap(ISODate.parseDay) else { return }
                history.addWear(garment: garment, day: date)
            }
            return try body(garments, history)
        }
        if readsStream { return try ScratchCatalog.read(streamFiles, read) }
        return try Catalog(path: catalog.path, create: false).read(read)
    }
}
