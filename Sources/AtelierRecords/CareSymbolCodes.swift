/// The care-symbol codes of ISO 3758 (GINETEX) and ASTM D5489, exactly as `care-symbols.md`
/// fixes them: an interface other programs rely on, so never rename one.
public enum CareSymbolCodes {
    public static let all: [String] = [
        "wash-95", "wash-70", "wash-60", "wash-60-mild", "wash-50", "wash-50-mild", "wash-40",
        "wash-40-mild", "wash-40-very-mild", "wash-30", "wash-30-mild", "wash-30-very-mild",
        "wash-hand", "wash-no", "wash-machine", "wring-no", "wash-hand-ambient",
        "wash-machine-permanent-press", "wash-machine-delicate",
        "bleach-any", "bleach-non-chlorine", "bleach-no", "bleach-chlorine",
        "tumble-normal", "tumble-low", "tumble-no", "tumble-any", "tumble-high", "tumble-no-heat",
        "tumble-permanent-press", "tumble-delicate",
        "dry-line", "dry-drip", "dry-flat", "dry-drip-flat", "dry-line-shade", "dry-drip-shade",
        "dry-flat-shade", "dry-drip-flat-shade", "dry-shade", "dry-no",
        "iron-low", "iron-medium", "iron-high", "iron-no", "iron-no-steam", "iron-any",
        "pro-p", "pro-p-mild", "pro-f", "pro-f-mild", "pro-no", "pro-w", "pro-w-mild",
        "pro-w-very-mild", "pro-w-no", "pro-a", "pro-any", "pro-short-cycle",
        "pro-reduced-moisture", "pro-low-heat", "pro-no-steam-finishing",
    ]

    /// Other spellings of the codes, as other apps export them and labels print them in words
    /// (case, spaces, dashes and underscores do not matter: `Hand Wash`, `hand_wash` and
    /// `handWash` are one spelling). Each says what its code says: ASTM's "cold", "warm" and "hot"
    /// washes are its one, two and three dots (30, 40, 50 °C); "gentle" and "delicate" are the
    /// two bars under the tub, "permanent press" the one bar.
    public static let aliases: [(alias: String, value: String)] = spelledAliases + temperatureAliases

