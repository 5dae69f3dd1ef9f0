/// One care symbol of ISO 3758:2023 (GINETEX) or, where it differs, of ASTM D5489: its stable
/// code (`care-symbols.md`, an interface), its family, what it means in words and what it
/// allows (`constraints`).
public struct CareSymbol: Sendable, Equatable {
    /// The five families of ISO 3758, in the order a label prints them.
    public enum Family: String, Sendable, CaseIterable {
        case washing, bleaching, drying, ironing, professional
    }

    /// Which system draws it: both, or only the US one.
    public enum System: String, Sendable {
        case iso, astm, both
    }

    public let code: String
    public let family: Family
    public let meaning: String
    public let system: System
    public let constraints: CareConstraints

    /// The symbol with this code, if it is one.
    public static func named(_ code: String) -> CareSymbol? { byCode[code] }

    private static let byCode: [String: CareSymbol] = Dictionary(uniqueKeysWithValues: all.map { ($0.code, $0) })

    init(_ code: String, _ family: Family, _ system: System, _ meaning: String, _ effect: (inout CareConstraints) -> Void) {
        self.code = code
        self.family = family
        self.system = system
        self.meaning = meaning
        var constraints = CareConstraints()
        effect(&constraints)
        self.constraints = constraints
    }
}
