/// What is wrong with, or worth knowing about, a load: the one check both the planner's loads
/// and hand-made ones (`atl-import` of a `laundry` record) go through.
///
/// The label-breaking warnings are the planner's invariants: a planned load never has one.
public struct LoadCheck: Sendable {
    public var bin: LaundryBin?
    public var program: LaundryProgram?
    public var temperatureCelsius: Int?
    public var garments: [LaundryGarment]
    /// Machine capacity, grams; nil not to check the weight.
    public var capacityGrams: Int?

    public init(bin: LaundryBin?, program: LaundryProgram?, temperatureCelsius: Int?, garments: [LaundryGarment], capacityGrams: Int? = nil) {
        self.bin = bin
        self.program = program
        self.temperatureCelsius = temperatureCelsius
        self.garments = garments
        self.capacityGrams = capacityGrams
    }

    /// Whether the load is washed in a machine: not by hand, not by a professional. A load
    /// without a program is taken for a machine load unless its bin is professional.
    public var isMachineLoad: Bool {
        if let program { return program.isMachine }
        return bin != .professional
    }

    private var isProfessional: Bool { program == .professional || (program == nil && bin == .professional) }

    /// The warnings, label-breaking ones first, each naming its garments.
    public func warnings() -> [LaundryWarning] {
        var out: [LaundryWarning] = []
        func add(_ kind: LaundryWarning.Kind, _ members: [LaundryGarment], _ text: String, detail: (LaundryGarment) -> String? = { _ in nil }) {
            guard !members.isEmpty else { return }
            let list = members.map { g in detail(g).map { "\(g.label) \($0)" } ?? g.label }.joined(separator: ", ")
            out.append(LaundryWarning(kind, garments: members.map(\.id), message: "\(text): \(list)"))
        }
        guard !garments.isEmpty else {
            return [LaundryWarning(.emptyLoad, garments: [], message: "empty load: it has no garments")]
        }
        let rules = garments.map(\.constraints)
        func members(_ test: (LaundryGarment, CareConstraints) -> Bool) -> [LaundryGarment] {
            zip(garments, rules).filter { test($0, $1) }.map(\.0)
        }
        if isProfessional {
            add(.doNotDryClean, members { _, c in c.dryClean == false && c.wetClean != true },
                "do not dry clean (pro-no) but in a load for the cleaner", detail: { _ in "says pro-no" })
        } else {
            add(.doNotWash, members { _, c in c.wash == false }, "do not wash (wash-no) but in a washing load", detail: { _ in "says wash-no" })
            if isMachineLoad {
                add(.handWashInMachine, members { _, c in c.wash != false && c.washProcess == .hand },
                    "hand wash only but in a machine load", detail: { g in "says \(g.care.first { $0.hasPrefix("wash-hand") } ?? "wash-hand")" })
            }
            if let temperatureCelsius {
                add(.temperatureTooHigh, members { _, c in c.wash != false && (c.maxWashCelsius.map { $0 < temperatureCelsius } ?? false) },
                    "temperature too high: the load is \(temperatureCelsius) °C", detail: { g in
                        "says \(g.care.first { $0.hasPrefix("wash-") && $0 != "wash-no" } ?? "at most \(g.constraints.maxWashCelsius ?? 0) °C")"
                    })
            }
        }
        if let capacityGrams, !isProfessional {
            let total = garments.reduce(0) { $0 + $1.weight }
            if total > capacityGrams {
                out.append(LaundryWarning(.overCapacity, garments: [], message: "over capacity: \(Self.kilograms(total)) in a \(Self.kilograms(capacityGrams)) machine"))
            }
        }
        guard !isProfessional else { return out }
        if program == .handWash {
            add(.handWashOnly, garments, "hand wash only")
        } else if isMachineLoad && program != .wool {
            add(.meshBag, members { g, c in Self.wantsMeshBag(g, c) }, "use a mesh bag")
        }
        add(.colorBleeding, members { g, _ in Self.isNewDyed(g) }, "may bleed colour: never washed before, wash apart or with a colour-catcher sheet")
        let reds = garments.filter { $0.colour?.isRed == true }
        let lights = garments.filter { $0.colour?.laundryGroup.isLight == true && $0.colour?.isRed != true }
        if !reds.isEmpty && !lights.isEmpty {
            add(.colorBleeding, reds + lights, "red with light colours: the red may stain the others")
        }
        add(.colorUnknown, garments.filter { $0.colour == nil }, "colour unknown, sorted with the darks")
        return out.filter(\.breaksLabel) + out.filter { !$0.breaksLabel }
    }

    /// Delicates, lingerie and hosiery in a machine.
    static func wantsMeshBag(_ g: LaundryGarment, _ c: CareConstraints) -> Bool {
        let hosiery: Set<String> = ["tights", "bra", "underwear", "swimwear"]
        if let sub = g.subcategory, hosiery.contains(sub) { return true }
        if g.category == "lingerie" && g.subcategory != "pajamas" && g.subcategory != "socks" { return true }
        return LaundrySorter.isDelicate(g, c)
    }

    /// A dark or vibrant garment that has never been washed: its dye may run.
    static func isNewDyed(_ g: LaundryGarment) -> Bool {
        guard g.lastWashedOn == nil, let group = g.colour?.laundryGroup else { return false }
        return group == .darks || group == .vibrant
    }

    static func kilograms(_ grams: Int) -> String {
        let kg = Double(grams) / 1000
        return kg == kg.rounded() ? "\(Int(kg)) kg" : "\((kg * 10).rounded() / 10) kg"
    }
}
