import AtelierRecords
import XCTest
@testable import AtelierWardrobe

/// The suggester's promises over hundreds of seeded random wardrobes, wear logs and requests:
/// every suggestion is complete and valid for its filters, locked garments are kept, the same
/// seed gives the same outfits, `--count` outfits differ, nothing worn in the last week comes
/// back, and a capsule's outfits are made of its packing list.
///
/// A failure names the seed of the wardrobe (`Self.case(seed:)` rebuilds it).
final class OutfitSuggesterPropertyTests: XCTestCase {
    /// 2026-11-15.
    static let today = ISODate.dayNumber(year: 2026, month: 11, day: 15)
    static let caseCount = 400
    static let firstSeed: UInt64 = 0x5066_2026_1115

    struct Case {
        let seed: UInt64
        let garments: [WardrobeGarment]
        let history: WearHistory
        /// Garment ids by day worn, for checking repeats.
        let worn: [Int: Set<String>]
        let request: SuggestionRequest
    }

    static let kinds: [(category: String, subcategories: [String], share: Int)] = [
        ("top", ["tShirt", "shirt", "blouse", "polo", "sweater", "cardigan", "hoodie", "turtleneck", "tankTop"], 30),
        ("bottom", ["jeans", "trousers", "chinos", "shorts", "skirt", "leggings", "joggers"], 18),
        ("onePiece", ["dress", "jumpsuit", "romper"], 6),
        ("outerwear", ["coat", "jacket", "blazer", "parka", "raincoat", "vest", "trenchCoat"], 9),
        ("footwear", ["sneakers", "boots", "sandals", "heels", "loafers", "flats"], 12),
        ("accessory", ["scarf", "hat", "beanie", "gloves", "belt", "bag", "jewelry"], 15),
        ("lingerie", ["socks", "underwear"], 10),
    ]
    static let palette = ["#ffffff", "#111111", "#1f2a44", "#808080", "#c3b091", "#3b5b8c", "#c8102e", "#228b22",
                          "#ffa500", "#aec6e8", "#6f4e37", "#e30b5c", "#f5f5dc", "#008080"]
    static let states = ["available", "available", "available", "available", "available", "toWash", "atLaundry", "onLoan", "drying"]

    static func `case`(seed: UInt64) -> Case {
        var random = SplitMix64(seed: seed)
        let count = random.integer(8 ... 90)
        let shares = kinds.reduce(0) { $0 + $1.share }
        var garments: [WardrobeGarment] = []
        for i in 0 ..< count {
            var roll = random.below(shares)
            var kind = kinds[0]
            for k in kinds { if roll < k.share { kind = k; break }; roll -= k.share }
            let sub = kind.subcategories[random.below(kind.subcategories.count)]
            let seasons = random.chance(0.5) ? [] : Array(Domain.season.values.filter { _ in random.chance(0.6) })
            let style = random.chance(0.4) ? Domain.style.values[random.below(Domain.style.values.count)] : nil
            var garment = LaundryGarment(id: String(format: "g_%04d", i), name: "\(sub) \(i)", category: kind.category, subcategory: sub,
                                         style: style, state: random.chance(0.2) ? states[random.below(states.count)] : nil,
                                         colour: random.chance(0.9) ? GarmentColour(hex: palette[random.below(palette.count)]) : nil,
                                         composition: random.chance(0.2) ? [("wool", 80), ("nylon", 20)] : [("cotton", 100)],
                                         wearsSinceWash: random.chance(0.3) ? random.integer(1 ... 6) : 0, lastWashedOn: today - random.integer(0 ... 60))
            if random.chance(0.1) { garment.lastWornOn = today - random.integer(0 ... 20) }
            garments.append(WardrobeGarment(garment, seasons: seasons, wearCount: random.integer(0 ... 40),
                                            price: random.chance(0.7) ? (Double(random.integer(5 ... 300)), "EUR") : nil))
        }
        var history = WearHistory()
        var worn: [Int: Set<String>] = [:]
        for back in 1 ... 30 where random.chance(0.8) && !garments.isEmpty {
            let day = today - back
            for _ in 0 ..< random.integer(2 ... 5) {
                let id = garments[random.below(garments.count)].id
                history.addWear(garment: id, day: day)
                worn[day, default: []].insert(id)
            }
        }
        for o in 0 ..< random.integer(0 ... 4) where garments.count >= 3 {
            let ids = (0 ..< 3).map { _ in garments[random.below(garments.count)].id }
            history.addOutfit(id: "o_\(o)", name: "Outfit \(o)", garments: ids, favorite: random.chance(0.5))
        }
        let temperature: Double? = random.chance(0.7) ? Double(random.integer(-5 ... 34)) : nil
        let occasion = random.chance(0.3) ? Occasion.all[random.below(Occasion.all.count)] : nil
        let style = occasion == nil && random.chance(0.15) ? Domain.style.values[random.below(Domain.style.values.count)] : nil
        var locked: [String] = []
        if random.chance(0.25), let pick = garments.filter({ ($0.garment.state ?? "available") == "available" && ["top", "bottom", "footwear"].contains($0.category ?? "") }).first {
            locked = [pick.id]
        }
        let request = SuggestionRequest(day: today + random.integer(0 ... 120), temperature: temperature, occasion: occasion, style: style,
                                        locked: locked, count: random.integer(1 ... 4), seed: random.next())
        return Case(seed: seed, garments: garments, history: history, worn: worn, request: request)
    }

