import Foundation

// The `keeping:` mode: the top-level keys a caller asked for are built, every other value is
// stepped over without building it, and yet the line is refused exactly when the full parse
// would refuse it. That includes UTF-8 and duplicate keys in what is skipped, which the mode
// must check without making Strings of keys nobody asked for, or it loses its speed.
extension JSONParser {
    /// Where one plain ASCII key lies in the line, and its hash.
    struct KeySpan {
        var start: Int
        var count: Int
        var hash: UInt64
    }

    /// The keys one object has had so far, for the duplicate check.
    ///
    /// While every key is plain ASCII (no escape), keys are compared as bytes: for ASCII, equal
    /// bytes and equal Strings are the same thing. They sit on the parser's `keySpans` stack
    /// from `base`, with a 64-bit mask of their hashes so that a new key is usually known to be
    /// new without a comparison. The first key that is escaped or not ASCII (or the object
    /// growing past `spanLimit`) turns the object to `strings`, compared as Swift Strings as a
    /// full parse compares them, by canonical equivalence (`"\u212A"`, the Kelvin sign, is `K`).
    struct SeenKeys {
        static let spanLimit = 32
        let base: Int
        var count = 0
        var mask: UInt64 = 0
        var strings: Set<String>? = nil

        init(base: Int) { self.base = base }
    }

    /// A key as read: still raw bytes when plain ASCII, else decoded.
    enum Key {
        case ascii(UnsafeRawBufferPointer)
        case text(String)
    }

    /// The top-level object, building only the keys in `keys`.
    mutating func parseObject(keeping keys: KeySet) throws(RecordsError) -> JSONObject {
        try enter()
        index += 1  // {
        var object = JSONObject()
        keySpans.reserveCapacity(32)
        var seen = SeenKeys(base: keySpans.count)
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return object }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw unexpected("a quoted key") }
            let key = try readKey(&seen)
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after the key") }
            index += 1
            skipWhitespace()
            // No duplicate check here: `readKey` has made it for every key, kept or not.
            switch key {
            case .ascii(let raw) where keys.contains(raw):
                object.appendUnchecked(String(decoding: raw, as: UTF8.self), try parseValue())
            case .text(let name) where keys.contains(name):
                object.appendUnchecked(name, try parseValue())
            default:
                try skipValue()
            }
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; depth -= 1; return object
            default: throw unexpected("',' or '}'")
            }
        }
    }

    /// Validates and steps over a value without building it.
    mutating func skipValue() throws(RecordsError) {
        guard let byte = peek() else { throw unexpected("a value") }
        switch byte {
        case UInt8(ascii: "{"):
            try enter()
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { index += 1; depth -= 1; return }
            var seen = SeenKeys(base: keySpans.count)
            while true {
                skipWhitespace()
                guard peek() == UInt8(ascii: "\"") else { throw unexpected("a quoted key") }
                _ = try readKey(&seen)
                skipWhitespace()
                guard peek() == UInt8(ascii: ":") else { throw unexpected("':' after the key") }
                index += 1
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"):
                    index += 1
                    depth -= 1
                    keySpans.removeSubrange(seen.base...)
                    return
                default: throw unexpected("',' or '}'")
                }
            }
        case UInt8(ascii: "["):
            try enter()
            index += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { index += 1; depth -= 1; return }
            while true {
                skipWhitespace()
                try skipValue()
                skipWhitespace()
                switch peek() {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "]"): index += 1; depth -= 1; return
                default: throw unexpected("',' or ']'")
                }
            }
        case UInt8(ascii: "\""):
            let start = index
            if let plain = try scanSimpleString() {
                try validateUTF8(plain, column: start + 2)
            } else {
                _ = try parseString()
            }
        default:
            _ = try parseValue()
        }
    }

    /// Reads the key at `index` (its opening quote), checking its UTF-8 and refusing it when
    /// the object already has it.
    mutating func readKey(_ seen: inout SeenKeys) throws(RecordsError) -> Key {
        let column = index + 1  // of the opening quote
        let start = index + 1  // of the key's first byte
        let key: Key
        if let plain = try scanSimpleString() {
            let raw = plain.raw
            if plain.isASCII && seen.strings == nil && seen.count < SeenKeys.spanLimit {
                let hash = Self.hash(raw)
                let bit: UInt64 = 1 &<< (hash &>> 58)
                if seen.mask & bit != 0 && repeats(raw, hash, since: seen.base) { throw duplicate(String(decoding: raw, as: UTF8.self), column) }
                seen.mask |= bit
                seen.count += 1
                keySpans.append(KeySpan(start: start, count: raw.count, hash: hash))
                return .ascii(raw)
            }
            key = plain.isASCII ? .ascii(raw) : .text(try makeString(plain, column: column + 1))
        } else {
            key = .text(try parseString())
        }
        if seen.strings == nil {
            seen.strings = Set(keySpans[seen.base...].map { span in
                String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span.start..<(span.start + span.count)]), as: UTF8.self)
            })
            keySpans.removeSubrange(seen.base...)
        }
        let name: String
        switch key {
        case .ascii(let raw): name = String(decoding: raw, as: UTF8.self)
        case .text(let text): name = text
        }
        guard seen.strings!.insert(name).inserted else { throw duplicate(name, column) }
        return key
    }

    /// Whether the plain ASCII key `raw` is among the spans from `base`.
    private func repeats(_ raw: UnsafeRawBufferPointer, _ hash: UInt64, since base: Int) -> Bool {
        for span in keySpans[base...] where span.hash == hash && span.count == raw.count {
            if raw.count == 0 || memcmp(bytes.baseAddress! + span.start, raw.baseAddress!, raw.count) == 0 { return true }
        }
        return false
    }

    private func duplicate(_ name: String, _ column: Int) -> RecordsError {
        RecordsError.syntax("duplicate key \"\(name)\"", column: column)
    }

    /// A hash of a key's length and its first and last eight bytes: cheap (no loop over long
    /// keys), and only a filter, since equal hashes are compared byte by byte.
    @inline(__always) static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let n = raw.count
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if n >= 8 {
            head = raw.loadUnaligned(as: UInt64.self)
            tail = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        } else {
            for b in raw { head = head &<< 8 | UInt64(b) }
        }
        return ((head &* 0x9E37_79B9_7F4A_7C15) ^ (tail &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(n)) &* 0xFF51_AFD7_ED55_8CCD
    }
}

extension JSONParser.KeySet {
    /// Whether `name`, a key that had to be decoded, is in the set (compared as bytes).
    func contains(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { contains(UnsafeRawBufferPointer($0)) }
    }
}
