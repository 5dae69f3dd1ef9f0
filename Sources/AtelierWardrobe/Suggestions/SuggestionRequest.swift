import AtelierRecords

/// What an outfit is wanted for (`atl-query suggest`): the day, its season and weather, the
/// occasion or style, garments that must be in it, how many outfits, and the seed that makes
/// the choice among near-equals repeat.
public struct SuggestionRequest: Sendable {
    /// Days since 1970-01-01.
    public var day: Int
    public var season: String
    /// Degrees Celsius, when known.
    public var temperature: Double?
    public var band: WeatherBand
    public var occasion: Occasion?
    /// `Domain.style`: only garments of this style, or of none.
    public var style: String?
    /// Garment ids every suggestion keeps.
    public var locked: [String]
    public var count: Int
    public var seed: UInt64

    public init(day: Int, season: String? = nil, temperature: Double? = nil, occasion: Occasion? = nil,
                style: String? = nil, locked: [String] = [], count: Int = 1, seed: UInt64 = 0) {
        self.day = day
        let season = season ?? Seasons.of(day: day)
        self.season = season
        self.temperature = temperature
        band = temperature.map(WeatherBand.init(celsius:)) ?? WeatherBand(season: season)
        self.occasion = occasion
        self.style = style
        self.locked = locked
        self.count = count
        self.seed = seed
    }
}

/// Why no outfit could be suggested, or a locked garment cannot be worn.
public enum SuggestionError: ExitCodedError, Equatable {
    /// A slot every outfit needs has no garment left, with what ruled each out.
    case emptySlot(slot: String, reasons: String)
    case lockedUnknown(String)
    case lockedUnavailable(id: String, name: String, state: String)
    case lockedConflict(String)

    public var description: String {
        switch self {
        case let .emptySlot(slot, reasons):
            return "no complete outfit: no \(slot) to wear\(reasons.isEmpty ? "" : " (\(reasons))")"
        case let .lockedUnknown(id):
            return "--lock \(id): no such garment (atl-query garments --fields id,name lists them)"
        case let .lockedUnavailable(id, name, state):
            return "--lock \(id): \(name) is \(state), not at home to wear"
        case let .lockedConflict(message):
            return "--lock: \(message)"
        }
    }

    public var sysexit: Sysexit {
        switch self {
        case .emptySlot: return .noMatch
        case .lockedUnknown, .lockedUnavailable, .lockedConflict: return .dataError
        }
    }
}
