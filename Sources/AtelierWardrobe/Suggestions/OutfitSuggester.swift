import AtelierRecords

/// Proposes outfits for a day: complete (a top and a bottom or a one-piece, footwear, outerwear
/// when cold, a warm layer over a light top when cold, an accessory when one is due), made only
/// of garments that are at home, clean, in season and fit for the weather and the occasion, and
/// chosen by `OutfitScore` (rotation first, then colour harmony, formality and familiar pairs).
///
/// The search: every top × bottom among the 40 that most want wearing in each (and every
/// one-piece) is scored as a core; the best dozen cores are completed slot by slot, each slot
/// taking the garment that scores best with what is already chosen; the best complete outfit
/// wins. A seeded jitter of up to 0.02 breaks near-ties, so `--seed` picks among near-equals
/// and the same seed repeats. An outfit worn in the last week (the same garments) is never
/// proposed, nor one proposed earlier in the same run.
public struct OutfitSuggester {
    public let request: SuggestionRequest
    public let garments: [WardrobeGarment]
    let history: WearHistory
    private(set) var need: [RotationNeed] = []
    let levels: [Double]
    let colours: [HarmonyColour?]
    let stableHash: [UInt64]
    /// What each pair of garments (by index, `pairKey`) scores for having been worn together:
    /// 1 in a favourite outfit, else a third per day worn together, at most 1. Absent: 0.
    let pairScores: [UInt64: Double]
    /// Whether an optional piece (an accessory, outerwear when mild, a blazer over a top) is
    /// due: not worn in the last week, and worn no more in the last 90 days than the wardrobe's
    /// garments are on average. Adding only those draws every garment's wear towards the mean.
    private(set) var isDue: [Bool] = []
    var pools: [Slot: [Int]] = [:]
    var locked: [Slot: [Int]] = [:]
    /// Why garments were left out, by the slot they would have filled: reason → count.
    var rejections: [Slot: [String: Int]] = [:]
    /// Things a person should know (a locked garment that wants washing).
    public private(set) var warnings: [String] = []

    /// Where a garment goes in an outfit.
    enum Slot: String, CaseIterable {
        case top, layer, bottom, onePiece, outerwear, footwear, accessory, extra

        init?(category: String?) {
            switch category {
            case "top": self = .top
            case "bottom": self = .bottom
            case "onePiece": self = .onePiece
            case "outerwear": self = .outerwear
            case "footwear": self = .footwear
            case "accessory": self = .accessory
            default: return nil
            }
        }
    }

    /// Core candidates kept per slot, and cores completed.
    static let poolWidth = 40
    static let coresCompleted = 12
    static let jitterScale = 0.02
    /// How much a capsule prefers a garment already packed over one that scores better.
    static let packedBonus = 0.2
    static let accessoriesAtMost = 2

    public init(garments: [WardrobeGarment], history: WearHistory, request: SuggestionRequest) throws(SuggestionError) {
        var history = history
        history.countPairs()
        self.request = request
        self.garments = garments
        self.history = history
        let day = request.day
        // Medians of wear counts by category, over every garment given.
        var countsByCategory: [String: [Int]] = [:]
        for g in garments { countsByCategory[g.category ?? "", default: []].append(g.wearCount) }
        let medians = countsByCategory.mapValues { counts -> Double in
            let sorted = counts.sorted()
            let mid = sorted.count / 2
            return sorted.count % 2 == 1 ? Double(sorted[mid]) : Double(sorted[mid - 1] + sorted[mid]) / 2
        }
        levels = garments.map { Formality.level(style: $0.garment.style, subcategory: $0.subcategory, category: $0.category) }
        colours = garments.map { $0.garment.colour.map(HarmonyColour.init) }
        stableHash = garments.map { Self.fnv1a($0.id) }
        var scores: [UInt64: Double] = [:]
        let indexByID = Dictionary(garments.indices.map { (garments[$0].id, $0) }, uniquingKeysWith: { a, _ in a })
        history.forEachPair { a, b, days, favourite in
            guard let i = indexByID[a], let j = indexByID[b] else { return }
            scores[Self.pairKey(i, j)] = favourite ? 1 : min(1, Double(days) / 3)
        }
        pairScores = scores
        try placeLocked()
        fillPools()
        rankNeeds(day: day, medians: medians)
    }

