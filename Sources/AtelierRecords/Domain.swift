/// The wardrobe's vocabulary, following the app Atelier re-imagines (see atelier(7)).
public enum Domain {
    /// A garment subcategory with the number of wears before it wants washing.
    public struct Subcategory: Sendable {
        public let name: String
        public let category: String
        public let wearsBeforeWash: Int
    }

    public static let categoryNames = ["top", "bottom", "outerwear", "onePiece", "footwear", "accessory", "lingerie", "other"]

    public static let subcategories: [Subcategory] = {
        let table: [(String, [(String, Int)])] = [
            ("top", [("tShirt", 1), ("tankTop", 1), ("shirt", 2), ("blouse", 2), ("polo", 2), ("sweater", 5),
                     ("cardigan", 5), ("hoodie", 4), ("sweatshirt", 4), ("turtleneck", 3)]),
            ("bottom", [("jeans", 6), ("trousers", 4), ("chinos", 4), ("shorts", 2), ("skirt", 3),
                        ("leggings", 1), ("joggers", 3)]),
            ("outerwear", [("coat", 15), ("jacket", 10), ("blazer", 8), ("parka", 15), ("raincoat", 15),
                           ("vest", 8), ("trenchCoat", 15)]),
            ("onePiece", [("dress", 2), ("jumpsuit", 2), ("overalls", 4), ("suit", 6), ("romper", 2)]),
            ("footwear", [("sneakers", 10), ("boots", 15), ("sandals", 5), ("heels", 10), ("loafers", 10),
                          ("flats", 8), ("slippers", 10)]),
            ("accessory", [("scarf", 8), ("hat", 10), ("beanie", 6), ("gloves", 10), ("belt", 30),
                           ("bag", 30), ("tie", 5), ("jewelry", 50)]),
            ("lingerie", [("underwear", 1), ("bra", 3), ("socks", 1), ("tights", 1), ("pajamas", 3),
                          ("swimwear", 1), ("sportsBra", 1)]),
            ("other", [("costume", 2), ("uniform", 3)]),
        ]
        return table.flatMap { category, subs in
            subs.map { Subcategory(name: $0.0, category: category, wearsBeforeWash: $0.1) }
        }
    }()

    /// Wears before washing when a garment has no subcategory.
    public static let defaultWearsBeforeWash: [String: Int] = [
        "top": 2, "bottom": 4, "outerwear": 10, "onePiece": 2, "footwear": 10, "accessory": 10,
        "lingerie": 1, "other": 3,
    ]

    public static func subcategory(named name: String) -> Subcategory? {
        subcategories.first { $0.name == name }
    }

    public enum FabricGroup: String, Sendable { case natural, synthetic, mix }

    public static let fabrics: [(name: String, group: FabricGroup)] = [
        ("cotton", .natural), ("organicCotton", .natural), ("linen", .natural), ("wool", .natural),
        ("merino", .natural), ("cashmere", .natural), ("alpaca", .natural), ("mohair", .natural),
        ("angora", .natural), ("silk", .natural), ("hemp", .natural), ("leather", .natural),
        ("suede", .natural), ("down", .natural), ("fur", .natural), ("jute", .natural),
        ("polyester", .synthetic), ("nylon", .synthetic), ("acrylic", .synthetic), ("elastane", .synthetic),
        ("polypropylene", .synthetic), ("fleece", .synthetic), ("fauxLeather", .synthetic),
        ("viscose", .mix), ("modal", .mix), ("lyocell", .mix), ("cupro", .mix), ("acetate", .mix),
        ("bamboo", .mix), ("blend", .mix), ("denim", .natural), ("lace", .mix),
    ]

    public static func fabricGroup(_ fabric: String) -> FabricGroup? {
        fabrics.first { $0.name == fabric }?.group
    }

    public static let category = Vocabulary("category", categoryNames, aliases: ["outerWear": "outerwear", "shoes": "footwear", "dress": "onePiece", "underwear": "lingerie", "accessories": "accessory"])
    public static let subcategory = Vocabulary("subcategory", subcategories.map(\.name), aliases: ["tee": "tShirt", "pants": "trousers", "sneaker": "sneakers", "boot": "boots"])
    public static let season = Vocabulary("season", ["spring", "summer", "autumn", "winter"], aliases: ["fall": "autumn"])
    public static let style = Vocabulary("style", ["casual", "formal", "sporty", "elegant", "business"], aliases: ["sport": "sporty"])
    public static let state = Vocabulary("state", ["available", "toWash", "washing", "atLaundry", "onLoan", "underRepair", "drying"], aliases: ["dirty": "toWash", "loaned": "onLoan"])
    public static let fabric = Vocabulary("fabric", fabrics.map(\.name), aliases: ["spandex": "elastane", "lycra": "elastane", "polyamide": "nylon", "rayon": "viscose", "tencel": "lyocell"])
    public static let colorGroup = Vocabulary("colour group", ["whites", "darks", "pastels", "vibrant"])
    public static let colourTone = Vocabulary("colour tone", ["warm", "cool", "neutral"])
    public static let laundryBin = Vocabulary("laundry bin", [
        "whites", "whitesDelicate", "darks", "darksDelicate", "pastels", "pastelsDelicate",
        "vibrant", "vibrantDelicate", "denim", "activewear", "woolAndCashmere", "professional",
    ])
    public static let laundryStatus = Vocabulary("laundry status", ["planned", "washing", "drying", "paused", "done", "cancelled"])
    public static let detailLevel = Vocabulary("detail level", ["sparse", "preview", "reduced", "medium", "full", "raw", "custom"])
    public static let careSymbol = Vocabulary("care symbol", CareSymbolCodes.all)
}
