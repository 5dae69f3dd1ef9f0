import AtelierRecords

/// A garment as laundry sees it: what its label and composition allow, its colour, how much it
/// has been worn since it was last washed, and how much it weighs.
///
/// Made from a `garment` record (`init(record:)`); fields it does not know or cannot read
/// (a colour that is not `#rrggbb`, a misspelt care code) are left out rather than guessed,
/// and the rules treat them as unknown.
public struct LaundryGarment: Sendable, Equatable {
    public var id: String
    public var name: String
    public var category: String?
    public var subcategory: String?
    public var style: String?
    /// `Domain.state`; nil counts as available.
    public var state: String?
    public var colour: GarmentColour?
    /// Fabric name and percentage, as the record lists them.
    public var composition: [(fabric: String, percent: Double)]
    /// Care-symbol codes (`care-symbols.md`).
    public var care: [String] { didSet { constraints = CareConstraints(codes: care) } }
    /// What the care symbols allow, read together (the strictest of them); worked out once,
    /// as the planner asks for it several times per garment.
    public private(set) var constraints: CareConstraints
    public var wearsSinceWash: Int
    /// Days since 1970-01-01 (`ISODate`).
    public var lastWashedOn: Int?
    public var lastWornOn: Int?
    /// The weight the record gives, in grams; nil to use the subcategory's.
    public var weightGrams: Int?
    public var tags: [String]

    public init(id: String, name: String, category: String? = nil, subcategory: String? = nil, style: String? = nil,
                state: String? = nil, colour: GarmentColour? = nil, composition: [(fabric: String, percent: Double)] = [],
                care: [String] = [], wearsSinceWash: Int = 0, lastWashedOn: Int? = nil, lastWornOn: Int? = nil,
                weightGrams: Int? = nil, tags: [String] = []) {
        self.id = id
        self.name = name
        self.category = category
        self.subcategory = subcategory
        self.style = style
        self.state = state
        self.colour = colour
        self.composition = composition
        self.care = care
        constraints = CareConstraints(codes: care)
        self.wearsSinceWash = wearsSinceWash
        self.lastWashedOn = lastWashedOn
        self.lastWornOn = lastWornOn
        self.weightGrams = weightGrams
        self.tags = tags
    }

    /// The garment a `garment` record describes; nil for a record without an `id`.
    ///
    /// Words of the vocabularies (care codes, fabrics, categories, states) are kept as the one
    /// shared copy the tables hold rather than as the record's own: a planner holding a hundred
    /// thousand garments then holds each code once, not once per garment.
    public init?(record: JSONObject) {
        guard case .string(let id)? = record["id"] else { return nil }
        func word(_ key: String) -> String? { record[key]?.string.map(Self.shared) }
        var composition: [(fabric: String, percent: Double)] = []
        for case .object(let part) in record["composition"]?.array ?? [] {
            guard let fabric = part["fabric"]?.string else { continue }
            composition.append((Self.shared(fabric), part["percent"]?.number ?? 100))
        }
        var wears = 0
        if case .int(let n)? = record["wearsSinceWash"] { wears = Int(clamping: n) }
        var grams: Int?
        if let given = record["weightGrams"]?.number, given > 0, given < 1e9 { grams = Int(given) }
        self.init(id: id, name: record["name"]?.string ?? id, category: word("category"),
                  subcategory: word("subcategory"), style: word("style"), state: word("state"),
                  colour: record["color"]?.string.flatMap(GarmentColour.init(hex:)), composition: composition,
                  care: (record["care"]?.array ?? []).compactMap { $0.string.map(Self.shared) }, wearsSinceWash: wears,
                  lastWashedOn: record["lastWashedOn"]?.string.flatMap(ISODate.parseDay),
                  lastWornOn: record["lastWornOn"]?.string.flatMap(ISODate.parseDay),
                  weightGrams: grams, tags: (record["tags"]?.array ?? []).compactMap(\.string))
    }

    /// The vocabularies' own copy of a word, when it is one of theirs.
    static func shared(_ word: String) -> String { sharedWords[word] ?? word }

    private static let sharedWords: [String: String] = {
        let words = CareSymbol.all.map(\.code) + Domain.categoryNames + Domain.subcategories.map(\.name)
            + Domain.fabrics.map(\.name) + Domain.style.values + Domain.state.values
        return Dictionary(words.map { ($0, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The percentage of the fabrics named, summed (`composition` may name one twice).
    public func percent(of fabrics: Set<String>) -> Double {
        composition.reduce(0) { fabrics.contains($1.fabric) ? $0 + $1.percent : $0 }
    }

    /// The percentage of synthetic fibres (`Domain.fabrics`).
    public var syntheticPercent: Double {
        composition.reduce(0) { Domain.fabricGroup($1.fabric) == .synthetic ? $0 + $1.percent : $0 }
    }

    /// The dry weight laundry planning counts: the record's, else its subcategory's or category's.
    public var weight: Int { weightGrams ?? GarmentWeights.grams(subcategory: subcategory, category: category) }

    /// A short label for messages: the name and the id.
    public var label: String { "\(name) (\(id))" }

    public static func == (a: LaundryGarment, b: LaundryGarment) -> Bool {
        a.id == b.id && a.name == b.name && a.category == b.category && a.subcategory == b.subcategory && a.style == b.style
            && a.state == b.state && a.colour == b.colour && a.composition.elementsEqual(b.composition, by: { $0.fabric == $1.fabric && $0.percent == $1.percent })
            && a.care == b.care && a.wearsSinceWash == b.wearsSinceWash && a.lastWashedOn == b.lastWashedOn
            && a.lastWornOn == b.lastWornOn && a.weightGrams == b.weightGrams && a.tags == b.tags
    }
}