    /// The aliases written out one by one (atelier(7) lists them).
    public static let spelledAliases: [(alias: String, value: String)] = {
        let list: [(String, String)] = [
            // washing
            ("machine-wash", "wash-machine"), ("machine-washable", "wash-machine"), ("wash-normal", "wash-machine"),
            ("machine-wash-normal", "wash-machine"), ("washable", "wash-machine"),
            ("wash-cold", "wash-30"), ("machine-wash-cold", "wash-30"), ("cold-wash", "wash-30"),
            ("wash-warm", "wash-40"), ("machine-wash-warm", "wash-40"), ("warm-wash", "wash-40"),
            ("wash-hot", "wash-50"), ("machine-wash-hot", "wash-50"), ("hot-wash", "wash-50"),
            ("wash-gentle", "wash-machine-delicate"), ("wash-delicate", "wash-machine-delicate"),
            ("machine-wash-gentle", "wash-machine-delicate"), ("machine-wash-delicate", "wash-machine-delicate"),
            ("gentle-cycle", "wash-machine-delicate"), ("delicate-cycle", "wash-machine-delicate"),
            ("wash-cold-gentle", "wash-30-very-mild"), ("wash-cold-delicate", "wash-30-very-mild"),
            ("machine-wash-cold-gentle", "wash-30-very-mild"), ("machine-wash-cold-delicate", "wash-30-very-mild"),
            ("wash-warm-gentle", "wash-40-very-mild"), ("machine-wash-warm-gentle", "wash-40-very-mild"),
            ("wash-cold-permanent-press", "wash-30-mild"), ("wash-warm-permanent-press", "wash-40-mild"),
            ("wash-permanent-press", "wash-machine-permanent-press"), ("permanent-press", "wash-machine-permanent-press"),
            ("machine-wash-permanent-press", "wash-machine-permanent-press"),
            ("hand-wash", "wash-hand"), ("handwash", "wash-hand"), ("wash-by-hand", "wash-hand"),
            ("hand-wash-only", "wash-hand"), ("hand-washable", "wash-hand"), ("hand-wash-warm", "wash-hand"),
            ("hand-wash-cold", "wash-hand-ambient"), ("hand-wash-ambient", "wash-hand-ambient"),
            ("cold-hand-wash", "wash-hand-ambient"), ("wash-hand-cold", "wash-hand-ambient"),
            ("do-not-wash", "wash-no"), ("dont-wash", "wash-no"), ("no-wash", "wash-no"), ("not-washable", "wash-no"),
            ("do-not-wring", "wring-no"), ("dont-wring", "wring-no"), ("no-wring", "wring-no"), ("no-wringing", "wring-no"),
            // bleaching
            ("bleach", "bleach-any"), ("bleach-ok", "bleach-any"), ("bleach-allowed", "bleach-any"),
            ("any-bleach", "bleach-any"), ("bleach-when-needed", "bleach-any"), ("bleach-as-needed", "bleach-any"),
            ("non-chlorine-bleach", "bleach-non-chlorine"), ("non-chlorine-bleach-only", "bleach-non-chlorine"),
            ("only-non-chlorine-bleach", "bleach-non-chlorine"), ("bleach-non-chlorine-only", "bleach-non-chlorine"),
            ("non-chlorine", "bleach-non-chlorine"), ("oxygen-bleach", "bleach-non-chlorine"),
            ("bleach-oxygen", "bleach-non-chlorine"), ("oxygen-bleach-only", "bleach-non-chlorine"),
            ("do-not-bleach", "bleach-no"), ("dont-bleach", "bleach-no"), ("no-bleach", "bleach-no"),
            ("chlorine-bleach", "bleach-chlorine"), ("chlorine-bleach-ok", "bleach-chlorine"),
            // tumble drying
            ("tumble-dry", "tumble-any"), ("tumble", "tumble-any"), ("machine-dry", "tumble-any"),
            ("tumble-dry-normal", "tumble-any"), ("tumble-dry-any-heat", "tumble-any"), ("tumble-any-heat", "tumble-any"),
            ("tumble-dry-low", "tumble-low"), ("tumble-low-heat", "tumble-low"), ("tumble-dry-low-heat", "tumble-low"),
            ("tumble-dry-cool", "tumble-low"),
            ("tumble-medium", "tumble-normal"), ("tumble-dry-medium", "tumble-normal"),
            ("tumble-medium-heat", "tumble-normal"), ("tumble-dry-medium-heat", "tumble-normal"),
            ("tumble-dry-normal-heat", "tumble-normal"),
            ("tumble-dry-high", "tumble-high"), ("tumble-high-heat", "tumble-high"), ("tumble-dry-high-heat", "tumble-high"),
            ("tumble-dry-no-heat", "tumble-no-heat"), ("tumble-air", "tumble-no-heat"), ("tumble-dry-air", "tumble-no-heat"),
            ("tumble-dry-air-only", "tumble-no-heat"), ("air-fluff", "tumble-no-heat"),
            ("do-not-tumble-dry", "tumble-no"), ("dont-tumble-dry", "tumble-no"), ("no-tumble-dry", "tumble-no"),
            ("no-tumble", "tumble-no"), ("do-not-tumble", "tumble-no"), ("no-dryer", "tumble-no"),
            ("tumble-dry-no", "tumble-no"), ("do-not-machine-dry", "tumble-no"),
            ("tumble-dry-permanent-press", "tumble-permanent-press"),
            ("tumble-dry-gentle", "tumble-delicate"), ("tumble-dry-delicate", "tumble-delicate"), ("tumble-gentle", "tumble-delicate"),
            // natural drying
            ("line-dry", "dry-line"), ("hang-dry", "dry-line"), ("hang-to-dry", "dry-line"), ("line-drying", "dry-line"),
            ("drip-dry", "dry-drip"), ("drip-line-dry", "dry-drip"),
            ("flat-dry", "dry-flat"), ("lay-flat", "dry-flat"), ("lay-flat-to-dry", "dry-flat"),
            ("drip-flat", "dry-drip-flat"), ("drip-dry-flat", "dry-drip-flat"),
            ("line-dry-shade", "dry-line-shade"), ("line-dry-in-shade", "dry-line-shade"),
            ("line-dry-in-the-shade", "dry-line-shade"), ("hang-dry-shade", "dry-line-shade"),
            ("hang-dry-in-shade", "dry-line-shade"),
            ("drip-dry-shade", "dry-drip-shade"), ("drip-dry-in-shade", "dry-drip-shade"),
            ("dry-flat-in-shade", "dry-flat-shade"), ("flat-dry-shade", "dry-flat-shade"),
            ("dry-flat-in-the-shade", "dry-flat-shade"), ("drip-flat-shade", "dry-drip-flat-shade"),
            ("dry-in-shade", "dry-shade"), ("dry-in-the-shade", "dry-shade"), ("shade-dry", "dry-shade"),
            ("do-not-dry", "dry-no"), ("dont-dry", "dry-no"),
            // ironing
            ("iron", "iron-any"), ("iron-ok", "iron-any"), ("iron-any-temperature", "iron-any"),
            ("iron-steam-or-dry", "iron-any"), ("ironing-allowed", "iron-any"),
            ("iron-cool", "iron-low"), ("cool-iron", "iron-low"), ("iron-low-heat", "iron-low"), ("low-iron", "iron-low"),
            ("iron-warm", "iron-medium"), ("warm-iron", "iron-medium"), ("iron-medium-heat", "iron-medium"),
            ("medium-iron", "iron-medium"),
            ("iron-hot", "iron-high"), ("hot-iron", "iron-high"), ("iron-high-heat", "iron-high"), ("high-iron", "iron-high"),
            ("do-not-iron", "iron-no"), ("dont-iron", "iron-no"), ("no-iron", "iron-no"), ("no-ironing", "iron-no"),
            ("no-steam", "iron-no-steam"), ("do-not-steam", "iron-no-steam"), ("dont-steam", "iron-no-steam"),
            ("iron-without-steam", "iron-no-steam"), ("steam-no", "iron-no-steam"),
            // professional care
            ("dry-clean", "pro-any"), ("dryclean", "pro-any"), ("dry-clean-only", "pro-any"),
            ("professional-dry-clean", "pro-any"), ("professionally-dry-clean", "pro-any"),
            ("dry-clean-any-solvent", "pro-a"), ("any-solvent", "pro-a"),
            ("dry-clean-p", "pro-p"), ("dry-clean-perchloroethylene", "pro-p"), ("dry-clean-perc", "pro-p"),
            ("dry-clean-p-mild", "pro-p-mild"), ("dry-clean-p-gentle", "pro-p-mild"),
            ("dry-clean-f", "pro-f"), ("dry-clean-petroleum", "pro-f"), ("dry-clean-petroleum-only", "pro-f"),
            ("dry-clean-hydrocarbon", "pro-f"), ("dry-clean-f-mild", "pro-f-mild"), ("dry-clean-f-gentle", "pro-f-mild"),
            ("do-not-dry-clean", "pro-no"), ("dont-dry-clean", "pro-no"), ("no-dry-clean", "pro-no"),
            ("no-dryclean", "pro-no"), ("dry-clean-no", "pro-no"), ("do-not-dryclean", "pro-no"),
            ("wet-clean", "pro-w"), ("professional-wet-clean", "pro-w"), ("wet-clean-only", "pro-w"),
            ("wet-clean-mild", "pro-w-mild"), ("wet-clean-gentle", "pro-w-mild"), ("wet-clean-very-mild", "pro-w-very-mild"),
            ("do-not-wet-clean", "pro-w-no"), ("dont-wet-clean", "pro-w-no"), ("no-wet-clean", "pro-w-no"),
            ("dry-clean-short-cycle", "pro-short-cycle"),
            ("dry-clean-reduced-moisture", "pro-reduced-moisture"), ("dry-clean-low-moisture", "pro-reduced-moisture"),
            ("reduced-moisture", "pro-reduced-moisture"), ("low-moisture", "pro-reduced-moisture"),
            ("dry-clean-low-heat", "pro-low-heat"),
            ("dry-clean-no-steam", "pro-no-steam-finishing"), ("no-steam-finishing", "pro-no-steam-finishing"),
            ("dry-clean-no-steam-finishing", "pro-no-steam-finishing"),
        ]
        return list.map { (alias: $0.0, value: $0.1) }
    }()

