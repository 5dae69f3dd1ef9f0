import AtelierRecords
import Foundation

/// Progress of work in named stages (reconstruction's pre-processing, feature matching, image
/// alignment, …) on stderr: one bar per stage with its fraction, a note and an ETA on a terminal,
/// or NDJSON events for scripts (`{"type":"progress","stage":"image alignment","fraction":0.5,
/// "detail":"12/24 registered","etaSeconds":8.1}`). Safe to call from any thread.
public final class StageProgress: @unchecked Sendable {
    private let mode: ProgressMode
    private let lock = NSLock()
    private var stage: String?
    private var stageStart = Date()
    private var lastUpdate = Date.distantPast
    private var lastFraction = 0.0

    public init(mode: ProgressMode) {
        if mode == .auto {
            self.mode = isatty(2) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" ? .bar : .none
        } else {
            self.mode = mode
        }
    }

    /// Reports `fraction` (0–1; negative keeps the last) of `stage` done. Updates within a stage
    /// are throttled to five a second; a new stage, and its end, always show.
    public func update(stage: String, fraction: Double, detail: String) {
        guard mode != .none else { return }
        lock.withLock {
            let now = Date()
            let isNewStage = stage != self.stage
            if isNewStage {
                if self.stage != nil, mode == .bar { FileHandle.standardError.write(Data("\n".utf8)) }
                self.stage = stage
                stageStart = now
                lastFraction = 0
            }
            let f = fraction < 0 ? lastFraction : min(1, max(0, fraction))
            lastFraction = f
            guard isNewStage || f >= 1 || now.timeIntervalSince(lastUpdate) >= 0.2 else { return }
            lastUpdate = now
            let elapsed = now.timeIntervalSince(stageStart)
            let eta: Double? = f > 0.02 && f < 1 ? elapsed * (1 - f) / f : nil
            switch mode {
            case .json:
                var event: JSONObject = ["type": "progress", "stage": .string(stage), "fraction": .double((f * 10_000).rounded() / 10_000),
                                         "detail": .string(detail), "elapsedSeconds": .double((elapsed * 10).rounded() / 10)]
                if let eta { event["etaSeconds"] = .double((eta * 10).rounded() / 10) }
                FileHandle.standardError.write(Data((JSONWriter.string(event) + "\n").utf8))
            case .bar:
                let width = 24, filled = Int(f * Double(width))
                var line = "\r\(stage) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
                line += String(format: "%3d%% ", Int(f * 100)) + detail
                if let eta { line += " ETA " + ProgressReporter.clock(eta) }
                FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
            default:
                break
            }
        }
    }

    /// Ends the last stage's bar line.
    public func finish() {
        guard mode == .bar else { return }
        lock.withLock {
            if stage != nil { FileHandle.standardError.write(Data("\n".utf8)) }
            stage = nil
        }
    }
}