    /// Works out every garment's `need` and whether it is due, ranking it among the garments
    /// that can be worn that day (those of the pools, and the locked ones).
    private mutating func rankNeeds(day: Int, medians: [String: Double]) {
        let history = self.history, garments = self.garments
        let wearable = Array(Set(pools.values.joined()).union(locked.values.joined())).sorted()
        // Staleness: each garment's rank among the wearable ones of its category, longest waiting first.
        let daysSince: [Int?] = garments.map { g in
            [history.lastWorn[g.id], g.garment.lastWornOn].compactMap { $0 }.max().map { max(0, day - $0) }
        }
        var staleness = [Double](repeating: 1, count: garments.count)
        for members in Dictionary(grouping: wearable, by: { garments[$0].category ?? "" }).values where members.count > 1 {
            let ranked = members.sorted { a, b in
                let da = daysSince[a] ?? Int.max, db = daysSince[b] ?? Int.max
                if da != db { return da > db }
                if garments[a].wearCount != garments[b].wearCount { return garments[a].wearCount < garments[b].wearCount }
                return garments[a].id < garments[b].id
            }
            for (rank, index) in ranked.enumerated() { staleness[index] = 1 - Double(rank) / Double(ranked.count - 1) }
        }
        // Scarcity: each garment's rank by its wears of the last 90 days among everything
        // wearable that day, fewest first.
        let recent = history.wearCounts(in: day - RotationNeed.balanceDays ..< day)
        let dressed = wearable
        let byWears = dressed.sorted { a, b in
            let wa = recent[garments[a].id] ?? 0, wb = recent[garments[b].id] ?? 0
            return wa != wb ? wa < wb : garments[a].id < garments[b].id
        }
        var scarcity = [Double](repeating: 1, count: garments.count)
        // Equal counts share a rank: the same wears, the same scarcity.
        var rank = 0
        for (position, index) in byWears.enumerated() {
            if position > 0 && recent[garments[index].id] ?? 0 != recent[garments[byWears[position - 1]].id] ?? 0 { rank = position }
            scarcity[index] = byWears.count > 1 ? 1 - Double(rank) / Double(byWears.count - 1) : 1
        }
        let meanRecent = dressed.isEmpty ? 0 : Double(dressed.reduce(0) { $0 + (recent[garments[$1].id] ?? 0) }) / Double(dressed.count)
        isDue = garments.indices.map { i in
            Double(recent[garments[i].id] ?? 0) <= meanRecent && !(daysSince[i].map { $0 < RotationNeed.rest(category: garments[i].category) } ?? false)
        }
        need = garments.indices.map { i in
            RotationNeed(daysSinceWorn: daysSince[i], wearCount: garments[i].wearCount,
                         categoryMedian: medians[garments[i].category ?? ""] ?? 0, staleness: staleness[i], scarcity: scarcity[i],
                         restDays: RotationNeed.rest(category: garments[i].category))
        }
    }

    // MARK: eligibility

    /// Why a garment cannot be suggested on the request's day, or nil when it can.
    func rejection(_ index: Int) -> String? {
        let g = garments[index]
        if let state = g.garment.state, state != "available" { return state == "toWash" ? "want washing" : "are \(state)" }
        if g.garment.isReadyToWash(on: request.day) { return "want washing" }
        if !g.isFor(season: request.season) { return "are not for \(request.season)" }
        let sub = g.subcategory ?? ""
        if request.band == .hot && (WeatherBand.heavySubcategories.contains(sub) || g.isWarmFabric) { return "are too warm for \(weatherPhrase)" }
        if request.band == .cold && WeatherBand.lightSubcategories.contains(sub) { return "are too light for \(weatherPhrase)" }
        if let style = request.style, let own = g.garment.style, own != style { return "are not \(style)" }
        if let occasion = request.occasion, !occasion.range.contains(levels[index]) {
            return levels[index] < occasion.range.lowerBound ? "are too casual for \(occasion.name)" : "are too formal for \(occasion.name)"
        }
        return nil
    }

    var weatherPhrase: String {
        if let t = request.temperature { return "\(Self.celsius(t)) °C" }
        return "\(request.season) (\(request.band.rawValue))"
    }

    static func celsius(_ t: Double) -> String { t == t.rounded() ? String(Int(t)) : String(format1(t)) }
    private static func format1(_ x: Double) -> String { String((x * 10).rounded() / 10) }

