/// Typical dry weights of garments, for filling a washing machine to its capacity.
///
/// Machine capacities are given as dry cotton load (EN 60456), so these are dry weights of an
/// adult's garment of each kind, rounded: a men's cotton T-shirt is 150–200 g, jeans 600–800 g,
/// a wool coat 1.2–2 kg. A garment's own `weightGrams` overrides them.
public enum GarmentWeights {
    /// Grams by subcategory (`Domain.subcategories`).
    public static let bySubcategory: [String: Int] = [
        "tShirt": 180, "tankTop": 120, "shirt": 220, "blouse": 160, "polo": 230, "sweater": 500,
        "cardigan": 450, "hoodie": 600, "sweatshirt": 500, "turtleneck": 320,
        "jeans": 700, "trousers": 500, "chinos": 500, "shorts": 280, "skirt": 300, "leggings": 220, "joggers": 450,
        "coat": 1600, "jacket": 900, "blazer": 700, "parka": 1400, "raincoat": 600, "vest": 400, "trenchCoat": 1300,
        "dress": 350, "jumpsuit": 550, "overalls": 800, "suit": 1300, "romper": 300,
        "sneakers": 800, "boots": 1300, "sandals": 500, "heels": 500, "loafers": 700, "flats": 400, "slippers": 400,
        "scarf": 180, "hat": 120, "beanie": 90, "gloves": 120, "belt": 150, "bag": 400, "tie": 60, "jewelry": 30,
        "underwear": 70, "bra": 90, "socks": 60, "tights": 60, "pajamas": 450, "swimwear": 150, "sportsBra": 110,
        "costume": 600, "uniform": 700,
        "cropTop": 120, "camisole": 90, "bodysuit": 180, "tunic": 250, "culottes": 350, "cargoPants": 600,
        "puffer": 1100, "bomber": 800, "windbreaker": 350, "peacoat": 1500, "poncho": 500, "cape": 700,
        "oxfords": 900, "mules": 400, "espadrilles": 400, "clogs": 700,
        "watch": 80, "sunglasses": 30, "cap": 100, "backpack": 600, "wallet": 100, "headband": 30,
        "suspenders": 100, "umbrella": 400, "undershirt": 130, "slip": 100, "robe": 800, "apron": 200,
    ]

    /// Grams by category, for a garment without a subcategory.
    public static let byCategory: [String: Int] = [
        "top": 250, "bottom": 500, "outerwear": 1000, "onePiece": 450, "footwear": 800, "accessory": 150,
        "lingerie": 80, "other": 500,
    ]

    /// When neither is known.
    public static let fallback = 400

    /// The weight of a garment of this kind.
    public static func grams(subcategory: String?, category: String?) -> Int {
        subcategory.flatMap { bySubcategory[$0] } ?? category.flatMap { byCategory[$0] } ?? fallback
    }
}
