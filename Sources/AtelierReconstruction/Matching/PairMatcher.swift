/// Matches the descriptors of many image pairs, pairs in parallel.
public struct PairMatcher: Sendable {
    public let matcher: DescriptorMatcher

    public init(options: MatchingOptions = MatchingOptions()) throws(ReconstructionError) {
        matcher = try DescriptorMatcher(options: options)
    }

    /// The matches of each pair in `pairs`, in the same order. `progress` is called after each
    /// pair with the number done so far, from whichever thread finished it.
    public func match(_ features: [Features], pairs: [(Int, Int)],
                      progress: (@Sendable (Int) -> Void)? = nil) -> [[FeatureMatch]] {
        let counter = ProgressCounter()
        let matcher = self.matcher
        return WorkSplitter(threads: matcher.options.threads).map(pairs.count, balanced: true) { index in
            let (i, j) = pairs[index]
            let result = matcher.match(features[i], features[j])
            if let progress { progress(counter.increment()) }
            return result
        }
    }
}