    private mutating func fillPools() {
        let lockedSet = Set(locked.values.joined())
        for index in garments.indices where !lockedSet.contains(index) {
            guard let slot = Slot(category: garments[index].category) else { continue }
            if let reason = rejection(index) {
                rejections[slot, default: [:]][reason, default: 0] += 1
                continue
            }
            let sub = garments[index].subcategory
            switch slot {
            case .outerwear:
                switch request.band {
                case .hot:
                    rejections[slot, default: [:]]["are not worn when hot", default: 0] += 1
                    continue
                case .cold:
                    if let sub, !WeatherBand.coldOuterwear.contains(sub) {
                        // A blazer or a vest is worn over a light top, under the coat.
                        if WeatherBand.layerOuterwear.contains(sub) {
                            pools[.layer, default: []].append(index)
                        } else {
                            rejections[slot, default: [:]]["are not warm enough for \(weatherPhrase)", default: 0] += 1
                        }
                        continue
                    }
                case .mild:
                    if let sub, sub == "coat" || sub == "parka" { continue }
                }
            case .top:
                if request.band == .cold, let sub, WeatherBand.layerSubcategories.contains(sub) {
                    pools[.layer, default: []].append(index)
                }
            default:
                break
            }
            pools[slot, default: []].append(index)
        }
    }

