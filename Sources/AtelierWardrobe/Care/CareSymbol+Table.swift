extension CareSymbol {
    /// Every symbol, in the order of `care-symbols.md`.
    public static let all: [CareSymbol] = washing + bleaching + drying + ironing + professional

    private static func machine(_ celsius: Int, _ process: CareConstraints.Process) -> CareSymbol {
        let code = "wash-\(celsius)" + (process == .normal ? "" : "-\(process.rawValue)")
        let how = process == .normal ? "normal process" : process == .mild ? "mild process (reduced mechanical action)" : "very mild process (much reduced mechanical action)"
        return CareSymbol(code, .washing, .both, "Machine wash, at most \(celsius) °C, \(how)") {
            $0.wash = true
            $0.maxWashCelsius = celsius
            $0.washProcess = process
        }
    }

    static let washing: [CareSymbol] = [
        machine(95, .normal), machine(70, .normal), machine(60, .normal), machine(60, .mild),
        machine(50, .normal), machine(50, .mild), machine(40, .normal), machine(40, .mild), machine(40, .veryMild),
        machine(30, .normal), machine(30, .mild), machine(30, .veryMild),
        CareSymbol("wash-hand", .washing, .both, "Wash by hand only, at most 40 °C") {
            $0.wash = true
            $0.maxWashCelsius = 40
            $0.washProcess = .hand
        },
        CareSymbol("wash-no", .washing, .both, "Do not wash") { $0.wash = false },
        CareSymbol("wash-machine", .washing, .astm, "Machine wash, normal cycle, any temperature") {
            $0.wash = true
            $0.washProcess = .normal
        },
        CareSymbol("wring-no", .washing, .astm, "Do not wring") { $0.wring = false },
        CareSymbol("wash-hand-ambient", .washing, .both, "Wash by hand in cold water (ambient temperature)") {
            $0.wash = true
            $0.maxWashCelsius = 20
            $0.washProcess = .hand
        },
        CareSymbol("wash-machine-permanent-press", .washing, .astm, "Machine wash, permanent press cycle, any temperature") {
            $0.wash = true
            $0.washProcess = .mild
        },
        CareSymbol("wash-machine-delicate", .washing, .astm, "Machine wash, gentle or delicate cycle, any temperature") {
            $0.wash = true
            $0.washProcess = .veryMild
        },
    ]

    static let bleaching: [CareSymbol] = [
        CareSymbol("bleach-any", .bleaching, .both, "Any bleach allowed") { $0.bleach = .any },
        CareSymbol("bleach-non-chlorine", .bleaching, .both, "Only oxygen (non-chlorine) bleach") { $0.bleach = .nonChlorine },
        CareSymbol("bleach-no", .bleaching, .both, "Do not bleach") { $0.bleach = CareConstraints.Bleach.none },
        CareSymbol("bleach-chlorine", .bleaching, .iso, "Chlorine bleach allowed (ISO 3758:1991)") { $0.bleach = .any },
    ]

    private static func tumble(_ code: String, _ system: System, _ meaning: String, _ heat: CareConstraints.TumbleHeat, _ process: CareConstraints.Process? = nil) -> CareSymbol {
        CareSymbol(code, .drying, system, meaning) {
            $0.tumbleDry = true
            $0.maxTumbleHeat = heat
            $0.tumbleProcess = process
        }
    }

    private static func natural(_ code: String, _ meaning: String, _ way: CareConstraints.NaturalDrying?, shade: Bool) -> CareSymbol {
        CareSymbol(code, .drying, way == nil ? .astm : .both, meaning) {
            $0.naturalDrying = way
            if shade { $0.dryInShade = true }
        }
    }

    static let drying: [CareSymbol] = [
        tumble("tumble-normal", .both, "Tumble dry, normal temperature (exhaust at most 80 °C; ASTM medium heat)", .medium),
        tumble("tumble-low", .both, "Tumble dry at a lower temperature (exhaust at most 60 °C; ASTM low heat)", .low),
        CareSymbol("tumble-no", .drying, .both, "Do not tumble dry") { $0.tumbleDry = false },
        tumble("tumble-any", .astm, "Tumble dry, normal cycle, any heat", .high),
        tumble("tumble-high", .astm, "Tumble dry, high heat", .high),
        tumble("tumble-no-heat", .astm, "Tumble dry without heat (air only)", .noHeat),
        tumble("tumble-permanent-press", .astm, "Tumble dry, permanent press cycle", .medium, .mild),
        tumble("tumble-delicate", .astm, "Tumble dry, gentle or delicate cycle", .low, .veryMild),
        natural("dry-line", "Line dry (hang up after spinning or wringing)", .line, shade: false),
        natural("dry-drip", "Drip dry (hang up dripping wet, without spinning or wringing)", .drip, shade: false),
        natural("dry-flat", "Dry flat (lay flat after spinning or wringing)", .flat, shade: false),
        natural("dry-drip-flat", "Drip dry flat (lay flat dripping wet)", .dripFlat, shade: false),
        natural("dry-line-shade", "Line dry in the shade", .line, shade: true),
        natural("dry-drip-shade", "Drip dry in the shade", .drip, shade: true),
        natural("dry-flat-shade", "Dry flat in the shade", .flat, shade: true),
        natural("dry-drip-flat-shade", "Drip dry flat in the shade", .dripFlat, shade: true),
        natural("dry-shade", "Dry in the shade", nil, shade: true),
        CareSymbol("dry-no", .drying, .astm, "Do not dry (with \"do not wash\")") { $0.dry = false },
    ]

    private static func iron(_ code: String, _ celsius: Int, _ meaning: String, system: System = .both) -> CareSymbol {
        CareSymbol(code, .ironing, system, meaning) {
            $0.iron = true
            $0.maxIronCelsius = celsius
        }
    }

    static let ironing: [CareSymbol] = [
        iron("iron-low", 110, "Iron at a sole-plate temperature of at most 110 °C; steam may damage it"),
        iron("iron-medium", 150, "Iron at a sole-plate temperature of at most 150 °C"),
        iron("iron-high", 200, "Iron at a sole-plate temperature of at most 200 °C"),
        CareSymbol("iron-no", .ironing, .both, "Do not iron") { $0.iron = false },
        CareSymbol("iron-no-steam", .ironing, .both, "Iron without steam") { $0.steam = false },
        iron("iron-any", 200, "Iron at any temperature, steam or dry", system: .astm),
    ]

    private static func dryClean(_ code: String, _ system: System, _ meaning: String, solvents: [String], process: CareConstraints.Process = .normal, note: String? = nil) -> CareSymbol {
        CareSymbol(code, .professional, system, meaning) {
            $0.dryClean = true
            $0.dryCleanSolvents = solvents
            $0.dryCleanProcess = process
            $0.dryCleanNotes = note.map { [$0] }
        }
    }

    private static func wetClean(_ code: String, _ meaning: String, _ process: CareConstraints.Process) -> CareSymbol {
        CareSymbol(code, .professional, .iso, meaning) {
            $0.wetClean = true
            $0.wetCleanProcess = process
        }
    }

    static let professional: [CareSymbol] = [
        dryClean("pro-p", .both, "Professional dry cleaning in tetrachloroethene and the solvents of F, normal process", solvents: ["P", "F"]),
        dryClean("pro-p-mild", .both, "Professional dry cleaning in tetrachloroethene and the solvents of F, mild process", solvents: ["P", "F"], process: .mild),
        dryClean("pro-f", .both, "Professional dry cleaning in hydrocarbons (the F solvents), normal process", solvents: ["F"]),
        dryClean("pro-f-mild", .both, "Professional dry cleaning in hydrocarbons (the F solvents), mild process", solvents: ["F"], process: .mild),
        CareSymbol("pro-no", .professional, .both, "Do not dry clean") { $0.dryClean = false },
        wetClean("pro-w", "Professional wet cleaning, normal process", .normal),
        wetClean("pro-w-mild", "Professional wet cleaning, mild process", .mild),
        wetClean("pro-w-very-mild", "Professional wet cleaning, very mild process", .veryMild),
        CareSymbol("pro-w-no", .professional, .iso, "Do not wet clean") { $0.wetClean = false },
        dryClean("pro-a", .astm, "Dry clean in any solvent", solvents: ["A"]),
        dryClean("pro-any", .astm, "Dry clean, normal cycle, any solvent", solvents: ["A"]),
        dryClean("pro-short-cycle", .astm, "Professional dry cleaning, short cycle", solvents: ["A"], process: .mild, note: "short cycle"),
        dryClean("pro-reduced-moisture", .astm, "Professional dry cleaning, reduced moisture", solvents: ["A"], note: "reduced moisture"),
        dryClean("pro-low-heat", .astm, "Professional dry cleaning, low heat", solvents: ["A"], note: "low heat"),
        dryClean("pro-no-steam-finishing", .astm, "Professional dry cleaning, no steam finishing", solvents: ["A"], note: "no steam finishing"),
    ]
}
