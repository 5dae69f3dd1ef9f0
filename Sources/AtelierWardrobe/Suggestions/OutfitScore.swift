/// How good an outfit is, in four parts each from 0 to 1 and their weighted total, with the
/// reasons a person reads (`why` in a suggestion).
///
/// - rotation: its pieces' need to be worn (`RotationNeed`), averaged;
/// - harmony: how its colours go together (`ColourScheme.harmony`);
/// - formality: how well its pieces' formality agrees, and fits the occasion (`Formality`);
/// - pairs: how many of its pairs of pieces were worn together before, or are in a favourite.
public struct OutfitScore: Sendable, Equatable {
    public var rotation: Double
    public var harmony: Double
    public var formality: Double
    public var pairs: Double
    public var reasons: [String] = []

    /// Rotation weighs most: a suggestion's job is to get the whole wardrobe worn.
    public static let weights = (rotation: 0.45, harmony: 0.25, formality: 0.15, pairs: 0.15)

    public var total: Double {
        Self.weights.rotation * rotation + Self.weights.harmony * harmony + Self.weights.formality * formality + Self.weights.pairs * pairs
    }
}

/// How much a garment wants wearing on a day, 0 … 1: nothing when worn in the last week; from
/// 0.4 a week after its last wear up to 0.8 two months after, 0.8 when never worn; plus 0.2 when
/// it has been worn less than a third of the median of its category.
public struct RotationNeed: Sendable, Equatable {
    public let value: Double
    /// Days since its last wear; nil when never worn.
    public let daysSinceWorn: Int?
    public let underworn: Bool

    public static let restDays = 7

    public init(daysSinceWorn: Int?, wearCount: Int, categoryMedian: Double) {
        self.daysSinceWorn = daysSinceWorn
        underworn = Double(wearCount) * 3 < categoryMedian
        var value: Double
        if let days = daysSinceWorn {
            value = days < Self.restDays ? 0 : 0.4 + 0.4 * min(1, Double(days - Self.restDays) / 53)
        } else {
            value = 0.8
        }
        if value > 0 && underworn { value += 0.2 }
        self.value = value
    }

    /// "not worn for 41 days", "never worn", "worn 2 days ago".
    public var phrase: String {
        guard let days = daysSinceWorn else { return "never worn" }
        if days < Self.restDays { return days == 0 ? "worn today" : days == 1 ? "worn yesterday" : "worn \(days) days ago" }
        return "not worn for \(days) days"
    }
}
