extension OutfitSuggester {
    /// What a person reads in `why.reasons`: the pieces that most want wearing, how the colours
    /// go, how the formality agrees, the pairs already worn together, and the weather.
    func reasons(_ pieces: [Int]) -> [String] {
        var reasons: [String] = []
        // Rotation: the pieces that most want wearing, and any that does not.
        let byNeed = pieces.sorted { need[$0].value != need[$1].value ? need[$0].value > need[$1].value : garments[$0].id < garments[$1].id }
        for p in byNeed.prefix(2) where need[p].value >= 0.4 {
            var phrase = "\(garments[p].name): \(need[p].phrase)"
            if need[p].underworn && need[p].daysSinceWorn != nil { phrase += ", among the least worn of its kind (\(garments[p].wearCount) wear\(garments[p].wearCount == 1 ? "" : "s"))" }
            reasons.append(phrase)
        }
        for p in pieces where need[p].value == 0 {
            let isLocked = locked.values.contains { $0.contains(p) }
            reasons.append("\(garments[p].name): \(need[p].phrase)\(isLocked ? " (locked)" : "")")
        }
        // Colour.
        let coloured = pieces.filter { colours[$0] != nil }
        let harmony = ColourScheme.harmony(coloured.map { colours[$0]! })
        if let (i, j, scheme) = harmony.worst {
            let a = garments[coloured[i]].name, b = garments[coloured[j]].name
            switch scheme {
            case .neutral: reasons.append("neutral colours, which go with everything")
            case .monochrome: reasons.append("\(a) and \(b): one hue, monochrome")
            case .analogous: reasons.append("\(a) and \(b): neighbouring hues, analogous")
            case .complementary: reasons.append("\(a) and \(b): opposite hues, complementary")
            case .triadic: reasons.append("\(a) and \(b): a third of the colour wheel apart")
            case .clash: reasons.append("\(a) and \(b): their colours clash")
            }
        }
        // Formality.
        let lv = pieces.map { levels[$0] }
        if let low = lv.min(), let high = lv.max() {
            if high - low <= 1 {
                reasons.append("formality agrees: \(Formality.word((low + high) / 2))\(request.occasion.map { " for \($0.name)" } ?? "")")
            } else {
                let casual = pieces[lv.firstIndex(of: low)!], formal = pieces[lv.firstIndex(of: high)!]
                reasons.append("formality differs: \(garments[casual].name) is \(Formality.word(low)), \(garments[formal].name) \(Formality.word(high))")
            }
        }
        // Familiar pairs: the favourite outfit, else the pair worn together most.
        var bestPair: (count: Int, a: Int, b: Int)?
        for (i, a) in pieces.enumerated() {
            for b in pieces[(i + 1)...] {
                if let name = history.favouriteOutfit(with: garments[a].id, garments[b].id) {
                    reasons.append("\(garments[a].name) and \(garments[b].name) are in your favourite outfit “\(name)”")
                    bestPair = nil
                    break
                }
                let n = history.timesTogether(garments[a].id, garments[b].id)
                if n > 0 && n > (bestPair?.count ?? 0) { bestPair = (n, a, b) }
            }
            if reasons.last?.contains("favourite outfit") == true { break }
        }
        if let (n, a, b) = bestPair {
            reasons.append("\(garments[a].name) and \(garments[b].name) worn together \(n == 1 ? "once" : "\(n) times") before")
        }
        // Weather.
        switch request.band {
        case .cold: reasons.append("cold (\(weatherPhrase)): with outerwear\(pieces.contains { locked[.layer]?.contains($0) == true || pools[.layer]?.contains($0) == true } ? " and a warm layer" : "")")
        case .hot: reasons.append("hot (\(weatherPhrase)): nothing heavy")
        case .mild: if request.temperature != nil { reasons.append("mild (\(weatherPhrase))") }
        }
        return reasons
    }
}
