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
                     ("cardigan", 5), ("hoodie", 4), ("sweatshirt", 4), ("turtleneck", 3), ("cropTop", 1),
                     ("camisole", 1), ("bodysuit", 1), ("tunic", 2)]),
            ("bottom", [("jeans", 6), ("trousers", 4), ("chinos", 4), ("shorts", 2), ("skirt", 3),
                        ("leggings", 1), ("joggers", 3), ("culottes", 3), ("cargoPants", 4)]),
            ("outerwear", [("coat", 15), ("jacket", 10), ("blazer", 8), ("parka", 15), ("raincoat", 15),
                           ("vest", 8), ("trenchCoat", 15), ("puffer", 15), ("bomber", 10), ("windbreaker", 10),
                           ("peacoat", 15), ("poncho", 10), ("cape", 10)]),
            ("onePiece", [("dress", 2), ("jumpsuit", 2), ("overalls", 4), ("suit", 6), ("romper", 2)]),
            ("footwear", [("sneakers", 10), ("boots", 15), ("sandals", 5), ("heels", 10), ("loafers", 10),
                          ("flats", 8), ("slippers", 10), ("oxfords", 10), ("mules", 8), ("espadrilles", 5),
                          ("clogs", 10)]),
            ("accessory", [("scarf", 8), ("hat", 10), ("beanie", 6), ("gloves", 10), ("belt", 30),
                           ("bag", 30), ("tie", 5), ("jewelry", 50), ("watch", 50), ("sunglasses", 50),
                           ("cap", 8), ("backpack", 30), ("wallet", 50), ("headband", 5), ("suspenders", 30),
                           ("umbrella", 50)]),
            ("lingerie", [("underwear", 1), ("bra", 3), ("socks", 1), ("tights", 1), ("pajamas", 3),
                          ("swimwear", 1), ("sportsBra", 1), ("undershirt", 1), ("slip", 2), ("robe", 4)]),
            ("other", [("costume", 2), ("uniform", 3), ("apron", 3)]),
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

    /// The known subcategory of this canonical name; nil for one the vocabulary does not know
    /// (subcategories are open: an unknown one is kept as given).
    public static func subcategory(named name: String) -> Subcategory? {
        subcategoryByName[name]
    }

    private static let subcategoryByName = Dictionary(uniqueKeysWithValues: subcategories.map { ($0.name, $0) })

    public enum FabricGroup: String, Sendable { case natural, synthetic, mix }

    /// Fibres and the cloths made of them that care depends on. Weaves named after their usual
    /// fibre (corduroy, flannel, tweed…) are here too, since labels and apps name them so.
    public static let fabrics: [(name: String, group: FabricGroup)] = [
        ("cotton", .natural), ("organicCotton", .natural), ("linen", .natural), ("wool", .natural),
        ("merino", .natural), ("cashmere", .natural), ("alpaca", .natural), ("mohair", .natural),
        ("angora", .natural), ("silk", .natural), ("hemp", .natural), ("leather", .natural),
        ("suede", .natural), ("down", .natural), ("fur", .natural), ("jute", .natural),
        ("polyester", .synthetic), ("nylon", .synthetic), ("acrylic", .synthetic), ("elastane", .synthetic),
        ("polypropylene", .synthetic), ("fleece", .synthetic), ("fauxLeather", .synthetic),
        ("viscose", .mix), ("modal", .mix), ("lyocell", .mix), ("cupro", .mix), ("acetate", .mix),
        ("bamboo", .mix), ("blend", .mix), ("denim", .natural), ("lace", .mix),
        ("ramie", .natural), ("camel", .natural), ("shearling", .natural), ("nubuck", .natural),
        ("corduroy", .natural), ("flannel", .natural), ("tweed", .natural), ("canvas", .natural),
        ("chambray", .natural), ("twill", .natural), ("poplin", .natural), ("terry", .natural),
        ("jersey", .mix), ("velvet", .mix), ("satin", .mix), ("chiffon", .mix), ("crepe", .mix),
        ("polyurethane", .synthetic), ("neoprene", .synthetic), ("fauxFur", .synthetic),
        ("microfiber", .synthetic), ("modacrylic", .synthetic), ("tulle", .synthetic), ("rubber", .synthetic),
    ]

    private static let fabricGroupByName = Dictionary(uniqueKeysWithValues: fabrics.map { ($0.name, $0.group) })

    /// The group of a known fabric; nil for one the vocabulary does not know.
    public static func fabricGroup(_ fabric: String) -> FabricGroup? {
        fabricGroupByName[fabric]
    }

    public static let category = Vocabulary("category", categoryNames, aliases: [
        "outerWear": "outerwear", "shoes": "footwear", "dress": "onePiece", "underwear": "lingerie",
        "accessories": "accessory", "tops": "top", "bottoms": "bottom", "jackets": "outerwear", "coats": "outerwear",
        "dresses": "onePiece", "onePieces": "onePiece", "footwears": "footwear", "intimates": "lingerie",
        "swimwear": "lingerie", "sleepwear": "lingerie", "bags": "accessory", "jewellery": "accessory",
    ])
    /// Open: a kind of garment it does not know is kept as given (with no wear limit of its own).
    public static let subcategory = Vocabulary("subcategory", subcategories.map(\.name), aliases: [
        "tee": "tShirt", "tees": "tShirt", "tShirts": "tShirt", "tank": "tankTop", "singlet": "tankTop",
        "shirts": "shirt", "buttonDown": "shirt", "jumper": "sweater", "pullover": "sweater", "knit": "sweater",
        "sweaters": "sweater", "hoody": "hoodie", "hoodies": "hoodie", "crewneck": "sweatshirt",
        "rollneck": "turtleneck", "poloNeck": "turtleneck", "cami": "camisole",
        "pants": "trousers", "slacks": "trousers", "sweatpants": "joggers", "trackPants": "joggers",
        "cargo": "cargoPants", "cargos": "cargoPants", "jean": "jeans", "skort": "skirt",
        "trench": "trenchCoat", "overcoat": "coat", "topcoat": "coat", "pufferJacket": "puffer",
        "downJacket": "puffer", "pufferCoat": "puffer", "bomberJacket": "bomber", "anorak": "windbreaker",
        "gilet": "vest", "waistcoat": "vest", "bodywarmer": "vest", "mac": "raincoat", "sportCoat": "blazer",
        "overall": "overalls", "dungarees": "overalls", "playsuit": "romper", "gown": "dress", "dresses": "dress",
        "sneaker": "sneakers", "trainers": "sneakers", "trainer": "sneakers", "boot": "boots",
        "ankleBoots": "boots", "chelseaBoots": "boots", "pumps": "heels", "stilettos": "heels", "wedges": "heels",
        "balletFlats": "flats", "ballerinas": "flats", "flipFlops": "sandals", "slides": "sandals",
        "moccasins": "loafers", "oxford": "oxfords", "brogues": "oxfords", "derbies": "oxfords", "mule": "mules",
        "handbag": "bag", "purse": "bag", "tote": "bag", "clutch": "bag", "bags": "bag", "necklace": "jewelry",
        "bracelet": "jewelry", "earrings": "jewelry", "ring": "jewelry", "jewellery": "jewelry",
        "bowTie": "tie", "mittens": "gloves", "baseballCap": "cap", "beret": "hat", "scarves": "scarf",
        "shades": "sunglasses", "rucksack": "backpack", "wristwatch": "watch",
        "boxers": "underwear", "briefs": "underwear", "panties": "underwear", "knickers": "underwear",
        "swimsuit": "swimwear", "bikini": "swimwear", "swimTrunks": "swimwear", "nightgown": "pajamas",
        "pyjamas": "pajamas", "sleepwear": "pajamas", "stockings": "tights", "pantyhose": "tights",
        "bathrobe": "robe", "dressingGown": "robe",
    ], open: true)
    public static let season = Vocabulary("season", ["spring", "summer", "autumn", "winter"], aliases: ["fall": "autumn"])
    public static let style = Vocabulary("style", ["casual", "formal", "sporty", "elegant", "business"], aliases: ["sport": "sporty"])
    /// `archived`: given away, sold or retired; kept with its history, but out of suggestions,
    /// laundry and the "not worn" lists.
    public static let state = Vocabulary("state", ["available", "toWash", "washing", "atLaundry", "onLoan", "underRepair", "drying", "archived"], aliases: [
        "dirty": "toWash", "inLaundry": "toWash", "laundry": "toWash", "inHamper": "toWash", "needsWash": "toWash",
        "clean": "available", "inCloset": "available", "inWardrobe": "available",
        "inWash": "washing", "inTheWash": "washing", "atDryCleaner": "atLaundry", "atCleaners": "atLaundry", "dryCleaning": "atLaundry",
        "loaned": "onLoan", "lent": "onLoan", "lentOut": "onLoan", "onLend": "onLoan",
        "inRepair": "underRepair", "repair": "underRepair", "atTailor": "underRepair", "mending": "underRepair",
        "retired": "archived", "sold": "archived", "donated": "archived", "givenAway": "archived", "discarded": "archived",
    ])
    /// Open: a cloth it does not know is kept as given (with no fabric group).
    public static let fabric = Vocabulary("fabric", fabrics.map(\.name), aliases: [
        "spandex": "elastane", "lycra": "elastane", "polyamide": "nylon", "rayon": "viscose", "tencel": "lyocell",
        "lambswool": "wool", "virginWool": "wool", "boiledWool": "wool", "merinoWool": "merino", "camelHair": "camel",
        "pimaCotton": "cotton", "supimaCotton": "cotton", "egyptianCotton": "cotton", "recycledCotton": "cotton",
        "recycledPolyester": "polyester", "poly": "polyester", "pu": "polyurethane", "veganLeather": "fauxLeather",
        "pleather": "fauxLeather", "syntheticLeather": "fauxLeather", "sheepskin": "shearling", "cord": "corduroy",
        "triacetate": "acetate", "microfibre": "microfiber", "gooseDown": "down", "duckDown": "down",
        "silkSatin": "satin", "jean": "denim", "cashmereWool": "cashmere",
    ], open: true)
    public static let colorGroup = Vocabulary("colour group", ["whites", "darks", "pastels", "vibrant"])
    public static let colourTone = Vocabulary("colour tone", ["warm", "cool", "neutral"])
    public static let laundryBin = Vocabulary("laundry bin", [
        "whites", "whitesDelicate", "darks", "darksDelicate", "pastels", "pastelsDelicate",
        "vibrant", "vibrantDelicate", "denim", "activewear", "woolAndCashmere", "professional",
    ])
    public static let laundryStatus = Vocabulary("laundry status", ["planned", "washing", "drying", "paused", "done", "cancelled"])
    public static let detailLevel = Vocabulary("detail level", ["sparse", "preview", "reduced", "medium", "full", "raw", "custom"])
    /// Closed (the codes are an interface), with the spellings other apps and labels use.
    public static let careSymbol = Vocabulary("care symbol", CareSymbolCodes.all, aliasList: CareSymbolCodes.aliases)
}
