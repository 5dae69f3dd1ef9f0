/// How pages and charts for people say the catalog's words: the vocabularies are camelCase
/// identifiers (`tShirt`, `organicCotton`, `toWash`, `woolAndCashmere`), written as words
/// ("t-shirt", "organic cotton", "to wash", "wool and cashmere"). Attributes, links and data
/// keep the identifiers; only the text shown changes.
public enum Wording {
    /// The identifier as words; anything that is not a camelCase identifier (a word someone
    /// typed, "MA-1 Jacket", "bouclé") is returned as given.
    public static func spoken(_ identifier: String) -> String {
        guard let first = identifier.first, first.isLowercase, identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
              identifier.contains(where: \.isUppercase) else { return identifier }
        var words: [String] = []
        var current = ""
        let characters = Array(identifier)
        for (i, c) in characters.enumerated() {
            let next = i + 1 < characters.count ? characters[i + 1] : nil
            let previous = i > 0 ? characters[i - 1] : nil
            // A word starts at a capital after a small letter or digit ("organicCotton"), or at
            // the last capital of a run followed by a small letter ("PVCCoat" → "PVC", "Coat").
            let startsWord = c.isUppercase && !current.isEmpty
                && (previous.map { !$0.isUppercase } ?? false || next.map(\.isLowercase) ?? false)
            if startsWord {
                words.append(current)
                current = ""
            }
            current.append(c)
        }
        if !current.isEmpty { words.append(current) }
        // Acronyms stay in capitals; other words are lower case.
        let lowered = words.map { word in word.count > 1 && word.allSatisfy(\.isUppercase) ? word : word.lowercased() }
        // A one-letter word leads a hyphenated one ("t-shirt", "v-neck").
        var out = ""
        for (i, word) in lowered.enumerated() {
            if i > 0 { out += lowered[i - 1].count == 1 && lowered[i - 1].first!.isLetter ? "-" : " " }
            out += word
        }
        return out
    }
}
