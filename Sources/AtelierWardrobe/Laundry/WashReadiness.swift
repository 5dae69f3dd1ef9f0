import AtelierRecords

/// Why a garment wants washing (`LaundryGarment.washReadiness(on:)`).
public enum WashReadiness: Sendable, Equatable {
    /// Its state says so (`toWash`).
    case marked
    /// Worn `wears` times since its last wash, at least its subcategory's `limit`.
    case wornEnough(wears: Int, limit: Int)
    /// Worn since a wash `days` or more ago (nil: never washed).
    case stale(days: Int?)

    /// Worn and not washed for this many days: wash it, however few the wears.
    public static let staleAfterDays = 30

    /// States in which a garment is not at hand to be washed (`archived`: no longer owned).
    public static let unavailableStates: Set<String> = ["drying", "onLoan", "underRepair", "archived"]

    /// The wears before a garment of this kind wants washing (`Domain.subcategories`, else the
    /// category's default, else 3).
    public static func wearsBeforeWash(subcategory: String?, category: String?) -> Int {
        if let subcategory, let known = Domain.subcategory(named: subcategory) { return known.wearsBeforeWash }
        return category.flatMap { Domain.defaultWearsBeforeWash[$0] } ?? 3
    }
}

extension LaundryGarment {
    /// Why the garment wants washing on `today` (days since 1970-01-01), or nil when it does
    /// not: its state must allow it, and it must be marked `toWash`, worn its subcategory's
    /// wears-before-wash since its last wash, or worn since a wash 30 or more days ago.
    public func washReadiness(on today: Int) -> WashReadiness? {
        if let state, WashReadiness.unavailableStates.contains(state) { return nil }
        if state == "toWash" { return .marked }
        let limit = WashReadiness.wearsBeforeWash(subcategory: subcategory, category: category)
        if wearsSinceWash >= limit { return .wornEnough(wears: wearsSinceWash, limit: limit) }
        guard wearsSinceWash > 0 else { return nil }
        guard let lastWashedOn else { return .stale(days: nil) }
        let days = today - lastWashedOn
        return days >= WashReadiness.staleAfterDays ? .stale(days: days) : nil
    }

    /// Whether the garment wants washing on `today`.
    public func isReadyToWash(on today: Int) -> Bool { washReadiness(on: today) != nil }
}
