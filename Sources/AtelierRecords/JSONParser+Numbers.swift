import Foundation

// Numbers: exact integers where they fit, strtod for the rest.
extension JSONParser {
    mutating func parseNumber() throws(RecordsError) -> JSONValue {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        guard let first = peek(), first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw RecordsError.syntax("invalid number", column: start + 1)
        }
        var integer: Int64 = 0
        var overflow = false
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9") {
                throw RecordsError.syntax("invalid number (leading zero)", column: start + 1)
            }
        } else {
            while let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") {
                let (m, o1) = integer.multipliedReportingOverflow(by: 10)
                let (a, o2) = m.addingReportingOverflow(Int64(d - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                integer = a
                index += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else {
                throw RecordsError.syntax("invalid number (digit expected after '.')", column: index + 1)
            }
            while let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if let s = peek(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { index += 1 }
            guard let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else {
                throw RecordsError.syntax("invalid number (digit expected in exponent)", column: index + 1)
            }
            while let d = peek(), d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") { index += 1 }
        }
        if isInteger && !overflow { return .int(negative ? -integer : integer) }
        let length = index - start
        if isInteger {
            // Past 64 bits (Int64.min itself included, whose magnitude overflowed): keep the
            // digits, which a double would round (JSONValue.bigInteger).
            let digits = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            if digits == "-9223372036854775808" { return .int(Int64.min) }
            return .bigInteger(digits)
        }
        // Fractions and exponents: let strtod do the correctly rounded conversion.
        let value: Double = withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            for i in 0..<length { buffer[i] = CChar(bitPattern: bytes[start + i]) }
            buffer[length] = 0
            return strtod(buffer.baseAddress!, nil)
        }
        guard value.isFinite else { throw RecordsError.syntax("number out of range", column: start + 1) }
        return .double(value)
    }
}
