import ArgumentParser
import AtelierRecords
import Foundation

/// How progress is shown on stderr.
public enum ProgressMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// A bar when stderr is a terminal, nothing otherwise.
    case auto
    case bar
    /// One NDJSON event per update: `{"type":"progress","stage":…,"done":…,"total":…}`.
    case json
    case none
}

/// Shows progress of long work on stderr: a bar with count, rate and ETA on a terminal, or
/// NDJSON events for scripts. Updates are throttled to a few per second.
public final class ProgressReporter {
    private let mode: ProgressMode
    private let stage: String
    private let unit: String
    private var total: Int?
    private let start = Date()
    private var lastUpdate = Date.distantPast
    private var drewBar = false

    public init(mode: ProgressMode, stage: String, unit: String, total: Int? = nil) {
        if mode == .auto {
            self.mode = isatty(2) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" ? .bar : .none
        } else {
            self.mode = mode
        }
        self.stage = stage
        self.unit = unit
        self.total = total
    }

    public var isActive: Bool { mode != .none }

    /// Reports `done` units of `total` (the total may be in other units, e.g. bytes: `fraction`).
    public func update(done: Int, fraction: Double? = nil, force: Bool = false) {
        guard mode != .none else { return }
        let now = Date()
        guard force || now.timeIntervalSince(lastUpdate) >= 0.2 else { return }
        lastUpdate = now
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed
        let f = fraction ?? total.map { $0 > 0 ? Double(done) / Double($0) : 1 }
        let eta = f.flatMap { $0 > 0.01 ? elapsed * (1 - $0) / $0 : nil }
        switch mode {
        case .json:
            var event: JSONObject = ["type": "progress", "stage": .string(stage), "done": .int(Int64(done))]
            if let total { event["total"] = .int(Int64(total)) }
            if let f { event["fraction"] = .double((min(f, 1) * 10_000).rounded() / 10_000) }
            event["rate"] = .double((rate * 10).rounded() / 10)
            if let eta { event["etaSeconds"] = .double((eta * 10).rounded() / 10) }
            FileHandle.standardError.write(Data((JSONWriter.string(event) + "\n").utf8))
        case .bar:
            var line = "\r\(stage) "
            if let f {
                let width = 24
                let filled = Int(min(f, 1) * Double(width))
                line += "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
                line += String(format: "%3d%% ", Int(min(f, 1) * 100))
            }
            if unit == "bytes" {
                line += Self.bytes(Double(done))
                if let total { line += "/" + Self.bytes(Double(total)) }
                line += " " + Self.bytes(rate) + "/s"
            } else {
                line += "\(done)"
                if let total { line += "/\(total)" }
                line += " \(unit) " + String(format: "%.0f/s", rate)
            }
            if let eta { line += " ETA " + Self.clock(eta) }
            line += "\u{1B}[K"
            FileHandle.standardError.write(Data(line.utf8))
            drewBar = true
        default:
            break
        }
    }

    /// Final update; clears the bar line.
    public func finish(done: Int) {
        guard mode != .none else { return }
        update(done: done, fraction: 1, force: true)
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    public static func bytes(_ value: Double) -> String { ByteCount.describe(value) }

    public static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}

/// A `ProgressReporter` that workers on several threads may update.
public final class LockedProgressReporter: @unchecked Sendable {
    private let lock = NSLock()
    private let reporter: ProgressReporter

    public init(_ reporter: ProgressReporter) { self.reporter = reporter }

    public func update(done: Int) { lock.withLock { reporter.update(done: done) } }

    public func finish(done: Int) { lock.withLock { reporter.finish(done: done) } }
}
