/// Measures of how a wardrobe is worn: how evenly (the Gini coefficient of wears) and how
/// steadily the wear log is kept (streaks of days with something logged).
public enum WearInsights {
    /// The Gini coefficient of `wears` (0: every garment worn alike; towards 1: a few garments
    /// get all the wear), nil when there are no garments or no wears. Computed on the sorted
    /// values, G = 2·Σ i·x(i) / (n·Σ x) − (n + 1)/n with i from 1, which is the mean absolute
    /// difference over twice the mean.
    public static func gini(_ wears: [Int]) -> Double? {
        let sorted = wears.map { max(0, $0) }.sorted()
        let n = Double(sorted.count)
        let total = Double(sorted.reduce(0, +))
        guard n > 0, total > 0 else { return nil }
        let weighted = sorted.enumerated().reduce(0.0) { $0 + Double($1.offset + 1) * Double($1.element) }
        return 2 * weighted / (n * total) - (n + 1) / n
    }

    /// Runs of consecutive days in `days` (day numbers, any order, repeats allowed): the longest,
    /// and the current one, ending on `asOf` or, when nothing is logged yet that day, the day
    /// before (a streak is not broken until a whole day passes without a log).
    public static func streaks(_ days: [Int], asOf: Int) -> (current: Int, longest: Int) {
        let logged = Set(days.filter { $0 <= asOf })
        var longest = 0
        for day in logged where !logged.contains(day - 1) {
            var length = 1
            while logged.contains(day + length) { length += 1 }
            longest = max(longest, length)
        }
        var current = 0
        var day = logged.contains(asOf) ? asOf : asOf - 1
        while logged.contains(day) {
            current += 1
            day -= 1
        }
        return (current, longest)
    }
}
