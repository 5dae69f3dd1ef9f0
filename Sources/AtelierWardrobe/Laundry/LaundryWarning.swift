import AtelierRecords

/// Something to heed about a load, with the garments it concerns. Warnings that break a care
/// label (`breaksLabel`) make `atl-import` refuse a hand-made load unless forced.
public struct LaundryWarning: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Wash these in a mesh bag: delicates, lingerie, hosiery.
        case meshBag
        /// The load is washed by hand.
        case handWashOnly
        /// A dark or vibrant garment never washed before, or a red with light colours.
        case colorBleeding
        /// The load is hotter than a garment's label allows.
        case temperatureTooHigh
        /// The load has no garments.
        case emptyLoad
        /// A garment whose label says `wash-no` is in a washing load.
        case doNotWash
        /// A hand-wash-only garment is in a machine load.
        case handWashInMachine
        /// A garment whose label says `pro-no` is in a load for the dry cleaner.
        case doNotDryClean
        /// The garment's colour is unknown, so it was sorted with the darks.
        case colorUnknown
        /// The load weighs more than the machine takes.
        case overCapacity

        /// Whether loads with this warning go against a garment's care label.
        public var breaksLabel: Bool {
            switch self {
            case .temperatureTooHigh, .doNotWash, .handWashInMachine, .doNotDryClean: return true
            default: return false
            }
        }
    }

    public var kind: Kind
    /// Ids of the garments concerned (none for `emptyLoad`).
    public var garments: [String]
    /// One line for a person, naming the garments (and the symbol a label-breaking one breaks).
    public var message: String

    public init(_ kind: Kind, garments: [String], message: String) {
        self.kind = kind
        self.garments = garments
        self.message = message
    }

    public var breaksLabel: Bool { kind.breaksLabel }

    /// As a `laundry` record's warning: `{kind, message, garments}`, and `breaksLabel` when true.
    public var jsonValue: JSONValue {
        var object: JSONObject = ["kind": .string(kind.rawValue), "message": .string(message)]
        if !garments.isEmpty { object["garments"] = .array(garments.map(JSONValue.string)) }
        if breaksLabel { object["breaksLabel"] = true }
        return .object(object)
    }
}