    static let cases: [Case] = (0 ..< caseCount).map { OutfitSuggesterPropertyTests.case(seed: firstSeed &+ UInt64($0)) }

    func testEverySuggestionIsCompleteAndValidForItsFilters() throws {
        var suggested = 0, empty = 0
        for c in Self.cases {
            let result = Result { () throws(SuggestionError) -> [SuggestedOutfit] in
                try OutfitSuggester(garments: c.garments, history: c.history, request: c.request).suggest()
            }
            guard case .success(let outfits) = result else {
                guard case .failure(.emptySlot) = result else { return XCTFail("seed \(c.seed): \(result)") }
                empty += 1
                continue
            }
            let locked = Set(c.request.locked)
            var sets: Set<Set<String>> = []
            for outfit in outfits {
                suggested += 1
                let categories = outfit.garments.map { $0.category ?? "" }
                let context = "seed \(c.seed): \(outfit.garments.map(\.id))"
                XCTAssertEqual(categories.filter { $0 == "footwear" }.count, 1, context)
                let onePieces = categories.filter { $0 == "onePiece" }.count
                let bottoms = categories.filter { $0 == "bottom" }.count
                let tops = categories.filter { $0 == "top" }.count
                XCTAssertTrue((onePieces == 1 && bottoms == 0) || (onePieces == 0 && bottoms == 1 && tops >= 1), context)
                XCTAssertLessThanOrEqual(tops, 2, context)
                let outer = categories.filter { $0 == "outerwear" }.count
                // One outerwear; two when cold, a blazer or vest under a coat.
                let layeredOuter = outfit.garments.filter { WeatherBand.layerOuterwear.contains($0.subcategory ?? "") }.count
                XCTAssertLessThanOrEqual(outer, c.request.band == .cold ? 1 + layeredOuter : 1, context)
                XCTAssertLessThanOrEqual(layeredOuter, 1, context)
                if c.request.band == .cold { XCTAssertTrue(outfit.garments.contains { WeatherBand.coldOuterwear.contains($0.subcategory ?? "") } || !locked.isEmpty, context) }
                if c.request.band == .hot && locked.isEmpty { XCTAssertEqual(outer, 0, context) }
                XCTAssertFalse(categories.contains("lingerie"), context)
                XCTAssertLessThanOrEqual(outfit.garments.filter { $0.category == "accessory" && !locked.contains($0.id) }.count, 2, context)
                XCTAssertEqual(Set(outfit.garments.map(\.id)).count, outfit.garments.count, "a garment twice: \(context)")
                for g in outfit.garments where !locked.contains(g.id) {
                    XCTAssertEqual(g.garment.state ?? "available", "available", context)
                    XCTAssertFalse(g.garment.isReadyToWash(on: c.request.day), "dirty \(g.id): \(context)")
                    XCTAssertTrue(g.isFor(season: c.request.season), context)
                    if c.request.band == .hot { XCTAssertFalse(WeatherBand.heavySubcategories.contains(g.subcategory ?? "") || g.isWarmFabric, context) }
                    if c.request.band == .cold { XCTAssertFalse(WeatherBand.lightSubcategories.contains(g.subcategory ?? ""), context) }
                    if let style = c.request.style, let own = g.garment.style { XCTAssertEqual(own, style, context) }
                    if let occasion = c.request.occasion {
                        XCTAssertTrue(occasion.range.contains(Formality.level(style: g.garment.style, subcategory: g.subcategory, category: g.category)), context)
                    }
                }
                // --lock honoured: every locked garment in every outfit.
                XCTAssertTrue(locked.isSubset(of: Set(outfit.garments.map(\.id))), context)
                // Different outfits, none worn in the week before.
                XCTAssertTrue(sets.insert(Set(outfit.garments.map(\.id))).inserted, "repeated within a run: \(context)")
                for back in 0 ... 7 {
                    XCTAssertNotEqual(c.worn[c.request.day - back], Set(outfit.garments.map(\.id)), "worn \(back) days before: \(context)")
                }
                // The score's parts are in range, and the reasons are there.
                for part in [outfit.score.rotation, outfit.score.harmony, outfit.score.formality, outfit.score.pairs] {
                    XCTAssertTrue((0 ... 1).contains(part), context)
                }
                XCTAssertFalse(outfit.score.reasons.isEmpty, context)
                // The fast score agrees with the reference definitions of its parts.
                let colours = outfit.garments.compactMap { $0.garment.colour.map(HarmonyColour.init) }
                XCTAssertEqual(outfit.score.harmony, ColourScheme.harmony(colours).score, accuracy: 1e-12, context)
                let levels = outfit.garments.map { Formality.level(style: $0.garment.style, subcategory: $0.subcategory, category: $0.category) }
                XCTAssertEqual(outfit.score.formality, Formality.agreement(levels, target: c.request.occasion?.target), accuracy: 1e-12, context)
            }
        }
        // The generator must give the checks something to check, and some empty wardrobes.
        XCTAssertGreaterThan(suggested, Self.caseCount)
        XCTAssertGreaterThan(empty, 0)
    }

