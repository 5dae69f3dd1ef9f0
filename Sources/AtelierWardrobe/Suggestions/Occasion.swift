import AtelierRecords

/// What an outfit is for (`atl-query suggest --occasion`): the range of formality its pieces may
/// have, and the level it aims at.
public struct Occasion: Sendable, Equatable {
    public let name: String
    public let range: ClosedRange<Double>
    public let target: Double

    public static let all: [Occasion] = [
        Occasion(name: "casual", range: 0 ... 2.5, target: 1),
        Occasion(name: "work", range: 1.5 ... 4, target: 2.75),
        Occasion(name: "formal", range: 3 ... 4, target: 3.6),
        Occasion(name: "party", range: 1.5 ... 4, target: 2.75),
        Occasion(name: "sport", range: 0 ... 0.75, target: 0),
    ]

    public static let vocabulary = Vocabulary("occasion", all.map(\.name), aliases: [
        "office": "work", "business": "work", "gym": "sport", "sports": "sport", "training": "sport",
        "wedding": "formal", "ceremony": "formal", "gala": "formal", "evening": "party", "date": "party",
        "dinner": "party", "weekend": "casual", "everyday": "casual", "home": "casual",
    ])

    /// The occasion a word names (forgiving spelling and aliases), or an error naming the nearest.
    public static func named(_ word: String) throws(RecordsError) -> Occasion {
        let name = try vocabulary.canonical(word)
        return all.first { $0.name == name }!
    }
}
