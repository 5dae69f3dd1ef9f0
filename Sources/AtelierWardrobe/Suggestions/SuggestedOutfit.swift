import AtelierRecords

/// One suggestion: its garments in the order they are put on the record (the core, a layer,
/// outerwear, footwear, accessories), its score with reasons, and the stored outfit of exactly
/// these garments when there is one.
public struct SuggestedOutfit: Sendable {
    public let garments: [WardrobeGarment]
    public let score: OutfitScore
    public let stored: (id: String, name: String)?

    /// A name from its core: "White shirt with Navy chinos", or the one-piece's name.
    public var name: String {
        if let stored { return stored.name }
        let core = garments.filter { ["top", "bottom", "onePiece"].contains($0.category ?? "") }
        if let onePiece = core.first(where: { $0.category == "onePiece" }) { return onePiece.name }
        let names = core.prefix(2).map(\.name)
        return names.isEmpty ? garments.first?.name ?? "Outfit" : names.joined(separator: " with ")
    }

    /// The `outfit` record: garments, season, occasion, `suggested` tag, tone, value and `why`;
    /// the stored outfit's id when it is one, else none (`atl-import` gives it one).
    public func record(request: SuggestionRequest, name: String? = nil) -> JSONObject {
        var record: JSONObject = ["type": "outfit"]
        if let stored { record["id"] = .string(stored.id) }
        record["name"] = .string(name ?? self.name)
        record["garments"] = .array(garments.map { .string($0.id) })
        record["seasons"] = .array([.string(request.season)])
        if let occasion = request.occasion { record["occasions"] = .array([.string(occasion.name)]) }
        record["tags"] = .array(["suggested"])
        record["tone"] = .string(ColourTone(outfit: garments.compactMap(\.garment.colour)).rawValue)
        var value: [String: Double] = [:]
        for g in garments { if let price = g.price { value[price.currency, default: 0] += price.amount } }
        record["value"] = .object(JSONObject(value.sorted { $0.key < $1.key }.map { ($0.key, Self.number($0.value)) }))
        record["why"] = .object(JSONObject([
            ("score", Self.number(score.total, places: 3)),
            ("rotation", Self.number(score.rotation, places: 3)),
            ("harmony", Self.number(score.harmony, places: 3)),
            ("formality", Self.number(score.formality, places: 3)),
            ("pairs", Self.number(score.pairs, places: 3)),
            ("reasons", .array(score.reasons.map(JSONValue.string))),
        ]))
        return record
    }

    /// A number rounded to `places` decimals, written as an integer when it is one.
    static func number(_ x: Double, places: Int = 2) -> JSONValue {
        var scale = 1.0
        for _ in 0 ..< places { scale *= 10 }
        let rounded = (x * scale).rounded() / scale
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? .int(Int64(rounded)) : .double(rounded)
    }
}