    func testTheSameSeedGivesTheSameOutfitsAndAnotherSeedCanDiffer() throws {
        var differed = 0
        for c in Self.cases.prefix(150) {
            guard let first = try? OutfitSuggester(garments: c.garments, history: c.history, request: c.request).suggest(),
                  let again = try? OutfitSuggester(garments: c.garments, history: c.history, request: c.request).suggest() else { continue }
            XCTAssertEqual(first.map { $0.record(request: c.request) }, again.map { $0.record(request: c.request) }, "seed \(c.seed)")
            var other = c.request
            other.seed = c.request.seed &+ 1
            if let third = try? OutfitSuggester(garments: c.garments, history: c.history, request: other).suggest(),
               third.map({ $0.garments.map(\.id) }) != first.map({ $0.garments.map(\.id) }) { differed += 1 }
        }
        XCTAssertGreaterThan(differed, 5, "the seed never changes anything")
    }

    func testACapsuleIsMadeOfItsPackingListWithFewerGarmentsThanDays() throws {
        var planned = 0
        for c in Self.cases.prefix(200) {
            var request = c.request
            request.count = 1
            for days in [3, 7] {
                guard let capsule = try? OutfitSuggester(garments: c.garments, history: c.history, request: request).capsule(days: days),
                      !capsule.outfits.isEmpty else { continue }
                planned += 1
                XCTAssertEqual(capsule.outfits.count, days, "seed \(c.seed)")
                let packed = Set(capsule.garments.map(\.id))
                XCTAssertEqual(packed.count, capsule.garments.count)
                var cores: Set<Set<String>> = []
                for outfit in capsule.outfits {
                    XCTAssertTrue(Set(outfit.garments.map(\.id)).isSubset(of: packed), "seed \(c.seed)")
                    cores.insert(Set(outfit.garments.filter { ["top", "bottom", "onePiece"].contains($0.category ?? "") }.map(\.id)))
                }
                // Different cores, as many as the packed garments make (up to the days).
                XCTAssertEqual(cores.count, min(days, capsule.differentCores), "seed \(c.seed)")
                // A capsule packs fewer pieces than wearing a new outfit each day would.
                if capsule.differentCores >= days && days == 7 {
                    let naive = capsule.outfits.reduce(0) { $0 + $1.garments.count }
                    XCTAssertLessThan(capsule.garments.count, naive, "seed \(c.seed)")
                }
            }
        }
        XCTAssertGreaterThan(planned, 50)
    }
}