    /// Puts each --lock garment in its slot, or says why it cannot be.
    private mutating func placeLocked() throws(SuggestionError) {
        let byID = Dictionary(garments.indices.map { (garments[$0].id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in request.locked {
            guard let index = byID[id] else { throw .lockedUnknown(id) }
            let g = garments[index]
            if let state = g.garment.state, state != "available", state != "toWash" {
                throw .lockedUnavailable(id: id, name: g.name, state: state)
            }
            if let reason = rejection(index) { warnings.append("--lock \(id): \(g.name) is kept, though it \(Self.singular(reason))") }
            let slot = Slot(category: g.category) ?? .extra
            switch slot {
            case .top:
                if locked[.top] == nil {
                    locked[.top] = [index]
                } else if locked[.layer] == nil {
                    // Two tops: the knit goes over the other.
                    let other = locked[.top]![0]
                    let isLayer = WeatherBand.layerSubcategories.contains(g.subcategory ?? "")
                    locked[.top] = [isLayer ? other : index]
                    locked[.layer] = [isLayer ? index : other]
                } else {
                    throw .lockedConflict("at most two tops (one worn over the other)")
                }
            case .bottom, .onePiece, .footwear, .outerwear:
                if locked[slot] != nil { throw .lockedConflict("two garments for one \(slot.rawValue) (\(garments[locked[slot]![0]].id) and \(id))") }
                locked[slot] = [index]
            case .accessory, .extra, .layer:
                locked[slot, default: []].append(index)
            }
        }
        if locked[.onePiece] != nil && locked[.bottom] != nil {
            throw .lockedConflict("a one-piece and a bottom cannot be worn together")
        }
        if let top = locked[.top], locked[.onePiece] != nil, locked[.layer] == nil {
            // A top locked with a dress is worn over it.
            locked[.layer] = top
            locked[.top] = nil
        }
    }

    // MARK: scoring

    /// The score of a set of pieces, without reasons. It runs for every candidate (thousands
    /// per suggestion), so it works on indexes and allocates nothing.
    func score(_ pieces: [Int]) -> OutfitScore {
        var rotation = 0.0
        var low = Double.infinity, high = -Double.infinity, distance = 0.0
        for p in pieces {
            rotation += need[p].value
            low = min(low, levels[p])
            high = max(high, levels[p])
            if let target = request.occasion?.target { distance += abs(levels[p] - target) }
        }
        let count = Double(max(1, pieces.count))
        var formality = max(0, 1 - max(0, high - low - 1) / 3)
        if request.occasion != nil { formality = 0.5 * formality + 0.5 * max(0, 1 - distance / count / 4) }
        var harmonyTotal = 0.0, harmonyWorst = 1.0, colourPairs = 0
        var pairTotal = 0.0, pairs = 0
        for (i, a) in pieces.enumerated() {
            for b in pieces[(i + 1)...] {
                pairs += 1
                pairTotal += pairScores[Self.pairKey(a, b)] ?? 0
                guard let ca = colours[a], let cb = colours[b] else { continue }
                let s = ColourScheme(ca, cb).score
                harmonyTotal += s
                harmonyWorst = min(harmonyWorst, s)
                colourPairs += 1
            }
        }
        let harmony = colourPairs == 0 ? 1 : 0.5 * harmonyTotal / Double(colourPairs) + 0.5 * harmonyWorst
        return OutfitScore(rotation: rotation / count, harmony: harmony, formality: pieces.isEmpty ? 1 : formality,
                           pairs: pairs == 0 ? 0 : pairTotal / Double(pairs))
    }

    /// The key of a pair of garment indexes, the same either way round.
    static func pairKey(_ a: Int, _ b: Int) -> UInt64 {
        a < b ? UInt64(a) << 32 | UInt64(b) : UInt64(b) << 32 | UInt64(a)
    }

    /// The seeded jitter of a set of garments: the same set and seed always get the same.
    func jitter(_ pieces: [Int]) -> Double {
        var h: UInt64 = 0
        for p in pieces { h = h &+ SplitMix64.mix(stableHash[p]) }
        return Double(SplitMix64.mix(h ^ SplitMix64.mix(request.seed)) >> 11) / Double(1 << 53) * Self.jitterScale
    }

    /// FNV-1a of a string's bytes: a hash that is the same in every process (Swift's `Hasher` is not).
    static func fnv1a(_ text: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return h
    }

    // MARK: search

    /// Up to `request.count` different outfits, best first. Throws when a slot every outfit
    /// needs is empty; returns fewer when no more different ones can be made.
    public func suggest() throws(SuggestionError) -> [SuggestedOutfit] {
        var chosen: [SuggestedOutfit] = []
        var usedCore: Set<Int> = [], usedOther: [Int: Int] = [:]
        var seen: Set<Set<Int>> = []
        for _ in 0 ..< request.count {
            guard let pieces = try best(usedCore: usedCore, usedOther: usedOther, avoiding: seen) else { break }
            seen.insert(Set(pieces))
            let core = Set(pieces.filter { [.top, .bottom, .onePiece].contains(Slot(category: garments[$0].category)) })
            usedCore.formUnion(core)
            for p in pieces where !core.contains(p) { usedOther[p, default: 0] += 1 }
            chosen.append(outfit(pieces))
        }
        return chosen
    }

    /// The suggestion made of these pieces, with its reasons and the stored outfit it matches.
    func outfit(_ pieces: [Int]) -> SuggestedOutfit {
        var score = score(pieces)
        score.reasons = reasons(pieces)
        return SuggestedOutfit(garments: pieces.map { garments[$0] }, score: score,
                               stored: history.storedOutfit(Set(pieces.map { garments[$0].id })))
    }

    /// The best complete outfit not in `avoiding` and not worn in the last week.
    func best(usedCore: Set<Int>, usedOther: [Int: Int], avoiding: Set<Set<Int>>) throws(SuggestionError) -> [Int]? {
        let cores = try coreCandidates(excluding: usedCore)
        var bestPieces: [Int]?, bestKey = -Double.infinity
        for core in cores {
            guard let pieces = try complete(core, usedOther: usedOther) else { continue }
            let set = Set(pieces)
            if avoiding.contains(set) { continue }
            if history.wasWorn(Set(pieces.map { garments[$0].id }), within: RotationNeed.restDays + 1, before: request.day + 1) { continue }
            let reuse = pieces.reduce(0) { $0 + (usedOther[$1] ?? 0) }
            let key = score(pieces).total + jitter(pieces) - 0.1 * Double(reuse)
            if key > bestKey { (bestKey, bestPieces) = (key, pieces) }
        }
        return bestPieces
    }

    /// The most wanted garments of a pool: by rotation need, with the seeded jitter, ties by id.
    func widest(_ pool: [Int], excluding: Set<Int>) -> [Int] {
        let free = pool.filter { !excluding.contains($0) }
        let candidates = free.isEmpty ? pool : free
        let ranked = candidates.map { ($0, need[$0].value + jitter([$0])) }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : garments[$0.0].id < garments[$1.0].id }
        return ranked.prefix(Self.poolWidth).map(\.0)
    }

    /// The best cores: a top and a bottom, or a one-piece (a locked piece fixes its slot).
    func coreCandidates(excluding used: Set<Int>) throws(SuggestionError) -> [[Int]] {
        var cores: [[Int]] = []
        if let onePiece = locked[.onePiece] {
            cores = [onePiece]
        } else {
            let tops = locked[.top] ?? widest(pools[.top] ?? [], excluding: used)
            let bottoms = locked[.bottom] ?? widest(pools[.bottom] ?? [], excluding: used)
            for t in tops { for b in bottoms { cores.append([t, b]) } }
            if locked[.top] == nil && locked[.bottom] == nil {
                cores += widest(pools[.onePiece] ?? [], excluding: used).map { [$0] }
            }
        }
        guard !cores.isEmpty else {
            let slots: [Slot] = locked[.top] != nil ? [.bottom] : locked[.bottom] != nil ? [.top] : [.top, .bottom, .onePiece]
            throw .emptySlot(slot: locked[.top] != nil ? "bottom" : locked[.bottom] != nil ? "top" : "top and bottom or one-piece",
                             reasons: explainEmpty(slots))
        }
        let ranked = cores.map { ($0, score($0).total + jitter($0)) }.sorted { $0.1 > $1.1 }
        return ranked.prefix(Self.coresCompleted).map(\.0)
    }

    /// A core completed: layer, outerwear, footwear, accessories and locked extras; nil when a
    /// slot the weather needs cannot be filled for it.
    ///
    /// With `packed` (a capsule's garments so far), garments already packed are preferred for
    /// every slot, and optional pieces come only from them.
    func complete(_ core: [Int], usedOther: [Int: Int], packed: Set<Int>? = nil) throws(SuggestionError) -> [Int]? {
        var pieces = core
        /// The garment of `slot` that goes best with the pieces so far. An optional piece must
        /// be due (`isDue`), and in a capsule already packed.
        func bestOf(_ slot: Slot, optional: Bool = false, filter: (Int) -> Bool = { _ in true }) -> Int? {
            var best: Int?, bestKey = -Double.infinity
            for c in pools[slot] ?? [] where !pieces.contains(c) && filter(c) {
                let isPacked = packed?.contains(c) ?? false
                if optional && (packed == nil ? !isDue[c] : !isPacked) { continue }
                let key = score(pieces + [c]).total + jitter(pieces + [c]) - 0.1 * Double(usedOther[c] ?? 0) + (isPacked ? Self.packedBonus : 0)
                if key > bestKey { (bestKey, best) = (key, c) }
            }
            return best
        }
        // A warm layer over a light top (or a dress) when cold.
        if let layer = locked[.layer] {
            pieces += layer
        } else if request.band == .cold {
            let base = core[0]
            let warm = WeatherBand.layerSubcategories.contains(garments[base].subcategory ?? "") || garments[base].isWarmFabric
            // A knit, or a blazer or vest when one is due, whichever goes better.
            let knit = bestOf(.layer) { garments[$0].category == "top" }
            let tailored = bestOf(.layer, optional: true) { garments[$0].category != "top" }
            let layers = [knit, tailored].compactMap { $0 }
            if !warm, let layer = layers.max(by: { score(pieces + [$0]).total < score(pieces + [$1]).total }) { pieces.append(layer) }
        }
        if let outer = locked[.outerwear] {
            pieces += outer
        } else if request.band == .cold {
            guard let outer = bestOf(.outerwear) else {
                throw .emptySlot(slot: "outerwear warm enough for \(weatherPhrase)", reasons: explainEmpty([.outerwear]))
            }
            pieces.append(outer)
        } else if request.band == .mild && (request.temperature ?? 0) < 20, let outer = bestOf(.outerwear, optional: true) {
            pieces.append(outer)
        }
        if let shoes = locked[.footwear] {
            pieces += shoes
        } else {
            guard let shoes = bestOf(.footwear) else { throw .emptySlot(slot: "footwear", reasons: explainEmpty([.footwear])) }
            pieces.append(shoes)
        }
        // Accessories: a warm one when cold, then those that are due, two at most.
        pieces += locked[.accessory] ?? []
        let isWarmAccessory = { (c: Int) in WeatherBand.warmAccessories.contains(self.garments[c].subcategory ?? "") }
        if request.band == .cold && locked[.accessory] == nil, let warm = bestOf(.accessory, optional: true, filter: isWarmAccessory) {
            pieces.append(warm)
        }
        while pieces.filter({ garments[$0].category == "accessory" }).count < Self.accessoriesAtMost,
              let accessory = bestOf(.accessory, optional: true) {
            pieces.append(accessory)
        }
        pieces += locked[.extra] ?? []
        return pieces
    }

    /// "3 want washing, 2 are atLaundry": why the garments of these slots were left out.
    func explainEmpty(_ slots: [Slot]) -> String {
        var counts: [String: Int] = [:]
        for slot in slots { for (reason, n) in rejections[slot] ?? [:] { counts[reason, default: 0] += n } }
        if counts.isEmpty { return "there are none in the wardrobe\(request.style.map { " of style \($0)" } ?? "")" }
        return counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.value == 1 ? Self.singular($0.key) : $0.key)" }.joined(separator: ", ")
    }

    /// "are atLaundry" → "is atLaundry", "want washing" → "wants washing".
    static func singular(_ phrase: String) -> String {
        if phrase.hasPrefix("are ") { return "is " + phrase.dropFirst(4) }
        if phrase.hasPrefix("want ") { return "wants " + phrase.dropFirst(5) }
        return phrase
    }
}
