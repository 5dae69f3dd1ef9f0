import AtelierRecords

/// A word of an open vocabulary that the vocabulary does not know, kept as given on import.
public struct UnknownWord: Sendable {
    public var vocabulary: Vocabulary
    public var word: String
    public var source: String
    public var line: Int

    struct Key: Hashable {
        var vocabulary: String
        var word: String
    }

    /// `unknown subcategory "kilt" kept as given (…)`, with what follows from not knowing it
    /// and a spelling it may have meant. The word is shown as JSON, shortened (it comes from
    /// the input, and a terminal must not take its control characters as commands).
    public var message: String {
        var text = "unknown \(vocabulary.name) \(RecordSchema.preview(.string(word))) kept as given"
        switch vocabulary.name {
        case Domain.subcategory.name: text += " (its category's wear limit and weight apply)"
        case Domain.fabric.name: text += " (no fabric group: laundry sorting goes by the other fibres)"
        default: break
        }
        if let near = vocabulary.suggestion(for: word) { text += "; did you mean \"\(near)\"?" }
        return text
    }
}

extension RecordImporter {
    /// Reports the open vocabularies' words a garment just stored uses and they do not know,
    /// each once per input. Only fields the record gave are looked at: a garment stored long ago
    /// with an unknown subcategory is not reported again when its state changes.
    func noticeUnknownWords(given input: JSONObject, stored outputs: [JSONObject], source: String, line: Int) {
        guard input["type"] == "garment", input["subcategory"] != nil || input["composition"] != nil,
              let stored = outputs.first(where: { $0["type"] == "garment" }) else { return }
        var words: [(Vocabulary, String)] = []
        if input["subcategory"] != nil, case .string(let sub)? = stored["subcategory"] {
            words.append((Domain.subcategory, sub))
        }
        if input["composition"] != nil, case .array(let parts)? = stored["composition"] {
            for case .object(let part) in parts {
                if case .string(let fabric)? = part["fabric"] { words.append((Domain.fabric, fabric)) }
            }
        }
        noticeUnknownWords(words.filter { !$0.0.isKnownValue($0.1) }, source: source, line: line)
    }

    /// Reports words found unknown already (`FreshRow.unknownWords`), each once per input.
    func noticeUnknownWords(_ words: [(vocabulary: Vocabulary, word: String)], source: String, line: Int) {
        for (vocabulary, word) in words {
            guard unknownWordsSeen.insert(UnknownWord.Key(vocabulary: vocabulary.name, word: word)).inserted else { continue }
            onUnknownWord(UnknownWord(vocabulary: vocabulary, word: word, source: source, line: line))
        }
    }
}
