import Foundation

/// ISO 8601 days (`2026-11-21`) and instants (`2026-11-21T10:15:00Z`), validated and normalised
/// without Foundation's formatters, which are slow and locale-sensitive.
///
/// Every day this type produces lies in `dayRange`, the years 0000–9999 that four digits can
/// write: outside it a day would format as `-001-…` or `10000-…`, text no reader (this one
/// included) takes for a date.
public enum ISODate {
    /// The day numbers of 0000-01-01 through 9999-12-31.
    public static let dayRange = dayNumber(year: 0, month: 1, day: 1)...dayNumber(year: 9999, month: 12, day: 31)

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    /// The calendar date of a day number (the inverse of `dayNumber`). Exact for any day number
    /// more than 719,468 below `Int.max`, far beyond `dayRange`.
    public static func civil(fromDayNumber z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    public static func formatDay(_ dayNumber: Int) -> String {
        let (y, m, d) = civil(fromDayNumber: dayNumber)
        return String(format: "%04d-%02d-%02d", y, m, d)
    }

    /// The day number of a `YYYY-MM-DD` string, or nil when it is not a real calendar day.
    public static func parseDay(_ text: String) -> Int? {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              let y = digits(u, 0, 4), let m = digits(u, 5, 2), let d = digits(u, 8, 2),
              (1...12).contains(m), d >= 1, d <= daysInMonth(year: y, month: m)
        else { return nil }
        return dayNumber(year: y, month: m, day: d)
    }

    static func digits(_ u: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for i in start..<(start + count) {
            let b = u[i]
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(b - UInt8(ascii: "0"))
        }
        return value
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Normalises an instant to UTC `YYYY-MM-DDTHH:MM:SSZ` (keeping fractional seconds when given).
    /// Accepts `Z` or a `±HH:MM` offset; a bare date-time without zone is refused as ambiguous, and
    /// so is one whose offset moves it out of the years 0000–9999 (`0000-01-01T00:00:00+01:00`).
    public static func normalizeInstant(_ text: String) -> String? {
        let u = Array(text.utf8)
        guard u.count >= 20, u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: " "),
              let day = parseDay(String(decoding: u[0..<10], as: UTF8.self)),
              u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
              let hh = digits(u, 11, 2), let mm = digits(u, 14, 2), let ss = digits(u, 17, 2),
              hh < 24, mm < 60, ss < 61
        else { return nil }
        var i = 19
        var fraction = ""
        if u[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < u.count, u[i] >= UInt8(ascii: "0"), u[i] <= UInt8(ascii: "9") { i += 1 }
            guard i > start else { return nil }
            fraction = "." + String(decoding: u[start..<i], as: UTF8.self)
        }
        guard i < u.count else { return nil }
        var offsetMinutes = 0
        if u[i] == UInt8(ascii: "Z") || u[i] == UInt8(ascii: "z") {
            guard i + 1 == u.count else { return nil }
        } else if u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") {
            guard i + 6 == u.count, u[i + 3] == UInt8(ascii: ":"),
                  let oh = digits(u, i + 1, 2), let om = digits(u, i + 4, 2), oh < 24, om < 60
            else { return nil }
            offsetMinutes = (oh * 60 + om) * (u[i] == UInt8(ascii: "+") ? 1 : -1)
        } else {
            return nil
        }
        var seconds = day * 86400 + hh * 3600 + mm * 60 + ss - offsetMinutes * 60
        let outDay = Int((Double(seconds) / 86400).rounded(.down))
        guard dayRange.contains(outDay) else { return nil }
        seconds -= outDay * 86400
        return formatDay(outDay) + String(format: "T%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60) + fraction + "Z"
    }

    public static func formatInstant(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let day = Int((Double(total) / 86400).rounded(.down))
        let s = total - day * 86400
        return formatDay(day) + String(format: "T%02d:%02d:%02dZ", s / 3600, s / 60 % 60, s % 60)
    }

    /// Today's day number in the local time zone: a wear logged in the evening belongs to today.
    public static func today(now: Date = Date()) -> Int {
        let offset = TimeZone.current.secondsFromGMT(for: now)
        return Int(((now.timeIntervalSince1970 + Double(offset)) / 86400).rounded(.down))
    }

    /// Reads a day that may be relative: `today`, `yesterday`, `today-30d`, `today+2w`
    /// (units d, w, m for 30 days, y for 365 days), or an ISO day. Returns nil for text of
    /// another shape; throws when the shape is right but the day falls outside `dayRange`
    /// (`today+9223372036854775807w`), a count of any size included.
    public static func resolveDay(_ text: String, today: Int) throws(RecordsError) -> Int? {
        if let day = parseDay(text) { return day }
        let lower = Array(text.lowercased().utf8)
        let offsetDays: Int
        if lower.elementsEqual("today".utf8) {
            offsetDays = 0
        } else if lower.elementsEqual("yesterday".utf8) {
            offsetDays = -1
        } else {
            guard lower.count >= 8, lower.starts(with: "today".utf8), lower[5] == UInt8(ascii: "+") || lower[5] == UInt8(ascii: "-")
            else { return nil }
            let unitDays: Int
            switch lower[lower.count - 1] {
            case UInt8(ascii: "d"): unitDays = 1
            case UInt8(ascii: "w"): unitDays = 7
            case UInt8(ascii: "m"): unitDays = 30
            case UInt8(ascii: "y"): unitDays = 365
            default: return nil
            }
            let digits = lower[6..<(lower.count - 1)]
            guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            // Checked arithmetic throughout: a count too big for Int is as out of range as one
            // that overflows once multiplied.
            var count = 0
            var overflow = false
            for d in digits {
                let (times10, o1) = count.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(Int(d - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                count = sum
            }
            let (days, o3) = count.multipliedReportingOverflow(by: unitDays)
            guard !overflow, !o3 else { throw outOfRange(text) }
            offsetDays = lower[5] == UInt8(ascii: "-") ? -days : days
        }
        let (day, overflow) = today.addingReportingOverflow(offsetDays)
        guard !overflow, dayRange.contains(day) else { throw outOfRange(text) }
        return day
    }

    private static func outOfRange(_ text: String) -> RecordsError {
        RecordsError.field("\"\(text)\" is out of the range of dates, 0000-01-01 to 9999-12-31")
    }
}
