import Foundation

/// A relative file path from a manifest, proven safe to join under a destination directory.
///
/// The rules, checked on what the peer sent (nothing is silently rewritten on the receiving
/// side, so what is written is exactly what was verified):
/// - valid UTF-8 in Unicode Normalization Form C (the sender normalises with
///   `init(normalizing:)`, so macOS's decomposed names arrive composed),
/// - 1 to `maxBytes` bytes, relative (no leading `/`), `/` as the only separator,
///   no backslash, no NUL, no control character (C0, DEL, C1), no bidirectional-override or
///   other invisible format character,
/// - at most `maxDepth` components, none empty, `.` or `..`, none longer than
///   `maxComponentBytes`, none ending in a space or a dot (names Windows and SMB shares
///   mangle), none a DOS device name (`CON`, `NUL`, `COM1`, `LPT1.txt`, … in any case).
///
/// The receiver must still open files without following symbolic links and refuse to
/// overwrite what exists: a safe name is necessary, not sufficient.
public struct ManifestPath: Sendable, Hashable, CustomStringConvertible {
    public static let maxBytes = 1024
    public static let maxComponentBytes = 255
    public static let maxDepth = 64

    /// The path, `/`-separated, NFC.
    public let string: String

    public var description: String { string }

    /// The components, e.g. `["shoe", "img-001.jpg"]`.
    public var components: [Substring] { string.split(separator: "/", omittingEmptySubsequences: false) }

    /// Checks a path exactly as given; throws `TransferError.unsafePath` naming the broken rule.
    public init(validating path: String) throws {
        try Self.check(path)
        string = path
    }

    /// For the sending side: normalises `path` to NFC first, then validates it.
    public init(normalizing path: String) throws {
        try self.init(validating: path.precomposedStringWithCanonicalMapping)
    }

    /// Decodes and validates raw bytes from the wire.
    init(bytes: ArraySlice<UInt8>) throws {
        guard let path = String(validating: bytes, as: UTF8.self) else {
            throw TransferError.unsafePath(String(decoding: bytes, as: UTF8.self), reason: "not valid UTF-8")
        }
        try self.init(validating: path)
    }

    static let deviceNames: Set<String> = {
        var names: Set<String> = ["con", "prn", "aux", "nul", "conin$", "conout$"]
        for n in 1...9 { names.insert("com\(n)"); names.insert("lpt\(n)") }
        return names
    }()

    private static func check(_ path: String) throws {
        func fail(_ reason: String) -> TransferError { .unsafePath(path, reason: reason) }
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty else { throw fail("it is empty") }
        guard bytes.count <= maxBytes else { throw fail("longer than \(maxBytes) bytes") }
        guard bytes[0] != 0x2F else { throw fail("absolute paths are not allowed") }
        for scalar in path.unicodeScalars {
            let value = scalar.value
            if value == 0 { throw fail("it contains a NUL byte") }
            if value == 0x5C { throw fail("backslashes are not allowed") }
            if value < 0x20 || (0x7F...0x9F).contains(value) { throw fail("it contains a control character") }
            if scalar.properties.generalCategory == .format || (0x2028...0x2029).contains(value) {
                throw fail("it contains an invisible formatting character (U+\(String(value, radix: 16, uppercase: true)))")
            }
        }
        guard Array(path.precomposedStringWithCanonicalMapping.utf8) == bytes else {
            throw fail("not in Unicode normalization form C")
        }
        let components = bytes.split(separator: 0x2F, omittingEmptySubsequences: false)
        guard components.count <= maxDepth else { throw fail("deeper than \(maxDepth) directories") }
        for component in components {
            if component.isEmpty { throw fail("empty path component") }
            if component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
                throw fail("'.' and '..' components are not allowed")
            }
            if component.count > maxComponentBytes { throw fail("a component is longer than \(maxComponentBytes) bytes") }
            if component.last == 0x20 || component.last == 0x2E { throw fail("a component ends in a space or a dot") }
            let name = String(decoding: component, as: UTF8.self).lowercased()
            let stem = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? name
            if deviceNames.contains(stem.trimmingCharacters(in: .whitespaces)) { throw fail("'\(name)' is a device name") }
        }
    }
}
