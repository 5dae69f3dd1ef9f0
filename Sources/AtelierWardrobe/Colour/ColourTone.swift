/// The colour temperature of a garment or an outfit: warm (reds, oranges, yellows, browns),
/// cool (greens, blues, purples) or neutral (black, white, greys and the barely coloured).
public enum ColourTone: String, Sendable, CaseIterable {
    case warm, cool, neutral

    /// Below this chroma (C*ab) a colour reads as a neutral: greys, off-whites, black, and the
    /// palest beiges and navies.
    public static let neutralChroma = 12.0

    /// The tone of one colour, by its CIELAB hue: warm from magenta-red through yellow
    /// (h < 105° or h ≥ 330°), cool from yellow-green through violet.
    public init(_ colour: GarmentColour) {
        if colour.chroma < Self.neutralChroma {
            self = .neutral
        } else {
            let h = colour.hueDegrees
            self = h < 105 || h >= 330 ? .warm : .cool
        }
    }

    /// The tone of an outfit: warm or cool when more of its coloured garments are, neutral when
    /// none is coloured or as many are warm as cool (garments without a colour do not count).
    public init(outfit colours: [GarmentColour]) {
        let tones = colours.map(ColourTone.init)
        let warm = tones.filter { $0 == .warm }.count, cool = tones.filter { $0 == .cool }.count
        self = warm > cool ? .warm : cool > warm ? .cool : .neutral
    }
}
