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
    public static let weights = (rotation: 0.55, harmony: 0.25, formality: 0.12, pairs: 0.08)

    public var total: Double {
        Self.weights.rotation * rotation + Self.weights.harmony * harmony + Self.weights.formality * formality + Self.weights.pairs * pairs
    }
}

/// How much a garment wants wearing on a day, 0 … 1: nothing while it rests after a wear (a
/// week; three days for accessories, footwear and outerwear); otherwise 0.3, plus up to 0.2 for
/// how long it has waited among the wearable garments of its category (never worn first, then
/// the longest unworn, then the fewest wears), plus up to 0.3 for how seldom it was worn in the
/// last 90 days among everything wearable that day, plus 0.2 when it has been worn less than a
/// third of the median of its category (at most 1 in all).
///
/// Ranks, not days or counts themselves: whatever the size of the wardrobe, the garment that has
/// waited longest wants wearing most, by the same margin over the next, where a scale in days
/// would leave ten tops worn in turn too close for the rotation to outweigh taste. The second
/// rank is across categories, so that a dress worn less than the tops wins over a top and a
/// bottom: wear spreads over the whole wardrobe, not only within each kind of garment. It
/// weighs more than the first because an even spread is what rotation is for (measured in
/// benchmarks/suggest.sh: the Gini of wears falls below uniformly random outfits').
public struct RotationNeed: Sendable, Equatable {
    public let value: Double
    /// Days since its last wear; nil when never worn.
    public let daysSinceWorn: Int?
    public let underworn: Bool
    /// The days it rests after a wear (`rest(category:)`).
    public let restDays: Int

    /// A week between wears of what is worn against the body; an outfit worn in the last
    /// week is never proposed again either.
    public static let restDays = 7
    /// Three days for what goes over several outfits: accessories, footwear, outerwear.
    public static let shortRestDays = 3
    static let shortRestCategories: Set<String> = ["accessory", "footwear", "outerwear"]

    /// The days a garment of `category` rests after a wear.
    public static func rest(category: String?) -> Int {
        category.map { shortRestCategories.contains($0) } == true ? shortRestDays : restDays
    }
    /// The window of the wear log the wardrobe-wide rank counts.
    public static let balanceDays = 90

    /// `staleness`: 0 for the garment of its category worn most recently, 1 for the one that
    /// has waited longest; `scarcity`: 0 for the garment of the wardrobe worn most in the last
    /// 90 days, 1 for the least; both evenly between.
    public init(daysSinceWorn: Int?, wearCount: Int, categoryMedian: Double, staleness: Double, scarcity: Double, restDays: Int = Self.restDays) {
        self.daysSinceWorn = daysSinceWorn
        self.restDays = restDays
        underworn = Double(wearCount) * 3 < categoryMedian
        if let days = daysSinceWorn, days < restDays {
            value = 0
        } else {
            value = min(1, 0.3 + 0.2 * staleness + 0.3 * scarcity + (underworn ? 0.2 : 0))
        }
    }

    /// "not worn for 41 days", "never worn", "worn 2 days ago".
    public var phrase: String {
        guard let days = daysSinceWorn else { return "never worn" }
        if days < restDays { return days == 0 ? "worn today" : days == 1 ? "worn yesterday" : "worn \(days) days ago" }
        return "not worn for \(days) days"
    }
}
