import AtelierRecords

/// What a set of care symbols allows, as a laundry planner needs it: the strictest reading of
/// all of them (the lowest temperature, the gentlest process, any "do not" wins).
///
/// Every field is optional: nil means the symbols say nothing about it. `care` records carry
/// it as their `constraints` object (`jsonObject`), with only the fields that are known.
public struct CareConstraints: Sendable, Equatable {
    /// Mechanical action, gentlest last.
    public enum Process: String, Sendable, Comparable, CaseIterable {
        case normal, mild, veryMild = "very-mild", hand
        public static func < (a: Process, b: Process) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// Bleach allowed, strictest last.
    public enum Bleach: String, Sendable, Comparable, CaseIterable {
        case any, nonChlorine = "non-chlorine", none
        public static func < (a: Bleach, b: Bleach) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// Tumble-dryer heat, coolest first.
    public enum TumbleHeat: String, Sendable, Comparable, CaseIterable {
        case noHeat = "no-heat", low, medium, high
        public static func < (a: TumbleHeat, b: TumbleHeat) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// How to dry without a dryer.
    public enum NaturalDrying: String, Sendable {
        case line, drip, flat, dripFlat = "drip-flat"
    }

    /// False: do not wash at home (`wash-no`).
    public var wash: Bool?
    public var maxWashCelsius: Int?
    public var washProcess: Process?
    /// False: do not wring (`wring-no`).
    public var wring: Bool?
    public var bleach: Bleach?
    /// False: do not tumble dry.
    public var tumbleDry: Bool?
    public var maxTumbleHeat: TumbleHeat?
    /// The tumble cycle, when the label names one (ASTM permanent press or delicate).
    public var tumbleProcess: Process?
    /// False: do not dry (ASTM `dry-no`, with "do not wash").
    public var dry: Bool?
    public var naturalDrying: NaturalDrying?
    public var dryInShade: Bool?
    /// False: do not iron.
    public var iron: Bool?
    public var maxIronCelsius: Int?
    /// False: iron without steam.
    public var steam: Bool?
    /// False: do not dry clean.
    public var dryClean: Bool?
    /// Solvents allowed by the symbols, as their letters (P, F; A for any).
    public var dryCleanSolvents: [String]?
    public var dryCleanProcess: Process?
    /// ASTM dry-cleaning modifiers: short cycle, reduced moisture, low heat, no steam finishing.
    public var dryCleanNotes: [String]?
    /// False: no professional wet cleaning.
    public var wetClean: Bool?
    public var wetCleanProcess: Process?

    public init() {}

    /// Not washable at home, but a professional may clean it.
    public var professionalOnly: Bool {
        wash == false && (dryClean == true || wetClean == true)
    }

    /// The strictest reading of the symbols named by `codes` (unknown codes are ignored).
    public init(codes: some Sequence<String>) {
        self = codes.compactMap { CareSymbol.named($0)?.constraints }.reduce(CareConstraints()) { $0.combined(with: $1) }
    }

    /// The stricter of the two on every field.
    public func combined(with other: CareConstraints) -> CareConstraints {
        var out = CareConstraints()
        out.wash = Self.both(wash, other.wash)
        out.maxWashCelsius = Self.least(maxWashCelsius, other.maxWashCelsius)
        out.washProcess = Self.greatest(washProcess, other.washProcess)
        out.wring = Self.both(wring, other.wring)
        out.bleach = Self.greatest(bleach, other.bleach)
        out.tumbleDry = Self.both(tumbleDry, other.tumbleDry)
        out.maxTumbleHeat = Self.least(maxTumbleHeat, other.maxTumbleHeat)
        out.tumbleProcess = Self.greatest(tumbleProcess, other.tumbleProcess)
        out.dry = Self.both(dry, other.dry)
        out.naturalDrying = other.naturalDrying ?? naturalDrying
        out.dryInShade = Self.either(dryInShade, other.dryInShade)
        out.iron = Self.both(iron, other.iron)
        out.maxIronCelsius = Self.least(maxIronCelsius, other.maxIronCelsius)
        out.steam = Self.both(steam, other.steam)
        out.dryClean = Self.both(dryClean, other.dryClean)
        out.dryCleanSolvents = Self.intersection(dryCleanSolvents, other.dryCleanSolvents)
        out.dryCleanProcess = Self.greatest(dryCleanProcess, other.dryCleanProcess)
        out.dryCleanNotes = Self.union(dryCleanNotes, other.dryCleanNotes)
        out.wetClean = Self.both(wetClean, other.wetClean)
        out.wetCleanProcess = Self.greatest(wetCleanProcess, other.wetCleanProcess)
        return out
    }

    /// The known fields, for a `care` record's `constraints`.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        func put(_ key: String, _ value: JSONValue?) { if let value { object[key] = value } }
        put("wash", wash.map(JSONValue.bool))
        put("maxWashCelsius", maxWashCelsius.map { .int(Int64($0)) })
        put("washProcess", washProcess.map { .string($0.rawValue) })
        put("wring", wring.map(JSONValue.bool))
        put("bleach", bleach.map { .string($0.rawValue) })
        put("tumbleDry", tumbleDry.map(JSONValue.bool))
        put("maxTumbleHeat", maxTumbleHeat.map { .string($0.rawValue) })
        put("tumbleProcess", tumbleProcess.map { .string($0.rawValue) })
        put("dry", dry.map(JSONValue.bool))
        put("naturalDrying", naturalDrying.map { .string($0.rawValue) })
        put("dryInShade", dryInShade.map(JSONValue.bool))
        put("iron", iron.map(JSONValue.bool))
        put("maxIronCelsius", maxIronCelsius.map { .int(Int64($0)) })
        put("steam", steam.map(JSONValue.bool))
        put("dryClean", dryClean.map(JSONValue.bool))
        put("dryCleanSolvents", dryCleanSolvents.map { .array($0.map(JSONValue.string)) })
        put("dryCleanProcess", dryCleanProcess.map { .string($0.rawValue) })
        put("dryCleanNotes", dryCleanNotes.map { .array($0.map(JSONValue.string)) })
        put("wetClean", wetClean.map(JSONValue.bool))
        put("wetCleanProcess", wetCleanProcess.map { .string($0.rawValue) })
        if professionalOnly { object["professionalOnly"] = .bool(true) }
        return object
    }

    private static func both(_ a: Bool?, _ b: Bool?) -> Bool? { a.map { $0 && (b ?? true) } ?? b }
    private static func either(_ a: Bool?, _ b: Bool?) -> Bool? { a.map { $0 || (b ?? false) } ?? b }
    private static func least<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        guard let a, let b else { return a ?? b }
        return Swift.min(a, b)
    }
    private static func greatest<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        guard let a, let b else { return a ?? b }
        return Swift.max(a, b)
    }
    private static func intersection(_ a: [String]?, _ b: [String]?) -> [String]? {
        guard let a, let b else { return a ?? b }
        if a == ["A"] { return b }
        if b == ["A"] { return a }
        return a.filter(b.contains)
    }
    private static func union(_ a: [String]?, _ b: [String]?) -> [String]? {
        guard let a, let b else { return a ?? b }
        return a + b.filter { !a.contains($0) }
    }
}
