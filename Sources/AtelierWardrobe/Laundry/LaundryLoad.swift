import AtelierRecords

/// One load of a laundry plan: a machine load, a basin of hand washing, or a bag for the
/// cleaner, with what its labels allow together and what to heed.
public struct LaundryLoad: Sendable {
    public var bin: LaundryBin
    public var program: LaundryProgram
    /// The wash temperature: the lowest maximum among the garments' labels (nil for a cleaner).
    public var temperatureCelsius: Int?
    public var garments: [LaundryGarment]
    /// The strictest reading of all the garments' labels.
    public var instructions: CareConstraints
    public var warnings: [LaundryWarning]

    /// The load for these garments of one pile, washed by hand when `byHand`.
    public init(bin: LaundryBin, garments: [LaundryGarment], byHand: Bool) {
        self.bin = bin
        self.garments = garments
        instructions = garments.reduce(CareConstraints()) { $0.combined(with: $1.constraints) }
        if bin == .professional {
            program = .professional
        } else if byHand {
            program = .handWash
        } else if bin == .woolAndCashmere {
            program = .wool
        } else {
            program = LaundryProgram(process: instructions.washProcess)
        }
        temperatureCelsius = bin == .professional ? nil : instructions.maxWashCelsius ?? program.defaultCelsius
        warnings = LoadCheck(bin: bin, program: program, temperatureCelsius: temperatureCelsius, garments: garments).warnings()
    }

    /// The garments' dry weight, grams.
    public var weightGrams: Int { garments.reduce(0) { $0 + $1.weight } }

    /// The care symbols that say the load's instructions.
    public var symbols: [String] {
        var rules = instructions
        if let temperatureCelsius, rules.wash != false { rules.maxWashCelsius = temperatureCelsius }
        return rules.codes
    }

    /// The `laundry` record of the load, `status: planned`, without an id (`atl-import` gives it one).
    public func record(plannedOn day: Int) -> JSONObject {
        var record: JSONObject = ["type": "laundry", "bin": .string(bin.rawValue), "program": .string(program.rawValue)]
        if let temperatureCelsius { record["temperature"] = .int(Int64(temperatureCelsius)) }
        if let minutes = program.durationMinutes { record["durationMinutes"] = .int(Int64(minutes)) }
        record["weightGrams"] = .int(Int64(weightGrams))
        record["garments"] = .array(garments.map { .string($0.id) })
        record["symbols"] = .array(symbols.map(JSONValue.string))
        record["warnings"] = .array(warnings.map(\.jsonValue))
        record["status"] = .string(LaundryStatus.planned.rawValue)
        record["plannedOn"] = .string(ISODate.formatDay(day))
        record["instructions"] = .object(instructions.jsonObject)
        return record
    }
}

/// A ready garment the plan could not put in any load, and why.
public struct UnplacedGarment: Sendable, Equatable {
    public var id: String
    public var name: String
    public var reason: String

    /// `{"type":"unplaced","garment":…,"name":…,"reason":…}`.
    public var record: JSONObject {
        ["type": "unplaced", "garment": .string(id), "name": .string(name), "reason": .string(reason)]
    }
}
