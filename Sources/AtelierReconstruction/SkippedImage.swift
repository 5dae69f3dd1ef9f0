/// A photo left out of the model, and why, in words a person can act on.
public struct SkippedImage: Sendable, Equatable {
    public var name: String
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// One cause and the photos it concerns: how skipped photos are told, so thirty photos left out
/// for one reason make one line, not thirty.
public struct SkippedCause: Sendable, Equatable {
    public var reason: String
    public var names: [String]

    /// The photos, with runs of consecutively numbered names written as a range:
    /// `img_0001.jpg–img_0030.jpg, img_0032.jpg`.
    public var photos: String { PhotoNameRanges.describe(names) }

    /// The photos, then the reason: `img_0001.jpg–img_0030.jpg: no verified matches`.
    public var description: String { photos + ": " + reason }

    /// The causes of `skipped` in the order each was first met, each with its photos in order.
    public static func grouping(_ skipped: [SkippedImage]) -> [SkippedCause] {
        var order: [String] = [], names: [String: [String]] = [:]
        for s in skipped {
            if names[s.reason] == nil { order.append(s.reason) }
            names[s.reason, default: []].append(s.name)
        }
        return order.map { SkippedCause(reason: $0, names: names[$0]!) }
    }
}

/// Writes a list of photo names compactly: names that differ only in a number, consecutive and
/// of one width (`img_0003.jpg`, `img_0004.jpg`, `img_0005.jpg`), become one range.
enum PhotoNameRanges {
    static func describe(_ names: [String]) -> String {
        var parts: [String] = [], i = 0
        while i < names.count {
            var j = i
            while j + 1 < names.count, follows(names[j + 1], names[j]) { j += 1 }
            if j - i >= 2 {
                parts.append(names[i] + "–" + names[j])
            } else {
                parts.append(contentsOf: names[i ... j])
            }
            i = j + 1
        }
        return parts.joined(separator: ", ")
    }

    /// Whether `next` is `previous` with its last number one higher, written to the same width.
    static func follows(_ next: String, _ previous: String) -> Bool {
        guard let a = lastNumber(previous), let b = lastNumber(next),
              a.prefix == b.prefix, a.suffix == b.suffix, a.digits.count == b.digits.count,
              let x = Int(a.digits), let y = Int(b.digits) else { return false }
        return y == x + 1
    }

    static func lastNumber(_ name: String) -> (prefix: Substring, digits: Substring, suffix: Substring)? {
        guard let end = name.lastIndex(where: \.isASCIIDigit) else { return nil }
        var start = end
        while start > name.startIndex, name[name.index(before: start)].isASCIIDigit { start = name.index(before: start) }
        let afterEnd = name.index(after: end)
        guard name.distance(from: start, to: afterEnd) <= 9 else { return nil }
        return (name[..<start], name[start ..< afterEnd], name[afterEnd...])
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
