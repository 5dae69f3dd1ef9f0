/// Serialises JSON values to compact UTF-8, appending to a reusable byte buffer.
///
/// Hand-written because it sits on every tool's output path: several times faster than
/// Foundation's `JSONEncoder` here, and it writes keys in the object's own order.
public enum JSONWriter {
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
        case .bool(let b):
            if b { out.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { out.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
        case .int(let i): appendInteger(i, to: &out)
        case .double(let d): appendDouble(d, to: &out)
        case .bigInteger(let digits): out.append(contentsOf: digits.utf8)
        case .string(let s): appendString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object): append(object, to: &out)
        }
    }

    public static func append(_ object: JSONObject, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in object {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            append(value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// The compact JSON text of a value.
    public static func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func string(_ object: JSONObject) -> String { string(.object(object)) }

    /// Pretty-printed JSON with two-space indentation (for `--format json`).
    public static func appendPretty(_ value: JSONValue, indent: Int = 0, to out: inout [UInt8]) {
        func newline(_ level: Int) {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: level * 2))
        }
        switch value {
        case .array(let items) where !items.isEmpty:
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                appendPretty(item, indent: indent + 1, to: &out)
            }
            newline(indent)
            out.append(UInt8(ascii: "]"))
        case .object(let object) where !object.isEmpty:
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, item) in object {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                newline(indent + 1)
                appendString(key, to: &out)
                out.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
                appendPretty(item, indent: indent + 1, to: &out)
            }
            newline(indent)
            out.append(UInt8(ascii: "}"))
        default:
            append(value, to: &out)
        }
    }

    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 { out.append(UInt8(ascii: "0")); return }
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, enough for 20 digits
        let count = withUnsafeMutableBytes(of: &digits) { scratch -> Int in
            var n = 0
            while magnitude > 0 {
                scratch[23 - n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                n += 1
            }
            out.append(contentsOf: scratch[(24 - n)...])
            return n
        }
        _ = count
    }

    /// A fraction-capable number: integral values below 1e15 as `12.0`, others in Swift's
    /// shortest round-trip form (`0.1`, `1e+21`), non-finite ones as `null`.
    public static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else { out.append(contentsOf: Array("null".utf8)); return }
        if value.rounded() == value && abs(value) < 1e15 {
            // 12.0 is written 12.0, not 12, so the value reads back as a fraction-capable number.
            appendInteger(Int64(value), to: &out)
            out.append(contentsOf: [UInt8(ascii: "."), UInt8(ascii: "0")])
            return
        }
        out.append(contentsOf: Array(value.description.utf8))
    }

    public static func appendString(_ string: String, to out: inout [UInt8]) {
        var s = string
        s.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// A string given as its UTF-8 bytes (which must be valid UTF-8), quoted and escaped: `"`
    /// and `\\` with a backslash, `\n` `\r` `\t` by name, other control characters as `\u00XX`,
    /// everything else as it is.
    public static func appendString(utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        for i in 0..<utf8.count {
            let b = utf8[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C { continue }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            default:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            }
        }
        if runStart < utf8.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count])) }
        out.append(UInt8(ascii: "\""))
    }
}
