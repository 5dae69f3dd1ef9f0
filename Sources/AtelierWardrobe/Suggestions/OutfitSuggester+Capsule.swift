import AtelierRecords

/// A trip's outfits (`atl-query suggest --days N`) and the garments to pack for them.
public struct Capsule: Sendable {
    public let outfits: [SuggestedOutfit]
    /// Every garment of the outfits, once, in the order first needed.
    public let garments: [WardrobeGarment]
    /// How many different cores (top with bottom, or one-piece) the packed garments make.
    public let differentCores: Int

    /// The `packing` record: the garments, their names and their weight.
    public func record(request: SuggestionRequest) -> JSONObject {
        [
            "type": "packing",
            "from": .string(ISODate.formatDay(request.day)),
            "days": .int(Int64(outfits.count)),
            "outfits": .int(Int64(differentCores)),
            "count": .int(Int64(garments.count)),
            "garments": .array(garments.map { .string($0.id) }),
            "names": .array(garments.map { .string($0.name) }),
            "weightGrams": .int(Int64(garments.reduce(0) { $0 + $1.garment.weight })),
        ]
    }
}

extension OutfitSuggester {
    /// A top and a bottom go together well enough to be a day's core of a capsule.
    func isGoodCore(_ core: [Int]) -> Bool {
        core.count == 1 || (ColourScheme.harmony(core.compactMap { colours[$0] }).score >= 0.5
            && Formality.agreement(core.map { levels[$0] }) >= 0.5)
    }

    /// `days` outfits from as few garments as will make that many different cores: it starts
    /// from the best single outfit and adds, each step, the garment (or the top and bottom
    /// together) that makes the most new good cores per garment added, the most wanted first on
    /// a tie. The days then take the cores best first, a day's core sharing as little as it can
    /// with the day before's; footwear, outerwear and layers are reused from the bag when they go.
    /// When the wardrobe cannot make `days` different cores, cores repeat (`differentCores` says).
    public func capsule(days: Int) throws(SuggestionError) -> Capsule {
        guard let first = try best(usedCore: [], usedOther: [:], avoiding: []) else {
            return Capsule(outfits: [], garments: [], differentCores: 0)
        }
        var bag = Set(first)
        var tops = first.filter { garments[$0].category == "top" && locked[.layer]?.contains($0) != true }
        var bottoms = first.filter { garments[$0].category == "bottom" }
        var onePieces = first.filter { garments[$0].category == "onePiece" }
        func cores() -> [[Int]] {
            var result = onePieces.map { [$0] }
            for t in tops { for b in bottoms where isGoodCore([t, b]) { result.append([t, b]) } }
            return result
        }
        // Locked pieces fix their slots: only the others grow.
        let topPool = locked[.top] != nil || locked[.onePiece] != nil ? [] : widest(pools[.top] ?? [], excluding: [])
        let bottomPool = locked[.bottom] != nil || locked[.onePiece] != nil ? [] : widest(pools[.bottom] ?? [], excluding: [])
        let onePiecePool = locked.isEmpty ? widest(pools[.onePiece] ?? [], excluding: []) : []
        while cores().count < days {
            var bestAdd: [Int] = [], bestRatio = 0.0, bestTie = -Double.infinity
            func consider(_ add: [Int], gain: Int) {
                guard gain > 0 else { return }
                let ratio = Double(gain) / Double(add.count)
                let tie = add.reduce(0) { $0 + need[$1].value } / Double(add.count) + jitter(add)
                if ratio > bestRatio || (ratio == bestRatio && tie > bestTie) { (bestAdd, bestRatio, bestTie) = (add, ratio, tie) }
            }
            for t in topPool where !bag.contains(t) { consider([t], gain: bottoms.filter { isGoodCore([t, $0]) }.count) }
            for b in bottomPool where !bag.contains(b) { consider([b], gain: tops.filter { isGoodCore([$0, b]) }.count) }
            for o in onePiecePool where !bag.contains(o) { consider([o], gain: 1) }
            if bestRatio <= 1 {
                for t in topPool where !bag.contains(t) {
                    for b in bottomPool where !bag.contains(b) && isGoodCore([t, b]) {
                        consider([t, b], gain: 1 + bottoms.filter { isGoodCore([t, $0]) }.count + tops.filter { isGoodCore([$0, b]) }.count)
                    }
                }
            }
            guard !bestAdd.isEmpty else { break }
            for g in bestAdd {
                bag.insert(g)
                switch garments[g].category {
                case "top": tops.append(g)
                case "bottom": bottoms.append(g)
                default: onePieces.append(g)
                }
            }
        }
        // The days, best cores first, each sharing as little as it can with the day before.
        var left = cores().map { ($0, score($0).total + jitter($0)) }.sorted { $0.1 > $1.1 }.map(\.0)
        let different = left.count
        var outfits: [SuggestedOutfit] = [], packed: [Int] = [], usedCores: [[Int]] = []
        var previous: [Int] = []
        for _ in 0 ..< days {
            if left.isEmpty { left = usedCores; usedCores = [] }
            guard !left.isEmpty else { break }
            let pick = left.indices.max { a, b in
                let sa = score(left[a]).total - 0.3 * Double(left[a].filter(previous.contains).count)
                let sb = score(left[b]).total - 0.3 * Double(left[b].filter(previous.contains).count)
                return sa < sb || (sa == sb && a > b)
            }!
            let core = left.remove(at: pick)
            usedCores.append(core)
            guard let pieces = try complete(core, usedOther: [:], packed: Set(packed).union(bag)) else { continue }
            for p in pieces where !packed.contains(p) { packed.append(p) }
            previous = pieces
            outfits.append(outfit(pieces))
        }
        return Capsule(outfits: outfits, garments: packed.map { garments[$0] }, differentCores: different)
    }
}
