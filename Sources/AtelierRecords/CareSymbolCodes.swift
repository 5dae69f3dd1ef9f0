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
}
