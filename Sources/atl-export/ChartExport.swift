import AtelierCLI
import AtelierCharts
import AtelierRecords
import ArgumentParser
import Foundation

extension ChartKind: ExpressibleByArgument {}

extension ExportCommand {
    /// `--format svg|png`: the stats records on the input drawn as one chart, written to -o
    /// (atomically) or standard output.
    func exportChart() throws {
        var records: [JSONObject] = []
        try forEachRecord { record, _ in
            if record["type"] == "stats" { records.append(record) }
        }
        let data = try ChartData.fromStats(records, field: value)
        if !data.otherCurrencies.isEmpty {
            Diagnostics.warn("charted in \(data.currency ?? "?"); the amounts in \(data.otherCurrencies.joined(separator: ", ")) are left out (a chart has one unit)")
        }
        let kind = chart ?? ChartKind.default(for: data.dimension)
        if kind == .ranking && data.points.count > SVGChart.rankingLimit {
            Diagnostics.warn("the ranking shows the \(SVGChart.rankingLimit) largest of \(data.points.count) \(data.dimension == "garment" ? "garments" : "groups")")
        }
        let svg = try SVGChart(kind: kind, data: data, title: title ?? Self.defaultTitle(data, kind), width: width, height: height).render()
        let bytes = format == .png ? try PNGRenderer.png(svg: svg, width: width, height: height) : Array(svg.utf8)
        let target = try OutputTarget(path: output)
        do {
            let sink = RecordOutput(fd: target.fd, destination: target.destination, lineBuffered: false)
            try sink.writeRaw(bytes)
            try sink.flush()
            try target.commit()
        } catch {
            target.abandon()
            throw error
        }
    }

    /// "Wears by month", "Cost per wear (EUR) by garment".
    static func defaultTitle(_ data: ChartData, _ kind: ChartKind) -> String {
        let what = data.axisTitle
        let by = kind == .donut ? "Share of \(what) by \(data.dimension)" : "\(what.prefix(1).uppercased() + what.dropFirst()) by \(data.dimension)"
        return by
    }
}
