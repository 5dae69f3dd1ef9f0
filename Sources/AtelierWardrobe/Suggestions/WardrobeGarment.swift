import AtelierRecords

/// A garment as outfit suggestions see it: what laundry knows of it (`LaundryGarment`: state,
/// colour, composition, wears since its wash) and what dressing adds, its seasons, how often it
/// has been worn and what it cost.
public struct WardrobeGarment: Sendable {
    public var garment: LaundryGarment
    /// Empty: any season.
    public var seasons: [String]
    public var wearCount: Int
    public var price: (amount: Double, currency: String)?

    public init(_ garment: LaundryGarment, seasons: [String] = [], wearCount: Int = 0, price: (amount: Double, currency: String)? = nil) {
        self.garment = garment
        self.seasons = seasons
        self.wearCount = wearCount
        self.price = price
    }

    /// The garment a `garment` record describes; nil without an `id`.
    public init?(record: JSONObject) {
        guard let garment = LaundryGarment(record: record) else { return nil }
        var wears = 0
        if case .int(let n)? = record["wearCount"] { wears = Int(clamping: n) }
        var price: (Double, String)?
        if let object = record["price"]?.object, let amount = object["amount"]?.number {
            price = (amount, object["currency"]?.string ?? "EUR")
        }
        self.init(garment, seasons: (record["seasons"]?.array ?? []).compactMap(\.string), wearCount: wears, price: price)
    }

    public var id: String { garment.id }
    public var name: String { garment.name }
    public var category: String? { garment.category }
    public var subcategory: String? { garment.subcategory }

    /// Whether it can be worn in `season` (a garment without seasons can be worn in any).
    public func isFor(season: String) -> Bool { seasons.isEmpty || seasons.contains(season) }

    /// Half or more of it is a warm fibre (wool, cashmere, fleece, down…).
    public var isWarmFabric: Bool { garment.percent(of: WeatherBand.warmFabrics) >= 50 }
}

/// What the wear log and the stored outfits say about garments together: when each was last
/// worn, which were worn together and how often, which pairs are in favourite outfits, and the
/// garment sets worn on recent days (so an outfit is not suggested again within a week).
public struct WearHistory: Sendable {
    /// The last day each garment was worn, by id.
    public private(set) var lastWorn: [String: Int] = [:]
    private var garmentsByDay: [Int: Set<String>] = [:]
    private var together: [GarmentPair: Int] = [:]
    private var favourite: Set<GarmentPair> = []
    /// Stored outfits by their garment set: a suggestion that is one of them carries its id.
    private var outfitsBySet: [Set<String>: (id: String, name: String)] = [:]
    private var favouriteNames: [GarmentPair: String] = [:]

    public init() {}

    /// Adds a wear-log entry of a garment on a day.
    public mutating func addWear(garment: String, day: Int) {
        lastWorn[garment] = max(lastWorn[garment] ?? day, day)
        garmentsByDay[day, default: []].insert(garment)
    }

    /// Adds a stored outfit: its garments, and whether it is a favourite.
    public mutating func addOutfit(id: String, name: String, garments: [String], favorite: Bool) {
        guard !garments.isEmpty else { return }
        outfitsBySet[Set(garments)] = (id, name)
        guard favorite else { return }
        for (i, a) in garments.enumerated() {
            for b in garments[(i + 1)...] where a != b {
                favourite.insert(GarmentPair(a, b))
                favouriteNames[GarmentPair(a, b)] = name
            }
        }
    }

    /// Counts, for every pair of garments, the days they were worn together. Call once after
    /// the wear log is added (on suggestions' first need, the suggester does).
    public mutating func countPairs() {
        together = [:]
        for garments in garmentsByDay.values where garments.count >= 2 {
            let sorted = garments.sorted()
            for (i, a) in sorted.enumerated() {
                for b in sorted[(i + 1)...] { together[GarmentPair(a, b), default: 0] += 1 }
            }
        }
    }

    /// Every pair worn together, with the days; and every pair in a favourite outfit (count 0
    /// when never worn together), once each.
    func forEachPair(_ body: (String, String, _ days: Int, _ favourite: Bool) -> Void) {
        for (pair, n) in together { body(pair.first, pair.second, n, favourite.contains(pair)) }
        for pair in favourite where together[pair] == nil { body(pair.first, pair.second, 0, true) }
    }

    /// How many days each garment was worn in `days` (by id; absent: none).
    public func wearCounts(in days: Range<Int>) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (day, garments) in garmentsByDay where days.contains(day) {
            for garment in garments { counts[garment, default: 0] += 1 }
        }
        return counts
    }

    /// The days two garments were worn together.
    public func timesTogether(_ a: String, _ b: String) -> Int { together[GarmentPair(a, b)] ?? 0 }

    /// The favourite outfit both garments are in, if any.
    public func favouriteOutfit(with a: String, _ b: String) -> String? {
        favourite.contains(GarmentPair(a, b)) ? favouriteNames[GarmentPair(a, b)] : nil
    }

    /// The stored outfit of exactly these garments.
    public func storedOutfit(_ garments: Set<String>) -> (id: String, name: String)? { outfitsBySet[garments] }

    /// Whether exactly this set of garments was worn on one of the `days` days before `day`.
    public func wasWorn(_ garments: Set<String>, within days: Int, before day: Int) -> Bool {
        (day - days ..< day).contains { garmentsByDay[$0] == garments }
    }
}

/// Two garment ids in order, so (a, b) and (b, a) are one pair.
struct GarmentPair: Hashable, Sendable {
    let first: String
    let second: String
    init(_ a: String, _ b: String) {
        (first, second) = a < b ? (a, b) : (b, a)
    }
}
