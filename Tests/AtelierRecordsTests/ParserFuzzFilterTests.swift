import AtelierTestSupport
import Foundation
import XCTest
@testable import AtelierRecords

/// Seeded fuzzing of `FieldFilter.parse` (`--where` expressions) and `ISODate`: random strings
/// made of the pieces these grammars use never crash, a parsed filter's description parses back
/// to the same filter, and dates and instants agree with a plain reference.
final class ParserFuzzFilterTests: XCTestCase {
    static let seed: UInt64 = 0xF11_7E25_2026
    static let today = 20_000  // 2024-10-04

    /// Pieces of `--where` expressions, valid and not: relative dates of every size (counts
    /// that overflow included), quotes, leading operator characters, and marks that Unicode
    /// joins to the character before them.
    static let filterPieces = [
        "category", "price.amount", "seasons", "a", "_x", "é", "٣", "½", ".", "..", "=", "!=", "<", "<=", ">", ">=",
        "~", "!~", "has", " has ", " ", "  ", "\t", "\u{A0}", "'", "\"", "today", "Yesterday", "today-30d", "today+2w",
        "TODAY-1m", "today+0y", "today-999999999d", "today+x", "today+9223372036854775807w", "today-9223372036854775808d",
        "today+99999999999999999999y", "today+2912896d", "today--1d", "2026-11-21", "2026-02-30", "0000-01-01", "winter",
        "12.5", "-0", "1e3", "nan", "inf", "[a-z]+", "(", "*", "\\", "|", "\u{301}", "\u{600}", "😀", ",", "\n",
        "' lead'", "'trail '", "\"=5\"", "'\"q\"'", "'<x'", "\"\"",
    ]

