import AtelierCharts
import AtelierImaging
import AtelierRecords
import AtelierWardrobe
import Foundation

extension Lookbook {
    /// The laundry: loads in the wash now (stored and not finished), then this day's plan of
    /// what wants washing (`LaundryPlanner`, the rules of `atl-query laundry-plan`), each load
    /// with its programme, temperature, care symbols and warnings, and what cannot be placed.
    func laundryPage() -> String {
        let byID = data.garmentsByID
        func garmentLinks(_ ids: [String]) -> String {
            ids.map { id in
                let name = byID[id]?["name"]?.string ?? id
                return byID[id] == nil ? HTML.escape(name) : "<a href=\"garments/\(Self.safe(id)).html\">\(HTML.escape(name))</a>"
            }.joined(separator: ", ")
        }
        func load(_ record: JSONObject) -> String {
            let symbols = (record["symbols"]?.array ?? []).compactMap(\.string)
            let warnings = (record["warnings"]?.array ?? []).compactMap { $0.object?["message"]?.string }
            var parts = ["<h3>\(HTML.escape(Wording.spoken(record["bin"]?.string ?? "load"))): \(HTML.escape(Wording.spoken(record["program"]?.string ?? "?")))\(record["temperature"]?.number.map { ", \(ChartNumber.format($0)) °C" } ?? "") <small>(\(HTML.escape(record["status"]?.string ?? "planned")))</small></h3>"]
            parts.append("<p>\(garmentLinks((record["garments"]?.array ?? []).compactMap(\.string)))</p>")
            if !symbols.isEmpty {
                parts.append("<ul class=\"care\">" + symbols.map { "<li>\(CareIcon.svg($0))<span>\(HTML.escape(CareSymbol.named($0)?.meaning ?? $0))</span></li>" }.joined() + "</ul>")
            }
            if !warnings.isEmpty { parts.append("<ul class=\"warnings\">" + warnings.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>") }
            return "<article class=\"load\">\(parts.joined(separator: "\n"))</article>"
        }
        let open = data.laundry.filter { LaundryStatus(rawValue: $0["status"]?.string ?? "planned")?.isOpen ?? true }
        var planner = LaundryPlanner(today: data.today)
        for record in open {
            let name = "\(record["id"]?.string ?? "a load") (\(record["status"]?.string ?? "planned"))"
            for case .string(let garment) in record["garments"]?.array ?? [] { planner.noteOpenLoad(name, garment: garment) }
        }
        for garment in data.garments {
            if let laundryGarment = LaundryGarment(record: garment) { _ = planner.add(laundryGarment) }
        }
        let plan = planner.plan()
        var body = "<h1>Laundry</h1>\n<h2>In the wash</h2>\n"
        body += open.isEmpty ? "<p>Nothing is in the wash.</p>" : open.map(load).joined(separator: "\n")
        body += "\n<h2>Plan for \(ISODate.formatDay(data.today))</h2>\n"
        body += plan.loads.isEmpty ? "<p>Nothing wants washing.</p>" : plan.loads.map { load($0.record(plannedOn: data.today)) }.joined(separator: "\n")
        if !plan.unplaced.isEmpty {
            body += "\n<h2>Not placed</h2>\n<ul>" + plan.unplaced.map { "<li>\(garmentLinks([$0.id])): \(HTML.escape($0.reason))</li>" }.joined() + "</ul>"
        }
        return HTML.page(title: "Laundry", root: "", body: body)
    }

    /// Photos that are near-duplicates of each other (`DuplicateGrouping`, pHash distance), side
    /// by side, with the garment each belongs to.
    func photosPage(_ files: inout Files) -> String {
        let grouping = DuplicateGrouping(images: data.images.values.sorted { ($0["id"]?.string ?? "") < ($1["id"]?.string ?? "") },
                                         threshold: DuplicateGrouping.defaultThreshold)
        let groups = grouping.records.filter { $0["id"]?.string != "other" }
        var body = "<h1>Duplicate photos</h1>\n"
        if groups.isEmpty {
            body += "<p>No two photos look alike\(grouping.unhashed > 0 ? " (\(grouping.unhashed) photos have no perceptual hash yet: atl-classify --task hash)" : "").</p>"
        }
        for group in groups {
            var items: [String] = []
            for case .object(let member) in group["images"]?.array ?? [] {
                guard let id = member["id"]?.string, let image = data.images[id] else { continue }
                let distance = member["distance"]?.number.map { ChartNumber.format($0) } ?? "0"
                var picture = "<span>\(HTML.escape(String(id.prefix(19))))…</span>"
                for field in ["thumbnailSquare", "thumbnail", "path"] {
                    guard let source = image[field]?.string, FileManager.default.isReadableFile(atPath: source) else { continue }
                    let name = "img/\(Self.safe(id.replacingOccurrences(of: "sha256:", with: "")))-\(field).\(source.lowercased().hasSuffix(".png") ? "png" : "jpg")"
                    files.copies[name] = source
                    picture = "<img class=\"thumb\" src=\"\(name)\" alt=\"Photo \(HTML.escape(String(id.dropFirst(7).prefix(12)))), \(distance) bits from the first\">"
                    break
                }
                items.append("<li class=\"card\">\(picture)<span>\(distance) bits apart</span></li>")
            }
            body += "<section><h2>\(items.count) photos alike</h2><ul class=\"side\">\(items.joined())</ul></section>\n"
        }
        return HTML.page(title: "Duplicate photos", root: "", body: body)
    }
}
