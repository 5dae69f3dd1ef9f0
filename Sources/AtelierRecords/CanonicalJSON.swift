/// Recognises JSON text that is already in the form `JSONWriter` writes, so that text stored by
/// `JSONWriter` (a catalog's JSON columns) can be copied to the output as it is, instead of being
/// parsed into values and written again.
///
/// Conservative by design: it says yes only where `JSONWriter.append(JSONParser.parse(text))`
/// gives back the very same bytes. That is compact text (no whitespace) made of objects without
/// repeated keys, arrays, strings in valid UTF-8 with only the writer's own escapes, integers
/// of at most 18 digits without a leading zero or `-0`, `true`, `false` and `null`, nested at most
/// `maximumDepth` deep. Anything else (a fraction, an exponent, an escape the writer would not
/// write such as `\/` or `\u00e9`, more than `maximumKeys` keys in one object) gets a no, and the
/// caller takes the long way, which is always right.
public enum CanonicalJSON {
    /// Deeper text is left to the parser (whose own limit is `JSONParser.maximumDepth`).
    public static let maximumDepth = 32
    /// Keys per object the duplicate check holds on the stack.
    public static let maximumKeys = 32

    /// Whether `text` is one JSON value exactly as `JSONWriter` writes it.
    public static func isWriterOutput(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var scanner = Scanner(text: text)
        return scanner.value(depth: 0) && scanner.index == text.count
    }

    private struct Scanner {
        let text: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func value(depth: Int) -> Bool {
            guard index < text.count, depth < CanonicalJSON.maximumDepth else { return false }
            switch text[index] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string() != nil
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return integer()
            }
        }

        mutating func object(depth: Int) -> Bool {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "}") { index += 1; return true }
            return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: CanonicalJSON.maximumKeys) { keys in
                var count = 0
                while true {
                    guard count < keys.count, let key = string() else { return false }
                    let name = UnsafeBufferPointer(rebasing: text[key])
                    for k in 0..<count where UnsafeBufferPointer(rebasing: text[keys[k]]).elementsEqual(name) { return false }
                    keys[count] = key
                    count += 1
                    guard next(UInt8(ascii: ":")), value(depth: depth + 1) else { return false }
                    if next(UInt8(ascii: "}")) { return true }
                    guard next(UInt8(ascii: ",")) else { return false }
                }
            }
        }

        mutating func array(depth: Int) -> Bool {
            index += 1
            if next(UInt8(ascii: "]")) { return true }
            while true {
                guard value(depth: depth + 1) else { return false }
                if next(UInt8(ascii: "]")) { return true }
                guard next(UInt8(ascii: ",")) else { return false }
            }
        }

        /// The range of a string's contents, or nil when it is not one the writer would write.
        mutating func string() -> Range<Int>? {
            guard index < text.count, text[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var ascii = true
            var i = start
            while i < text.count {
                let b = text[i]
                if b == UInt8(ascii: "\"") {
                    index = i + 1
                    if !ascii && String(validating: UnsafeBufferPointer(rebasing: text[start..<i]), as: UTF8.self) == nil { return nil }
                    return start..<i
                }
                if b < 0x20 { return nil }
                if b == UInt8(ascii: "\\") {
                    guard let length = Self.writerEscapeLength(text, at: i) else { return nil }
                    i += length
                    continue
                }
                if b >= 0x80 { ascii = false }
                i += 1
            }
            return nil
        }

        /// The length of the escape at `i` when it is one `JSONWriter` writes (`\"`, `\\`, `\n`,
        /// `\r`, `\t`, and `\u00xx` in lower case for the other control characters), else nil.
        /// The parser reads each back as the one character the writer escapes the same way.
        static func writerEscapeLength(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
            guard i + 1 < text.count else { return nil }
            switch text[i + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return 2
            case UInt8(ascii: "u"):
                guard i + 5 < text.count, text[i + 2] == UInt8(ascii: "0"), text[i + 3] == UInt8(ascii: "0"),
                      let high = hexDigit(text[i + 4]), high <= 1, let low = hexDigit(text[i + 5]) else { return nil }
                let scalar = high << 4 | low
                return scalar == 0x0A || scalar == 0x0D || scalar == 0x09 ? nil : 6
            default:
                return nil
            }
        }

        /// A lower-case hexadecimal digit's value (the writer writes no upper case).
        static func hexDigit(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            default: return nil
            }
        }

        /// An integer the parser reads as `.int` and the writer writes back digit for digit.
        mutating func integer() -> Bool {
            let negative = text[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let start = index
            while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") { index += 1 }
            let digits = index - start
            guard digits > 0, digits <= 18 else { return false }
            if text[start] == UInt8(ascii: "0") && (digits > 1 || negative) { return false }
            // A fraction or an exponent: the writer may spell the double otherwise.
            guard index < text.count else { return true }
            let b = text[index]
            return b != UInt8(ascii: ".") && b != UInt8(ascii: "e") && b != UInt8(ascii: "E")
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= text.count else { return false }
            for k in 0..<count where text[index + k] != word.utf8Start[k] { return false }
            index += count
            return true
        }

        mutating func next(_ byte: UInt8) -> Bool {
            guard index < text.count, text[index] == byte else { return false }
            index += 1
            return true
        }
    }
}
