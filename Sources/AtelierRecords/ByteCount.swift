import Foundation

/// Byte counts for people: `512 B`, `4.0 MB`, `1.5 GB`, `30 MB` (decimal units, as transfer
/// tools and disk sizes show them), one decimal below 10.
public enum ByteCount {
    public static func describe(_ bytes: Double) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = bytes, unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return String(format: unit > 0 && value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
    }
}
