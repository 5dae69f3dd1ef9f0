extension CareConstraints {
    /// Care-symbol codes that say these constraints, one per kind of instruction known, in
    /// label order: how a load's combined instructions are printed as symbols.
    ///
    /// Only codes of `care-symbols.md`; where no symbol says exactly what is allowed (a
    /// machine wash at 45 °C) the next stricter one is used (40 °C), never a laxer one.
    public var codes: [String] {
        var out: [String] = []
        if let code = washCode { out.append(code) }
        if wring == false { out.append("wring-no") }
        switch bleach {
        case .any?: out.append("bleach-any")
        case .nonChlorine?: out.append("bleach-non-chlorine")
        case .none?: out.append("bleach-no")
        case nil: break
        }
        if tumbleDry == false {
            out.append("tumble-no")
        } else if let heat = maxTumbleHeat {
            // ASTM's gentler cycles carry their heat: permanent press is medium, delicate low.
            switch (heat, tumbleProcess ?? .normal) {
            case (.noHeat, _): out.append("tumble-no-heat")
            case (_, .veryMild), (_, .hand), (.low, .mild): out.append("tumble-delicate")
            case (_, .mild): out.append("tumble-permanent-press")
            case (.low, _): out.append("tumble-low")
            case (.medium, _): out.append("tumble-normal")
            case (.high, _): out.append("tumble-high")
            }
        }
        if dry == false { out.append("dry-no") }
        if let way = naturalDrying {
            out.append("dry-" + way.rawValue + (dryInShade == true ? "-shade" : ""))
        } else if dryInShade == true {
            out.append("dry-shade")
        }
        if iron == false {
            out.append("iron-no")
        } else if let celsius = maxIronCelsius {
            out.append(celsius <= 110 ? "iron-low" : celsius <= 150 ? "iron-medium" : "iron-high")
        }
        if steam == false && iron != false { out.append("iron-no-steam") }
        if dryClean == false {
            out.append("pro-no")
        } else if dryClean == true, let solvents = dryCleanSolvents, !solvents.isEmpty {
            let mild = (dryCleanProcess ?? .normal) > .normal
            if solvents.contains("A") { out.append(mild ? "pro-short-cycle" : "pro-a") }
            else if solvents.contains("P") { out.append(mild ? "pro-p-mild" : "pro-p") }
            else { out.append(mild ? "pro-f-mild" : "pro-f") }
            let notes = ["short cycle": "pro-short-cycle", "reduced moisture": "pro-reduced-moisture",
                         "low heat": "pro-low-heat", "no steam finishing": "pro-no-steam-finishing"]
            for note in dryCleanNotes ?? [] {
                if let code = notes[note], !out.contains(code) { out.append(code) }
            }
        }
        if wetClean == false {
            out.append("pro-w-no")
        } else if wetClean == true {
            switch wetCleanProcess ?? .normal {
            case .normal: out.append("pro-w")
            case .mild: out.append("pro-w-mild")
            case .veryMild, .hand: out.append("pro-w-very-mild")
            }
        }
        return out
    }

    /// The washing symbol for the temperature and process allowed.
    private var washCode: String? {
        if wash == false { return "wash-no" }
        // By hand there are two symbols, at most 40 °C and cold: below 40, only cold is not laxer.
        if washProcess == .hand { return (maxWashCelsius ?? 40) >= 40 ? "wash-hand" : "wash-hand-ambient" }
        guard let celsius = maxWashCelsius else {
            switch washProcess {
            case .normal?: return "wash-machine"
            case .mild?: return "wash-machine-permanent-press"
            case .veryMild?: return "wash-machine-delicate"
            case .hand?, nil: return nil
            }
        }
        let process = washProcess ?? .normal
        let temperatures: [Int]
        switch process {
        case .normal: temperatures = [95, 70, 60, 50, 40, 30]
        case .mild: temperatures = [60, 50, 40, 30]
        case .veryMild, .hand: temperatures = [40, 30]
        }
        guard let allowed = temperatures.first(where: { $0 <= celsius }) else { return nil }
        return "wash-\(allowed)" + (process == .normal ? "" : "-\(process.rawValue)")
    }
}
