/// How formal a garment is, on a scale from 0 (sportswear) through 1 (casual) and 3 (business,
/// elegant) to 4 (formal): from its `style` when it has one, else from what kind of garment it is
/// (a tie is formal, joggers are not), else its category's middle.
public enum Formality {
    public static let byStyle: [String: Double] = ["sporty": 0, "casual": 1, "business": 3, "elegant": 3, "formal": 4]

    /// Garments without a style, by subcategory (`Domain.subcategories`).
    public static let bySubcategory: [String: Double] = [
        "tShirt": 1, "tankTop": 0.5, "shirt": 2, "blouse": 2, "polo": 1.5, "sweater": 1.5, "cardigan": 2,
        "hoodie": 0.75, "sweatshirt": 0.75, "turtleneck": 2,
        "jeans": 1, "trousers": 2.5, "chinos": 2, "shorts": 0.5, "skirt": 2, "leggings": 0, "joggers": 0.5,
        "coat": 3, "jacket": 2, "blazer": 3, "parka": 1, "raincoat": 1.5, "vest": 2, "trenchCoat": 3,
        "dress": 2.5, "jumpsuit": 2, "overalls": 1, "suit": 4, "romper": 1,
        "sneakers": 0.5, "boots": 2, "sandals": 1, "heels": 3.5, "loafers": 2.5, "flats": 2, "slippers": 0,
        "scarf": 2, "hat": 2, "beanie": 1, "gloves": 2, "belt": 2, "bag": 2, "tie": 4, "jewelry": 2.5,
        "cropTop": 0.75, "camisole": 1.5, "bodysuit": 1.5, "tunic": 1.5, "culottes": 2, "cargoPants": 1,
        "puffer": 1, "bomber": 1.5, "windbreaker": 0.75, "peacoat": 2.5, "poncho": 1, "cape": 2.5,
        "oxfords": 3, "mules": 2, "espadrilles": 1, "clogs": 1,
        "watch": 2.5, "sunglasses": 1.5, "cap": 0.75, "backpack": 1, "wallet": 2, "headband": 1,
        "suspenders": 3, "umbrella": 2,
    ]

    public static let byCategory: [String: Double] = [
        "top": 1.5, "bottom": 1.5, "outerwear": 2, "onePiece": 2, "footwear": 1.5, "accessory": 2,
    ]

    /// The level of a garment of this style and kind.
    public static func level(style: String?, subcategory: String?, category: String?) -> Double {
        style.flatMap { byStyle[$0] } ?? subcategory.flatMap { bySubcategory[$0] } ?? category.flatMap { byCategory[$0] } ?? 1.5
    }

    /// How well the levels of an outfit's pieces agree, 0 … 1: a spread of one step is normal
    /// (jeans with a blazer is smart casual), each step beyond costs a third. With a `target`
    /// (the occasion's), closeness to it counts for half.
    public static func agreement(_ levels: [Double], target: Double? = nil) -> Double {
        guard let low = levels.min(), let high = levels.max() else { return 1 }
        let spread = max(0, 1 - max(0, high - low - 1) / 3)
        guard let target else { return spread }
        let distance = levels.reduce(0) { $0 + abs($1 - target) } / Double(levels.count)
        return 0.5 * spread + 0.5 * max(0, 1 - distance / 4)
    }

    /// A word for a level, for the reasons a suggestion gives.
    public static func word(_ level: Double) -> String {
        switch level {
        case ..<0.75: return "sporty"
        case ..<1.75: return "casual"
        case ..<2.75: return "smart casual"
        case ..<3.75: return "business"
        default: return "formal"
        }
    }
}
