/// How two garment colours go together, judged on their OkLCh hues as colour theory has it:
/// neutrals (greys, black, white, navy, beige and camel) go with everything; otherwise the same
/// hue (monochrome), neighbouring hues (analogous) and opposite ones (complementary) agree, a
/// third of the circle apart (triadic) can work, and anything else clashes.
public enum ColourScheme: String, Sendable, CaseIterable {
    case neutral, monochrome, analogous, complementary, triadic, clash

    /// How well the pair goes, 0 … 1.
    public var score: Double {
        switch self {
        case .neutral, .monochrome: return 1
        case .analogous: return 0.9
        case .complementary: return 0.8
        case .triadic: return 0.6
        case .clash: return 0.2
        }
    }

    /// The scheme of two colours.
    public init(_ a: HarmonyColour, _ b: HarmonyColour) {
        guard !a.isNeutral, !b.isNeutral else { self = .neutral; return }
        let apart = abs(a.hue - b.hue).truncatingRemainder(dividingBy: 360)
        let d = min(apart, 360 - apart)
        switch d {
        case ..<20: self = .monochrome
        case ..<50: self = .analogous
        case 140...: self = .complementary
        case 100...: self = .triadic
        default: self = .clash
        }
    }
}

/// A garment colour as harmony needs it, worked out once per garment.
public struct HarmonyColour: Sendable, Equatable {
    public let lightness: Double
    public let chroma: Double
    public let hue: Double
    /// Reads as a neutral: barely coloured, or one of the dark or earthy low-chroma colours
    /// fashion treats as neutrals (navy, charcoal, chocolate, olive, beige, camel).
    public let isNeutral: Bool

    public init(_ colour: GarmentColour) {
        let (l, c, h) = colour.oklch
        lightness = l
        chroma = c
        hue = h
        let dark = l < 0.4 && c < 0.1
        let earthy = c < 0.09 && h >= 40 && h <= 110
        isNeutral = c < 0.045 || dark || earthy
    }
}

extension ColourScheme {
    /// The harmony of a whole outfit's colours, 0 … 1: the mean over every pair, pulled down by
    /// the worst (one clash spoils an outfit however well the rest agree); 1 with fewer than two
    /// colours. Also the pair that decided it, by index, when there is a pair.
    public static func harmony(_ colours: [HarmonyColour]) -> (score: Double, worst: (Int, Int, ColourScheme)?) {
        guard colours.count >= 2 else { return (1, nil) }
        var total = 0.0, pairs = 0
        var worst: (Int, Int, ColourScheme)?
        for i in colours.indices {
            for j in colours.indices where j > i {
                let scheme = ColourScheme(colours[i], colours[j])
                total += scheme.score
                pairs += 1
                // On a tie, name a pair with a colour scheme rather than two neutrals.
                if let w = worst, scheme.score > w.2.score || (scheme.score == w.2.score && (scheme == .neutral || w.2 != .neutral)) { continue }
                worst = (i, j, scheme)
            }
        }
        return (0.5 * total / Double(pairs) + 0.5 * (worst?.2.score ?? 1), worst)
    }
}
