/// A domain name as DNS carries it: a sequence of labels of raw bytes, compared without regard
/// to ASCII case (RFC 1035 §2.3.3, RFC 4343).
///
/// Labels are bytes, not text split on dots: a DNS-SD instance name is one label that may hold
/// any UTF-8, dots and spaces included (RFC 6763 §4.3), so `My.Photos` in
/// `My.Photos._atelier._tcp.local.` is a single label. `description` escapes such dots as `\.`.
/// Every `DNSName` is valid on the wire: labels of 1–63 bytes, at most 255 bytes encoded.
public struct DNSName: Sendable, Hashable, CustomStringConvertible {
    /// The labels, most specific first, without the empty root label.
    public let labels: [[UInt8]]

    /// The longest encoded name RFC 1035 allows, root byte included.
    public static let maximumWireLength = 255
    /// The longest label RFC 1035 allows.
    public static let maximumLabelLength = 63

    /// The root name `.`.
    public static let root = DNSName(validated: [])

    /// A name from its labels as text; throws if a label is empty or too long, or the whole
    /// name is over 255 bytes on the wire.
    public init(labels: [String]) throws(TransferError) {
        try self.init(byteLabels: labels.map { Array($0.utf8) })
    }

    /// A name from its labels as bytes, checked like `init(labels:)`.
    public init(byteLabels: [[UInt8]]) throws(TransferError) {
        for label in byteLabels {
            if label.isEmpty { throw .invalidName(String(decoding: Array(byteLabels.joined(separator: [0x2E])), as: UTF8.self)) }
            if label.count > Self.maximumLabelLength { throw .nameTooLong(offset: nil) }
        }
        if byteLabels.reduce(1, { $0 + 1 + $1.count }) > Self.maximumWireLength { throw .nameTooLong(offset: nil) }
        self.init(validated: byteLabels)
    }

    /// A name from dotted text such as `_atelier._tcp.local.` (the final dot is optional). Dots
    /// always separate labels here: build names whose labels hold dots with `init(labels:)`.
    public init(_ dotted: String) throws(TransferError) {
        var text = Substring(dotted)
        if text.hasSuffix(".") { text = text.dropLast() }
        if text.isEmpty { self = .root; return }
        try self.init(labels: text.split(separator: ".", omittingEmptySubsequences: false).map(String.init))
    }

    /// Labels already known to be valid (the decoder checks as it reads).
    init(validated labels: [[UInt8]]) {
        self.labels = labels
    }

    /// The number of bytes the name takes uncompressed on the wire.
    public var wireLength: Int { labels.reduce(1) { $0 + 1 + $1.count } }

    /// The first label as text (the instance name of a DNS-SD service name), or "" for the root.
    public var firstLabel: String { labels.first.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// This name with `label` put in front: `("x", _atelier._tcp.local.)` → `x._atelier._tcp.local.`.
    public func prepending(_ label: String) throws(TransferError) -> DNSName {
        try DNSName(byteLabels: [Array(label.utf8)] + labels)
    }

    /// The name without its first label (the service type of a service instance name).
    public var parent: DNSName { DNSName(validated: Array(labels.dropFirst())) }

    /// Dotted text with a final dot; `.` and `\` inside a label are escaped with `\`.
    public var description: String {
        if labels.isEmpty { return "." }
        var text = ""
        for label in labels {
            for character in String(decoding: label, as: UTF8.self) {
                if character == "." || character == "\\" { text.append("\\") }
                text.append(character)
            }
            text.append(".")
        }
        return text
    }

    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        guard lhs.labels.count == rhs.labels.count else { return false }
        for (a, b) in zip(lhs.labels, rhs.labels) where a.count != b.count || !zip(a, b).allSatisfy({ lowered($0) == lowered($1) }) {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        for label in labels {
            hasher.combine(label.count)
            for byte in label { hasher.combine(Self.lowered(byte)) }
        }
    }

    /// ASCII lower case; other bytes (UTF-8 included) compare exactly, as RFC 6762 §16 says.
    static func lowered(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
