/// The piles laundry is sorted into (`Domain.laundryBin`): colour group × normal or delicate,
/// and four piles washed on their own whatever their colour.
public enum LaundryBin: String, Sendable, CaseIterable {
    case whites, whitesDelicate, darks, darksDelicate, pastels, pastelsDelicate
    case vibrant, vibrantDelicate, denim, activewear, woolAndCashmere, professional

    /// The colour bin of a group, normal or delicate.
    public init(_ group: LaundryColorGroup, delicate: Bool) {
        switch (group, delicate) {
        case (.whites, false): self = .whites
        case (.whites, true): self = .whitesDelicate
        case (.darks, false): self = .darks
        case (.darks, true): self = .darksDelicate
        case (.pastels, false): self = .pastels
        case (.pastels, true): self = .pastelsDelicate
        case (.vibrant, false): self = .vibrant
        case (.vibrant, true): self = .vibrantDelicate
        }
    }

    /// Whether the pile goes to a dry cleaner rather than into a machine or a basin.
    public var isProfessional: Bool { self == .professional }

    /// Whether the pile mixes colours (and so a red can stain a white in it).
    public var mixesColours: Bool { self == .denim || self == .activewear || self == .woolAndCashmere || self == .professional }
}

/// Where a load's garments go: a machine program, a basin, or a professional cleaner, with the
/// time a typical European machine's program takes (about; eco variants run longer).
public enum LaundryProgram: String, Sendable, CaseIterable {
    /// Cotton or standard: full agitation and spin.
    case cotton
    /// Synthetics or mixed fabrics: reduced agitation, gentler spin (one bar under the tub).
    case synthetics
    /// Delicates: much reduced agitation, low spin (two bars).
    case delicate
    /// Wool: a cradle or hand-wash cycle certified for machine-washable wool.
    case wool
    /// By hand, in a basin.
    case handWash
    /// At a professional cleaner (dry cleaning or professional wet cleaning).
    case professional

    /// Typical minutes of the program; nil where no machine runs it.
    public var durationMinutes: Int? {
        switch self {
        case .cotton: return 150
        case .synthetics: return 100
        case .delicate: return 50
        case .wool: return 40
        case .handWash: return 20
        case .professional: return nil
        }
    }

    /// The temperature a load takes when no label in it gives one (ASTM's "any temperature").
    public var defaultCelsius: Int? {
        switch self {
        case .cotton, .synthetics: return 40
        case .delicate, .wool, .handWash: return 30
        case .professional: return nil
        }
    }

    /// Whether a washing machine runs it (so hand-wash-only garments must not be in it).
    public var isMachine: Bool { self != .handWash && self != .professional }

    /// The program for a machine load whose gentlest label asks for `process`.
    public init(process: CareConstraints.Process?) {
        switch process ?? .normal {
        case .normal: self = .cotton
        case .mild: self = .synthetics
        case .veryMild: self = .delicate
        case .hand: self = .handWash
        }
    }
}

/// Where a load is in its life (`Domain.laundryStatus`), and what each status does to its
/// garments' `state` when a load moves into it.
public enum LaundryStatus: String, Sendable, CaseIterable {
    case planned, washing, drying, paused, done, cancelled

    /// Still to be finished: its garments are not free for another load.
    public var isOpen: Bool { self != .done && self != .cancelled }

    /// The garment state a load in this status gives its garments; nil when the status leaves
    /// them as they are (paused) or puts them back as they were (cancelled).
    public func garmentState(in bin: LaundryBin?) -> String? {
        switch self {
        case .planned: return "toWash"
        case .washing: return bin == .professional ? "atLaundry" : "washing"
        case .drying: return "drying"
        case .done: return "available"
        case .paused, .cancelled: return nil
        }
    }
}
