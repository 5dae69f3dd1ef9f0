/// The colour groups laundry is sorted by (`Domain.colorGroup` in the records).
public enum LaundryColorGroup: String, Sendable, CaseIterable {
    case whites, darks, pastels, vibrant

    /// The group of a colour of CIELAB lightness L* (0…100) and chroma C*ab, tried in this order:
    ///
    /// - **whites**: L* ≥ 85 and C* ≤ 10 — white, ivory, off-white, the palest greys;
    /// - **darks**: L* < 35 (black, navy, charcoal, burgundy, chocolate, whatever the chroma);
    ///   or L* < 50 with C* < 55 (deep but not vivid: brown, plum, dark denim, wine);
    ///   or L* < 60 with C* < 25 (dim, muted: mid and dark greys, taupe, mauve, khaki green);
    /// - **pastels**: L* ≥ 60 with C* < 25 (light neutrals and muted tints: light grey, beige,
    ///   stone, sage), or L* ≥ 70 with C* < 45 (light tints: baby pink, light blue, mint,
    ///   lavender, cream, peach);
    /// - **vibrant**: the rest — saturated colours of middle or high lightness (red, royal
    ///   blue, jade, orange, yellow, hot pink, olive, camel).
    ///
    /// The cut-offs follow the usual sorting advice (whites alone; darks with black and navy;
    /// light tints together; coloured cloth that may bleed together), set on everyday clothing
    /// colours so that each lands where a person sorting laundry would put it. Colours near a
    /// cut-off (a mid grey at L* 55–60, a muted camel) could go either way.
    public init(lightness l: Double, chroma c: Double) {
        if l >= 85 && c <= 10 {
            self = .whites
        } else if l < 35 || (l < 50 && c < 55) || (l < 60 && c < 25) {
            self = .darks
        } else if (l >= 60 && c < 25) || (l >= 70 && c < 45) {
            self = .pastels
        } else {
            self = .vibrant
        }
    }

    /// Light colours, which a red or another strong dye can stain.
    public var isLight: Bool { self == .whites || self == .pastels }
}