    /// Temperatures written out: `wash-40c`, `wash-40°C`, `machine-wash-40`, `wash-at-40`, and
    /// the processes as words after them (`wash-30-gentle`, `wash-40-permanent-press`); irons by
    /// their sole-plate temperature (`iron-150c`).
    public static let temperatureAliases: [(alias: String, value: String)] = {
        var list: [(String, String)] = []
        let processes = [("", ""), ("-mild", "-permanent-press"), ("-mild", "-synthetics"), ("-very-mild", "-gentle"),
                         ("-very-mild", "-delicate"), ("-very-mild", "-wool")]
        for temperature in ["30", "40", "50", "60", "70", "95"] {
            for (suffix, words) in processes where all.contains("wash-\(temperature)\(suffix)") {
                let code = "wash-\(temperature)\(suffix)"
                for form in ["wash-\(temperature)c", "machine-wash-\(temperature)", "machine-wash-\(temperature)c",
                             "wash-at-\(temperature)", "wash-at-\(temperature)c", "wash-\(temperature)-degrees"] {
                    list.append((form + words, code))
                }
                if !words.isEmpty { list.append(("wash-\(temperature)" + words, code)) }
            }
        }
        for (degrees, code) in [("110", "iron-low"), ("150", "iron-medium"), ("200", "iron-high")] {
            list += [("iron-\(degrees)", code), ("iron-\(degrees)c", code), ("iron-max-\(degrees)", code)]
        }
        return list.map { (alias: $0.0, value: $0.1) }
    }()
}
