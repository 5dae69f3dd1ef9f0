import AtelierRecords

/// The weather an outfit is for: cold below 10 °C (outerwear and a warm layer), hot above 25 °C
/// (nothing heavy, no outerwear), mild between. Without a temperature, the season's usual.
public enum WeatherBand: String, Sendable {
    case cold, mild, hot

    public static let coldBelow = 10.0
    public static let hotAbove = 25.0

    public init(celsius: Double) {
        self = celsius < Self.coldBelow ? .cold : celsius > Self.hotAbove ? .hot : .mild
    }

    /// The usual weather of a season: winter cold, summer hot, spring and autumn mild.
    public init(season: String) {
        switch season {
        case "winter": self = .cold
        case "summer": self = .hot
        default: self = .mild
        }
    }

    /// Too warm to wear when hot: knits, boots, winter accessories.
    public static let heavySubcategories: Set<String> = [
        "sweater", "cardigan", "hoodie", "sweatshirt", "turtleneck", "boots", "beanie", "gloves", "scarf",
        "coat", "parka", "trenchCoat", "puffer", "peacoat",
    ]
    /// Fabrics that make a garment heavy when they are half of it or more.
    public static let warmFabrics: Set<String> = ["wool", "merino", "cashmere", "alpaca", "mohair", "angora", "fleece", "down", "fur",
                                                  "camel", "tweed", "shearling", "fauxFur"]
    /// Too light to wear when cold.
    public static let lightSubcategories: Set<String> = ["shorts", "sandals", "tankTop", "romper", "cropTop", "camisole", "espadrilles"]
    /// Worn over a lighter top when cold.
    public static let layerSubcategories: Set<String> = ["sweater", "cardigan", "hoodie", "sweatshirt"]
    /// Outerwear worn as a layer under a coat when cold.
    public static let layerOuterwear: Set<String> = ["blazer", "vest"]
    /// Warm enough to be the only outerwear when cold (a blazer or a vest is not).
    public static let coldOuterwear: Set<String> = ["coat", "parka", "jacket", "trenchCoat", "raincoat", "puffer", "peacoat", "bomber"]
    /// Accessories for the cold.
    public static let warmAccessories: Set<String> = ["scarf", "beanie", "gloves", "hat"]
}

/// The season of a day in the northern hemisphere, by month (December to February is winter).
public enum Seasons {
    public static func of(day: Int) -> String {
        switch ISODate.civil(fromDayNumber: day).month {
        case 12, 1, 2: return "winter"
        case 3, 4, 5: return "spring"
        case 6, 7, 8: return "summer"
        default: return "autumn"
        }
    }
}