    func testRandomFilterExpressionsParseOrFailCleanlyAndRoundTrip() {
        var random = SplitMix64(seed: Self.seed)
        var parsed = 0
        let record: JSONObject = ["category": "outerwear", "price": ["amount": 12.5], "seasons": ["winter", "autumn"], "a": 3]
        for n in 0..<3000 {
            // Mostly field, operator, operand, each made of random pieces; sometimes anything.
            func pieces(_ pool: [String], _ most: Int) -> String { (0..<(1 + random.below(most))).map { _ in random.pick(pool) }.joined() }
            let text = random.chance(percent: 25) ? pieces(Self.filterPieces, 6)
                : pieces(Self.filterPieces.filter { $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } }, 2)
                    + random.pick(["", " ", "  "]) + random.pick(FieldFilter.Operator.allCases.map(\.rawValue) + ["has "]) + pieces(Self.filterPieces, 3)
            guard let filter = try? FieldFilter.parse(text, today: Self.today) else { continue }
            parsed += 1
            _ = filter.matches(record)
            guard let again = try? FieldFilter.parse(filter.description, today: Self.today) else {
                return XCTFail("seed \(Self.seed), case \(n): \(text.debugDescription) parses, its description \(filter.description.debugDescription) does not")
            }
            if again.path != filter.path || again.op != filter.op || again.operand != filter.operand {
                return XCTFail("seed \(Self.seed), case \(n): \(text.debugDescription) → \(filter.description.debugDescription) → \(again.path) \(again.op) \(again.operand.debugDescription)")
            }
        }
        XCTAssertGreaterThan(parsed, 1000, "enough expressions parse for the round trip to mean something")
    }

    func testRelativeDaysResolveLikeTheReference() {
        var random = SplitMix64(seed: Self.seed &+ 1)
        let range = ISODate.dayNumber(year: 0, month: 1, day: 1)...ISODate.dayNumber(year: 9999, month: 12, day: 31)
        var inRange = 0
        for _ in 0..<2000 {
            // Counts of every size: most land in the years 0000–9999, the rest past them, some
            // past what an Int holds once multiplied, or at all.
            let count = random.pick([random.below(1000), random.below(3_000_000), random.below(1_000_000_000),
                                     Int.max - random.below(1000), Int.max / 7 + random.below(10)])
            let sign = random.pick(["+", "-"])
            let unit = random.pick(["d", "w", "m", "y"])
            let digits = random.chance(percent: 5) ? String(count) + "0" : String(count)
            let text = random.pick(["today", "TODAY", "Today"]) + sign + digits + unit
            // The reference: exact arithmetic on Decimal, then the range.
            let days = Decimal(string: digits)! * Decimal(["d": 1, "w": 7, "m": 30, "y": 365][unit]!)
            let day = sign == "+" ? Decimal(Self.today) + days : Decimal(Self.today) - days
            let want = day >= Decimal(range.lowerBound) && day <= Decimal(range.upperBound) ? NSDecimalNumber(decimal: day).intValue : nil
            let got: Int?
            do throws(RecordsError) {
                got = try ISODate.resolveDay(text, today: Self.today)
            } catch {
                XCTAssertNil(want, "\(text) refused: \(error.reason)")
                continue
            }
            XCTAssertNotNil(got, text)
            XCTAssertEqual(got, want, "\(text) resolved though it is out of range")
            inRange += 1
        }
        XCTAssertGreaterThan(inRange, 400)
        XCTAssertLessThan(inRange, 1600)
    }

    /// Days from 0000-01-01 by counting leap years, independent of Hinnant's algorithm.
    static func referenceDays(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334][m - 1] + (leap && m > 2 ? 1 : 0)
        let leapYearsBefore = (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400
        return 365 * y + leapYearsBefore + before + d - 1
    }

    /// `YYYY-MM-DD[T ]HH:MM:SS[.fff](Z|±HH:MM)` read plainly: seconds since 0000-01-01T00:00Z
    /// and the fraction's digits, or nil when it is not a real instant.
    static func referenceInstant(_ text: String) -> (seconds: Int, fraction: String)? {
        let c = Array(text.utf8).map { Character(Unicode.Scalar($0)) }
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at + count <= c.count, c[at..<(at + count)].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(c[at..<(at + count)]))
        }
        guard c.count >= 20, let y = number(0, 4), c[4] == "-", let mo = number(5, 2), c[7] == "-", let d = number(8, 2),
              c[10] == "T" || c[10] == " ", let h = number(11, 2), c[13] == ":", let mi = number(14, 2), c[16] == ":",
              let s = number(17, 2), (1...12).contains(mo), h < 24, mi < 60, s <= 60 else { return nil }
        let monthDays = [31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard d >= 1, d <= monthDays[mo - 1] else { return nil }
        var i = 19
        var fraction = ""
        if c[i] == "." {
            i += 1
            while i < c.count, c[i].isASCII, c[i].isNumber { fraction.append(c[i]); i += 1 }
            guard !fraction.isEmpty else { return nil }
        }
        var offset = 0
        if i == c.count - 1, c[i] == "Z" || c[i] == "z" {
        } else if i == c.count - 6, c[i] == "+" || c[i] == "-", let oh = number(i + 1, 2), c[i + 3] == ":", let om = number(i + 4, 2), oh < 24, om < 60 {
            offset = (oh * 60 + om) * 60 * (c[i] == "+" ? 1 : -1)
        } else {
            return nil
        }
        return (referenceDays(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offset, fraction)
    }

    /// Whether an instant, as seconds since 0000-01-01T00:00:00Z, lies in the years 0000–9999.
    static func inYearRange(_ seconds: Int) -> Bool { seconds >= 0 && seconds < referenceDays(10000, 1, 1) * 86400 }

    func testDaysAndInstantsAgreeWithTheReference() {
        var random = SplitMix64(seed: Self.seed &+ 2)
        var days = 0
        var instants = 0
        for n in 0..<5000 {
            // Mostly real dates and times (a few fields out of range), then a random edit or two.
            func two(_ limit: Int) -> String { String(format: "%02d", random.below(limit)) }
            var date = String(format: "%04d", random.chance(percent: 10) ? random.pick([0, 1, 9999]) : random.below(10000)) + "-" + two(14) + "-" + two(33)
            if random.chance(percent: 5) { date = random.pick(["0000-01-01", "9999-12-31"]) }  // where offsets cross the year range
            let time = random.pick(["T", " "]) + two(25) + ":" + two(61) + ":" + two(62) + (random.chance(percent: 30) ? "." + String(random.below(100000)) : "")
            let zone = random.pick(["Z", "z", "+" + two(25) + ":" + two(61), "-" + two(25) + ":" + two(61), "", "+0100"])
            var text = Array(random.chance(percent: 20) ? date : date + time + zone)
            if random.chance(percent: 30) {
                for _ in 0...random.below(2) where !text.isEmpty {
                    text[random.below(text.count)] = random.pick(Array("0129-:T+Z.x é"))
                }
            }
            let string = String(text)
            if let day = ISODate.parseDay(string) {
                days += 1
                XCTAssertEqual(ISODate.formatDay(day), string, "case \(n)")
                let (y, m, d) = ISODate.civil(fromDayNumber: day)
                XCTAssertEqual(day - ISODate.dayNumber(year: 1970, month: 1, day: 1), Self.referenceDays(y, m, d) - Self.referenceDays(1970, 1, 1), "case \(n)")
            } else if string.count == 10 {
                XCTAssertNil(Self.referenceInstant(string + "T00:00:00Z"), "seed \(Self.seed &+ 2), case \(n): \(string) is a real day")
            }
            let reference = Self.referenceInstant(string)
            // An instant that its offset moves out of the years 0000–9999 is refused.
            guard let normalized = ISODate.normalizeInstant(string) else {
                if let reference, Self.inYearRange(reference.seconds) {
                    XCTFail("seed \(Self.seed &+ 2), case \(n): \(string) refused, reference reads \(reference)")
                }
                continue
            }
            guard let reference, Self.inYearRange(reference.seconds) else {
                XCTFail("seed \(Self.seed &+ 2), case \(n): \(string) accepted as \(normalized)"); continue
            }
            instants += 1
            guard let back = Self.referenceInstant(normalized), normalized.hasSuffix("Z") else {
                XCTFail("seed \(Self.seed &+ 2), case \(n): \(string) normalised to \(normalized), which is no instant"); continue
            }
            XCTAssertEqual(back.seconds, reference.seconds, "case \(n): \(string) → \(normalized) moved in time")
            XCTAssertEqual(back.fraction, reference.fraction, "case \(n): \(string) → \(normalized)")
            XCTAssertEqual(ISODate.normalizeInstant(normalized), normalized, "case \(n): normalising is idempotent")
        }
        XCTAssertGreaterThan(days, 300)
        XCTAssertGreaterThan(instants, 1000)
    }
}
