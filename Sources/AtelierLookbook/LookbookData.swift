import AtelierRecords

/// What a lookbook shows: the catalog's records (or those given on standard input), and for each
/// photo the file to copy into the site.
public struct LookbookData: Sendable {
    public var garments: [JSONObject] = []
    public var outfits: [JSONObject] = []
    /// Image records by id, with `thumbnailSquare`, `thumbnail` and `path` as absolute paths.
    public var images: [String: JSONObject] = [:]
    public var laundry: [JSONObject] = []
    /// `model` records, and the files made from each one's mesh (`ModelAssets`) by id; a model
    /// without files has no page.
    public var models: [JSONObject] = []
    public var modelAssets: [String: ModelAssets] = [:]
    /// `stats` records for the insights page, by grouping (category, month, garment…).
    public var stats: [String: [JSONObject]] = [:]
    /// The day the laundry plan is made for (days since 1970-01-01).
    public var today: Int

    public init(today: Int = ISODate.today()) { self.today = today }

    /// Adds a record by its type; other types are ignored (and counted by the caller).
    public mutating func add(_ record: JSONObject) -> Bool {
        switch record["type"]?.string {
        case "garment": garments.append(record)
        case "outfit": outfits.append(record)
        case "image":
            guard let id = record["id"]?.string else { return false }
            images[id] = record
        case "laundry": laundry.append(record)
        case "model": models.append(record)
        case "stats": stats[record["by"]?.string ?? "group", default: []].append(record)
        default: return false
        }
        return true
    }

    var garmentsByID: [String: JSONObject] {
        Dictionary(garments.compactMap { g in g["id"]?.string.map { ($0, g) } }, uniquingKeysWith: { a, _ in a })
    }
}
