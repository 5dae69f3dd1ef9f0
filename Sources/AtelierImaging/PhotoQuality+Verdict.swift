/// Scores, verdict and advice from `PhotoQuality`'s measurements (the rules are in its summary).
extension PhotoQuality {
    /// 0 at `zeroAt`, 1 at `oneAt`, linear between and clamped outside (either order).
    static func ramp(_ value: Double, zeroAt: Double, oneAt: Double) -> Double {
        min(1, max(0, (value - zeroAt) / (oneAt - zeroAt)))
    }

    /// Scores, verdict and advice from the measurements.
    mutating func judge() {
        var findings = Findings()
        let highlights = Self.ramp(clippedHighlightsFraction, zeroAt: 0.11, oneAt: 0.01)
        let shadows = Self.ramp(crushedShadowsFraction, zeroAt: 0.11, oneAt: 0.01)
        let brightness = meanLuma < 80 ? Self.ramp(meanLuma, zeroAt: 25, oneAt: 80) : Self.ramp(meanLuma, zeroAt: 252, oneAt: 230)
        scores.exposure = min(highlights, shadows, brightness)
        findings.add(highlights, "highlights clipped on \(Self.percent(clippedHighlightsFraction)) of pixels: reduce exposure")
        findings.add(shadows, "shadows crushed to black on \(Self.percent(crushedShadowsFraction)) of pixels: add light or raise exposure")
        // Clipping advice already says which way to go.
        if meanLuma < 80, shadows >= Self.goodScore {
            findings.add(brightness, "the photo is dark (mean luma \(Int(meanLuma.rounded())) of 255): add light or raise exposure")
        } else if meanLuma >= 80, highlights >= Self.goodScore {
            findings.add(brightness, "the photo is too bright (mean luma \(Int(meanLuma.rounded())) of 255): reduce exposure")
        }

        scores.sharpness = Self.ramp(blurRadiusPixels, zeroAt: 2.0, oneAt: 0.9)
        findings.add(scores.sharpness, "the photo is blurry (sharpness \(Self.decimal(scores.sharpness, places: 2))): hold the camera still or tap to focus")

        scores.noise = Self.ramp(noiseSigma, zeroAt: 10, oneAt: 2.5)
        findings.add(scores.noise, "the photo is noisy (noise \(Self.decimal(noiseSigma, places: 1)) levels): add light so the camera can use a lower ISO")

        if subjectFound {
            let size = Self.ramp(subjectFraction, zeroAt: 0.02, oneAt: 0.20)
            let centring = Self.ramp(subjectCentreOffset, zeroAt: 0.35, oneAt: 0.08)
            let cut = cutOffEdges.isEmpty ? 1 : (cutOffEdges.count == 1 ? 0.5 : 0.3)
            scores.framing = min(size, centring, cut)
            findings.add(size, "the garment fills \(Self.percent(subjectFraction)) of the frame: move closer")
            findings.add(cut, "the garment is cut off at the \(Self.list(cutOffEdges.map(\.rawValue))) edge\(cutOffEdges.count > 1 ? "s" : ""): step back or re-centre")
            if cutOffEdges.isEmpty {
                findings.add(centring, "the garment sits off centre, \(Self.percent(subjectCentreOffset)) of the frame towards the \(offCentreDirection): re-centre it")
            }
        } else {
            scores.framing = Self.neutralScore
        }

        scores.colour = Self.ramp(castChroma, zeroAt: 0.20, oneAt: 0.05)
        findings.add(scores.colour, "\(scores.colour < Self.fairScore ? "strong" : "slight") \(castName) cast (chroma \(Self.decimal(castChroma, places: 2))): \(castRemedy)")

        let measured = [scores.exposure, scores.sharpness, scores.noise, scores.colour] + (subjectFound ? [scores.framing] : [])
        let worst = measured.min()!
        verdict = worst >= Self.goodScore ? .good : (worst >= Self.fairScore ? .fair : .poor)
        advice = findings.sentences
    }

    /// Advice collected with the score of the part it is about, reported worst first.
    private struct Findings {
        var items: [(score: Double, sentence: String)] = []

        mutating func add(_ score: Double, _ sentence: @autoclosure () -> String) {
            if score < PhotoQuality.goodScore { items.append((score, sentence())) }
        }

        var sentences: [String] {
            items.enumerated().sorted { ($0.element.score, $0.offset) < ($1.element.score, $1.offset) }.map(\.element.sentence)
        }
    }

    private var offCentreDirection: String {
        let dx = subjectCentreX - 0.5, dy = subjectCentreY - 0.5
        let vertical = abs(dy) >= 0.5 * abs(dx) ? (dy < 0 ? "top" : "bottom") : nil
        let horizontal = abs(dx) >= 0.5 * abs(dy) ? (dx < 0 ? "left" : "right") : nil
        return [vertical, horizontal].compactMap { $0 }.joined(separator: " ")
    }

    private var castName: String {
        switch cast {
        case .warm: return "warm (yellow)"
        case .cool: return "blue"
        case .green: return "green"
        case .magenta: return "magenta"
        case .none: return "colour"
        }
    }

    private var castRemedy: String {
        switch cast {
        case .warm: return "set white balance or use daylight instead of warm indoor light"
        case .cool: return "set white balance or use daylight"
        case .green: return "set white balance; fluorescent tubes tint green"
        case .magenta, .none: return "set white balance"
        }
    }

    /// "12%", "9%", "0.4%": whole percents from 10% up (and where exact), one decimal below.
    static func percent(_ fraction: Double) -> String {
        let p = fraction * 100
        if p >= 9.5 || (p * 10).rounded() == p.rounded() * 10 { return "\(Int(p.rounded()))%" }
        return decimal(p, places: 1) + "%"
    }

    /// A non-negative number with `places` decimals, locale-independent.
    static func decimal(_ value: Double, places: Int) -> String {
        var unit = 1
        for _ in 0 ..< places { unit *= 10 }
        let scaled = Int((max(0, value) * Double(unit)).rounded())
        let fraction = String(scaled % unit)
        return places == 0 ? String(scaled) : "\(scaled / unit).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }

    /// "left", "left and top", "left, top and right".
    static func list(_ words: [String]) -> String {
        words.count <= 1 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}
