import AtelierRecords
import Foundation

/// A realistic demo wardrobe: 44 garments across every category, each with its care label and
/// composition, 10 outfits, three months of wear log ending today, and a week of laundry (a
/// load finished three days ago, one planned today). Ids and choices come from a fixed seed, so importing it twice upserts
/// the same records and logs nothing new.
public enum SampleWardrobe {
    /// name, subcategory, brand, hex colour, colour name, seasons, style, composition, care, price, bought
    private typealias Item = (String, String, String, String, String, [String], String, [(String, Int)], [String], Double, String)

    private static let items: [Item] = [
        ("White Oxford Shirt", "shirt", "Uniqlo", "#f5f5f0", "white", ["spring", "summer", "autumn"], "business", [("cotton", 100)], ["wash-40", "bleach-non-chlorine", "tumble-low", "iron-medium"], 39.9, "2024-03-02"),
        ("Light Blue Poplin Shirt", "shirt", "COS", "#aec6e8", "light blue", ["spring", "summer"], "business", [("cotton", 97), ("elastane", 3)], ["wash-40", "tumble-low", "iron-medium"], 59, "2024-05-18"),
        ("Black Crew T-Shirt", "tShirt", "Muji", "#111111", "black", ["spring", "summer", "autumn"], "casual", [("organicCotton", 100)], ["wash-30", "tumble-low", "iron-low"], 14.9, "2025-02-11"),
        ("White Crew T-Shirt", "tShirt", "Muji", "#fafafa", "white", ["spring", "summer"], "casual", [("organicCotton", 100)], ["wash-40", "tumble-low", "iron-medium"], 14.9, "2025-02-11"),
        ("Striped Breton Top", "tShirt", "Saint James", "#1b2a4a", "navy", ["spring", "summer"], "casual", [("cotton", 100)], ["wash-40", "bleach-no", "dry-flat", "iron-medium"], 79, "2023-06-01"),
        ("Silk Ivory Blouse", "blouse", "& Other Stories", "#f3ead8", "ivory", ["spring", "summer"], "elegant", [("silk", 100)], ["wash-hand", "bleach-no", "tumble-no", "iron-low", "pro-p"], 89, "2024-09-14"),
        ("Grey Merino Sweater", "sweater", "Arket", "#8a8d91", "grey", ["autumn", "winter"], "casual", [("merino", 100)], ["wash-30-very-mild", "bleach-no", "tumble-no", "dry-flat", "iron-low"], 99, "2023-11-20"),
        ("Navy Cashmere Crewneck", "sweater", "Everlane", "#1d2b4f", "navy", ["winter"], "elegant", [("cashmere", 100)], ["wash-hand", "bleach-no", "tumble-no", "dry-flat", "iron-low", "pro-p"], 145, "2022-12-05"),
        ("Cream Cable Cardigan", "cardigan", "Mango", "#efe6d2", "cream", ["autumn", "winter"], "casual", [("wool", 60), ("nylon", 40)], ["wash-30-mild", "bleach-no", "tumble-no", "dry-flat"], 69.99, "2024-10-03"),
        ("Olive Hoodie", "hoodie", "Carhartt WIP", "#5b5f3a", "olive", ["autumn", "winter", "spring"], "casual", [("cotton", 80), ("polyester", 20)], ["wash-30", "tumble-low", "iron-low"], 89, "2024-01-15"),
        ("Black Turtleneck", "turtleneck", "Uniqlo", "#0f0f10", "black", ["autumn", "winter"], "elegant", [("merino", 100)], ["wash-30-mild", "tumble-no", "dry-flat", "iron-low"], 39.9, "2023-10-10"),
        ("Red Sports Tank", "tankTop", "Nike", "#c8102e", "red", ["summer"], "sporty", [("polyester", 88), ("elastane", 12)], ["wash-30", "bleach-no", "tumble-no", "iron-no"], 29.99, "2025-04-22"),
        ("Green Polo", "polo", "Lacoste", "#1e5b3a", "green", ["summer"], "casual", [("cotton", 100)], ["wash-40", "tumble-low", "iron-medium"], 95, "2022-06-30"),
        ("Raw Denim Jeans", "jeans", "Levi's", "#1c2841", "indigo", ["spring", "autumn", "winter"], "casual", [("cotton", 99), ("elastane", 1)], ["wash-30", "bleach-no", "tumble-no", "dry-line", "iron-medium"], 110, "2023-04-08"),
        ("Black Skinny Jeans", "jeans", "Weekday", "#16161a", "black", ["spring", "autumn", "winter"], "casual", [("cotton", 92), ("polyester", 6), ("elastane", 2)], ["wash-30", "bleach-no", "tumble-low", "iron-medium"], 60, "2024-08-12"),
        ("Beige Chinos", "chinos", "Dockers", "#c8b48c", "beige", ["spring", "summer", "autumn"], "business", [("cotton", 98), ("elastane", 2)], ["wash-40", "tumble-low", "iron-medium"], 75, "2024-03-19"),
        ("Charcoal Wool Trousers", "trousers", "Massimo Dutti", "#3a3b3f", "charcoal", ["autumn", "winter"], "formal", [("wool", 98), ("elastane", 2)], ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"], 129, "2023-09-25"),
        ("Linen Shorts", "shorts", "H&M", "#d9cbb0", "sand", ["summer"], "casual", [("linen", 100)], ["wash-40", "tumble-no", "dry-line", "iron-high"], 24.99, "2025-06-01"),
        ("Pleated Midi Skirt", "skirt", "Zara", "#7a1f3d", "burgundy", ["autumn", "spring"], "elegant", [("polyester", 100)], ["wash-30-mild", "bleach-no", "tumble-no", "iron-low"], 45.95, "2024-10-21"),
        ("Black Running Leggings", "leggings", "Lululemon", "#0a0a0a", "black", ["spring", "summer", "autumn", "winter"], "sporty", [("nylon", 75), ("elastane", 25)], ["wash-30", "bleach-no", "tumble-no", "iron-no"], 98, "2024-02-14"),
        ("Grey Joggers", "joggers", "Adidas", "#9a9ca0", "grey", ["autumn", "winter", "spring"], "sporty", [("cotton", 70), ("polyester", 30)], ["wash-30", "tumble-low", "iron-low"], 55, "2024-11-02"),
        ("Camel Wool Coat", "coat", "Max Mara", "#b5895b", "camel", ["winter", "autumn"], "elegant", [("wool", 90), ("cashmere", 10)], ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"], 420, "2021-11-13"),
        ("Navy Peacoat", "coat", "Schott", "#1a2238", "navy", ["winter"], "casual", [("wool", 80), ("nylon", 20)], ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"], 260, "2022-10-30"),
        ("Denim Jacket", "jacket", "Levi's", "#4b6c9a", "mid blue", ["spring", "autumn"], "casual", [("cotton", 100)], ["wash-30", "bleach-no", "tumble-low", "iron-medium"], 98, "2023-03-27"),
        ("Black Leather Jacket", "jacket", "AllSaints", "#121212", "black", ["spring", "autumn"], "casual", [("leather", 100)], ["wash-no", "bleach-no", "tumble-no", "iron-no", "pro-no"], 399, "2022-04-16"),
        ("Navy Blazer", "blazer", "Suitsupply", "#202a44", "navy", ["spring", "autumn", "winter"], "business", [("wool", 100)], ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"], 299, "2023-01-09"),
        ("Yellow Raincoat", "raincoat", "Rains", "#f2c12e", "yellow", ["spring", "autumn"], "casual", [("polyester", 100)], ["wash-30-mild", "bleach-no", "tumble-no", "iron-no", "pro-no"], 95, "2024-04-04"),
        ("Down Parka", "parka", "Patagonia", "#2e3b2f", "forest green", ["winter"], "sporty", [("nylon", 100)], ["wash-30-mild", "bleach-no", "tumble-low", "iron-no", "pro-no"], 329, "2023-12-01"),
        ("Floral Summer Dress", "dress", "Sézane", "#e8a0a8", "pink", ["summer", "spring"], "casual", [("viscose", 100)], ["wash-30-mild", "bleach-no", "tumble-no", "dry-line", "iron-low"], 120, "2025-05-10"),
        ("Little Black Dress", "dress", "Reformation", "#0d0d0d", "black", ["spring", "summer", "autumn", "winter"], "elegant", [("lyocell", 95), ("elastane", 5)], ["wash-30-mild", "bleach-no", "tumble-no", "iron-low"], 178, "2023-12-20"),
        ("Navy Jumpsuit", "jumpsuit", "Whistles", "#22305a", "navy", ["summer", "spring"], "elegant", [("linen", 55), ("viscose", 45)], ["wash-30-mild", "tumble-no", "iron-medium"], 149, "2024-06-07"),
        ("Grey Two-Piece Suit", "suit", "Hugo Boss", "#55585d", "grey", ["autumn", "winter", "spring"], "formal", [("wool", 100)], ["wash-no", "bleach-no", "tumble-no", "iron-low", "pro-p"], 599, "2022-09-15"),
        ("White Leather Sneakers", "sneakers", "Common Projects", "#f4f4f2", "white", ["spring", "summer", "autumn"], "casual", [("leather", 100)], ["wash-no", "bleach-no", "tumble-no", "iron-no"], 390, "2023-05-05"),
        ("Running Shoes", "sneakers", "Asics", "#2f6fd6", "blue", ["spring", "summer", "autumn", "winter"], "sporty", [("polyester", 70), ("nylon", 30)], ["wash-no", "tumble-no", "iron-no"], 140, "2025-01-20"),
        ("Chelsea Boots", "boots", "Blundstone", "#4a3222", "brown", ["autumn", "winter"], "casual", [("leather", 100)], ["wash-no", "bleach-no", "tumble-no", "iron-no"], 210, "2022-11-01"),
        ("Leather Sandals", "sandals", "Birkenstock", "#8b5a2b", "tan", ["summer"], "casual", [("leather", 100)], ["wash-no", "tumble-no", "iron-no"], 110, "2024-05-30"),
        ("Black Loafers", "loafers", "G.H. Bass", "#101010", "black", ["spring", "autumn", "winter"], "business", [("leather", 100)], ["wash-no", "tumble-no", "iron-no"], 185, "2023-08-19"),
        ("Wool Scarf", "scarf", "Acne Studios", "#6b7f99", "steel blue", ["winter", "autumn"], "casual", [("wool", 100)], ["wash-hand", "bleach-no", "tumble-no", "dry-flat", "iron-low"], 180, "2022-12-24"),
        ("Grey Beanie", "beanie", "Carhartt WIP", "#7d7f83", "grey", ["winter"], "casual", [("acrylic", 100)], ["wash-30", "bleach-no", "tumble-no", "dry-flat"], 25, "2023-11-03"),
        ("Brown Leather Belt", "belt", "Anderson's", "#5a3a22", "brown", ["spring", "summer", "autumn", "winter"], "business", [("leather", 100)], ["wash-no", "tumble-no", "iron-no"], 95, "2021-07-07"),
        ("Canvas Tote Bag", "bag", "Baggu", "#d8cfc0", "natural", ["spring", "summer", "autumn"], "casual", [("cotton", 100)], ["wash-30", "tumble-no", "dry-line", "iron-medium"], 32, "2024-07-11"),
        ("Ankle Socks 5-Pack", "socks", "Falke", "#222222", "black", ["spring", "summer", "autumn", "winter"], "casual", [("cotton", 80), ("nylon", 17), ("elastane", 3)], ["wash-40", "tumble-low"], 35, "2025-03-03"),
        ("Sports Bra", "sportsBra", "Lululemon", "#3c4a5a", "slate", ["spring", "summer", "autumn", "winter"], "sporty", [("nylon", 72), ("elastane", 28)], ["wash-30", "bleach-no", "tumble-no", "iron-no"], 58, "2024-09-02"),
        ("Flannel Pajamas", "pajamas", "Eberjey", "#a94442", "red plaid", ["winter", "autumn"], "casual", [("cotton", 100)], ["wash-40", "tumble-low", "iron-medium"], 88, "2023-12-10"),
    ]

    /// Outfit name, garment indexes into `items`, occasions, favourite.
    private static let outfits: [(String, [Int], [String], Bool)] = [
        ("Office Monday", [0, 16, 25, 36, 39], ["work"], true),
        ("Smart Casual Friday", [1, 15, 23, 32], ["work", "drinks"], false),
        ("Weekend Errands", [2, 13, 32, 40], ["weekend"], true),
        ("Winter Walk", [6, 14, 21, 34, 37, 38], ["weekend", "outdoors"], true),
        ("Summer Picnic", [28, 35, 40], ["weekend", "outdoors"], false),
        ("Gym Session", [11, 19, 33, 42], ["sport"], false),
        ("Dinner Date", [29, 5, 21, 36], ["evening"], true),
        ("Rainy Commute", [9, 14, 26, 34], ["work"], false),
        ("Wedding Guest", [31, 0, 36, 39], ["event"], false),
        ("Cosy Sunday", [8, 20, 43], ["home"], true),
    ]

    /// Days before `today` each garment was last washed (or cleaned), by index into `items`;
    /// nil: never (a belt is brushed, not washed). Chosen so that, with the wear log below,
    /// about half the wardrobe wants washing on any day the sample is imported; none is more
    /// than 90 days, the span of the wear log (the examples' transcripts show such days as
    /// "today-Nd", so that they read the same on any day).
    private static let washedDaysAgo: [Int?] = [
        9, 4, 6, 3, 30, 10, 34, 41, 20, 35,       // shirts, tees, blouse, knitwear, hoodie
        5, 15, 31, 30, 35, 18, 75, 40, 32, 6,     // turtleneck … running leggings
        3, 90, 89, 25, 87, 86, 60, 84, 30, 12,    // joggers, coats, jackets, blazer, raincoat, parka, dresses
        5, 85, 10, 12, 20, 30, 9, 50, 33, nil,    // jumpsuit, suit, shoes, scarf, beanie, belt
        30, 4, 3, 12,                             // tote, socks, sports bra, pajamas
    ]

    /// The sample's laundry: a load finished three days ago and one planned today, by garment
    /// indexes into `items` (the bin, program and temperature their labels allow).
    private static let loads: [(bin: String, program: String, temperature: Int, members: [Int], status: String, daysAgo: Int)] = [
        ("whites", "cotton", 40, [0, 3], "done", 3),
        ("darks", "cotton", 30, [2, 41], "planned", 0),
    ]

    /// The sample as records ready for `CatalogWriter.apply`, wear log ending on `today`.
    public static func records(today: Int = ISODate.today()) -> [JSONObject] {
        var ids = RecordIDGenerator(seed: 20_261_121)
        let epoch = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01: stable ids
        var out: [JSONObject] = []
        var garmentIDs: [String] = []
        for (i, item) in items.enumerated() {
            let (name, sub, brand, hex, colorName, seasons, style, composition, care, price, bought) = item
            let id = ids.next("g", at: epoch)
            garmentIDs.append(id)
            var g = JSONObject()
            g["type"] = "garment"
            g["id"] = .string(id)
            g["name"] = .string(name)
            g["category"] = .string(Domain.subcategory(named: sub)!.category)
            g["subcategory"] = .string(sub)
            g["brand"] = .string(brand)
            g["color"] = .string(hex)
            g["colorName"] = .string(colorName)
            g["seasons"] = .array(seasons.map { .string($0) })
            g["style"] = .string(style)
            g["composition"] = .array(composition.map { ["fabric": .string($0.0), "percent": .int(Int64($0.1))] })
            g["care"] = .array(care.map { .string($0) })
            g["price"] = ["amount": price.rounded() == price ? .int(Int64(price)) : .double(price), "currency": "EUR"]
            g["purchasedOn"] = .string(bought)
            if let days = washedDaysAgo[i] { g["lastWashedOn"] = .string(ISODate.formatDay(today - days)) }
            if i % 7 == 3 { g["tags"] = ["favourite"] }
            if i == 21 { g["notes"] = "Dry clean only; store on a wide hanger." }
            out.append(g)
        }
        var outfitIDs: [String] = []
        for (name, members, occasions, favorite) in outfits {
            let id = ids.next("o", at: epoch)
            outfitIDs.append(id)
            var o = JSONObject()
            o["type"] = "outfit"
            o["id"] = .string(id)
            o["name"] = .string(name)
            o["garments"] = .array(members.map { .string(garmentIDs[$0]) })
            o["occasions"] = .array(occasions.map { .string($0) })
            o["favorite"] = .bool(favorite)
            out.append(o)
        }
        // Three months of wear: an outfit most days, extra single garments some days. The
        // choice depends only on how many days ago a day is, so the sample tells the same story
        // whenever it is imported (the examples' outputs rely on it), and re-importing on the
        // same day changes nothing.
        for day in (today - 90)...today {
            var rng = SplitMix64(seed: UInt64(today - day + 1) &* 2_654_435_761)
            if rng.next() % 10 < 7 {
                let outfit = outfitIDs[Int(rng.next() % UInt64(outfitIDs.count))]
                out.append(["type": "wear", "outfit": .string(outfit), "date": .string(ISODate.formatDay(day))])
            }
            if rng.next() % 3 == 0 {
                let garment = garmentIDs[Int(rng.next() % UInt64(garmentIDs.count))]
                out.append(["type": "wear", "garment": .string(garment), "date": .string(ISODate.formatDay(day))])
            }
        }
        for (bin, program, temperature, members, status, daysAgo) in loads {
            let day = ISODate.formatDay(today - daysAgo)
            var load: JSONObject = ["type": "laundry", "id": .string(ids.next("l", at: epoch)), "bin": .string(bin),
                                    "program": .string(program), "temperature": .int(Int64(temperature)),
                                    "garments": .array(members.map { .string(garmentIDs[$0]) }), "status": .string(status),
                                    "plannedOn": .string(day)]
            if status == "done" {
                load["startedAt"] = .string(day + "T09:00:00Z")
                load["finishedAt"] = .string(day + "T11:30:00Z")
            }
            out.append(load)
        }
        return out
    }
}
