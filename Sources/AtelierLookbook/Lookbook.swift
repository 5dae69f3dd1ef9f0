import AtelierCharts
import AtelierRecords
import AtelierWardrobe
import Foundation

/// The lookbook: a static web site of the wardrobe, as the files to write. Every link is
/// relative, nothing is fetched from a network, and the filters of the index work from
/// `file://` with no server (and, without JavaScript, the index is a plain list of links).
public struct Lookbook {
    public let data: LookbookData
    /// The 3D viewer's library, copied into the site; without it model pages show their still.
    public let threeJS: ThreeJS?

    /// The site's files by relative path: the pages and stylesheet as bytes, and the photos as
    /// files to copy (their absolute paths).
    public struct Files {
        public var contents: [String: [UInt8]] = [:]
        public var copies: [String: String] = [:]
    }

    public init(_ data: LookbookData, threeJS: ThreeJS? = nil) {
        self.data = data
        self.threeJS = threeJS
    }

    public func files() -> Files {
        var files = Files()
        files.contents["style.css"] = Array(HTML.stylesheet.utf8)
        files.contents["filters.js"] = Array(Self.filtersScript.utf8)
        files.contents["index.html"] = Array(index(&files).utf8)
        for garment in data.garments {
            guard let id = garment["id"]?.string else { continue }
            files.contents["garments/\(Self.safe(id)).html"] = Array(garmentPage(garment, &files).utf8)
        }
        files.contents["outfits.html"] = Array(outfitIndex().utf8)
        for outfit in data.outfits {
            guard let id = outfit["id"]?.string else { continue }
            files.contents["outfits/\(Self.safe(id)).html"] = Array(outfitPage(outfit, &files).utf8)
        }
        files.contents["insights.html"] = Array(insights().utf8)
        files.contents["laundry.html"] = Array(laundryPage().utf8)
        files.contents["photos.html"] = Array(photosPage(&files).utf8)
        files.contents["models.html"] = Array(modelIndex(&files).utf8)
        for model in shownModels {
            files.contents["models/\(Self.safe(model.id)).html"] = Array(modelPage(model.id, model.record, model.assets, &files).utf8)
        }
        return files
    }

    /// An id as a file name: ids are `g_` and base32, but a stream may carry anything.
    static func safe(_ id: String) -> String {
        String(id.unicodeScalars.map { ($0.properties.isAlphabetic || ("0" ... "9").contains($0) || $0 == "_" || $0 == "-") && $0.isASCII ? Character($0) : "_" })
    }

    /// The square thumbnail (else the thumbnail, else the photo) of a garment's first photo,
    /// copied into `img/`, as a path relative to the site's top.
    func thumbnail(of garment: JSONObject, _ files: inout Files) -> String? {
        for case .string(let id) in garment["images"]?.array ?? [] {
            guard let image = data.images[id] else { continue }
            for field in ["thumbnailSquare", "thumbnail", "path"] {
                guard let source = image[field]?.string, FileManager.default.isReadableFile(atPath: source) else { continue }
                let name = "img/\(Self.safe(id.replacingOccurrences(of: "sha256:", with: "")))-\(field).\(source.lowercased().hasSuffix(".png") ? "png" : "jpg")"
                files.copies[name] = source
                return name
            }
        }
        return nil
    }

    /// The picture of a garment on a card: its photo, else a square of its colour.
    func picture(_ garment: JSONObject, root: String, _ files: inout Files) -> String {
        let name = HTML.escape(garment["name"]?.string ?? "garment")
        if let thumb = thumbnail(of: garment, &files) {
            return "<img class=\"thumb\" src=\"\(root)\(thumb)\" alt=\"\(name)\" loading=\"lazy\">"
        }
        let colour = garment["color"]?.string.flatMap(GarmentColour.init(hex:)).map { _ in garment["color"]!.string! } ?? "#eeeeee"
        return "<span class=\"swatch\" role=\"img\" aria-label=\"\(name), no photo\" style=\"background: \(HTML.escape(colour))\"></span>"
    }

    // MARK: index

    func index(_ files: inout Files) -> String {
        var values: [String: Set<String>] = ["category": [], "season": [], "colour": [], "state": []]
        var cards: [String] = []
        for garment in data.garments {
            guard let id = garment["id"]?.string else { continue }
            let category = garment["category"]?.string ?? "other"
            let seasons = (garment["seasons"]?.array ?? []).compactMap(\.string)
            let group = garment["color"]?.string.flatMap(GarmentColour.init(hex:))?.laundryGroup.rawValue ?? "unknown"
            let state = garment["state"]?.string ?? "available"
            values["category"]!.insert(category)
            values["season"]!.formUnion(seasons)
            values["colour"]!.insert(group)
            values["state"]!.insert(state)
            cards.append("""
            <li class="card" data-category="\(HTML.escape(category))" data-season="\(HTML.escape(seasons.joined(separator: " ")))" data-colour="\(group)" data-state="\(HTML.escape(state))"><a href="garments/\(Self.safe(id)).html">\(picture(garment, root: "", &files))<span>\(HTML.escape(garment["name"]?.string ?? id))</span></a></li>
            """)
        }
        func select(_ key: String, _ label: String) -> String {
            let options = values[key]!.sorted().map { "<option value=\"\(HTML.escape($0))\">\(HTML.escape(Wording.spoken($0)))</option>" }.joined()
            return "<label>\(label)<select name=\"\(key)\"><option value=\"\">any</option>\(options)</select></label>"
        }
        let body = """
        <h1>Garments</h1>
        <form class="filters" id="filters" hidden aria-label="Filter the garments">
        \(select("category", "Category"))\(select("season", "Season"))\(select("colour", "Colour"))\(select("state", "State"))
        <p id="shown" aria-live="polite"></p>
        </form>
        <ul class="grid" id="garments">
        \(cards.joined(separator: "\n"))
        </ul>
        """
        return HTML.page(title: "Garments", root: "", body: body, scripts: ["filters.js"])
    }

    /// Shows the cards that match every filter chosen. Without JavaScript the form stays hidden
    /// and every card is a plain link.
    static let filtersScript = """
    (function () {
      var form = document.getElementById('filters');
      var cards = Array.prototype.slice.call(document.querySelectorAll('#garments .card'));
      var shown = document.getElementById('shown');
      function apply() {
        var chosen = {};
        Array.prototype.forEach.call(form.querySelectorAll('select'), function (s) { if (s.value) chosen[s.name] = s.value; });
        var count = 0;
        cards.forEach(function (card) {
          var ok = Object.keys(chosen).every(function (key) {
            var have = (card.getAttribute('data-' + key) || '').split(' ');
            return have.indexOf(chosen[key]) >= 0;
          });
          card.hidden = !ok;
          if (ok) count++;
        });
        shown.textContent = count + ' of ' + cards.length + ' garments';
      }
      // The filters in the address (index.html#category=top&season=winter), so a filtered view
      // can be bookmarked or linked to.
      location.hash.replace(/^#/, '').split('&').forEach(function (pair) {
        var kv = pair.split('=');
        var select = form.querySelector('select[name="' + decodeURIComponent(kv[0] || '') + '"]');
        if (select && kv[1]) select.value = decodeURIComponent(kv[1]);
      });
      form.hidden = false;
      form.addEventListener('change', function () {
        var parts = [];
        Array.prototype.forEach.call(form.querySelectorAll('select'), function (s) {
          if (s.value) parts.push(encodeURIComponent(s.name) + '=' + encodeURIComponent(s.value));
        });
        history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);
        apply();
      });
      apply();
    })();
    """

    // MARK: garment page

    func garmentPage(_ garment: JSONObject, _ files: inout Files) -> String {
        let id = garment["id"]?.string ?? ""
        let name = garment["name"]?.string ?? id
        var photos: [String] = []
        for case .string(let imageID) in garment["images"]?.array ?? [] {
            guard let image = data.images[imageID] else { continue }
            for field in ["thumbnail", "path"] {
                guard let source = image[field]?.string, FileManager.default.isReadableFile(atPath: source) else { continue }
                let file = "img/\(Self.safe(imageID.replacingOccurrences(of: "sha256:", with: "")))-\(field).\(source.lowercased().hasSuffix(".png") ? "png" : "jpg")"
                files.copies[file] = source
                photos.append("<img src=\"../\(file)\" alt=\"\(HTML.escape(name)), photo \(photos.count + 1)\">")
                break
            }
        }
        var facts: [(String, String)] = []
        func fact(_ label: String, _ value: String?) { if let value, !value.isEmpty { facts.append((label, value)) } }
        fact("Category", [garment["category"]?.string, garment["subcategory"]?.string].compactMap { $0 }.map { HTML.escape(Wording.spoken($0)) }.joined(separator: " · "))
        fact("Brand", garment["brand"]?.string.map(HTML.escape))
        if let hex = garment["color"]?.string, GarmentColour(hex: hex) != nil {
            fact("Colour", "<span class=\"colour\" style=\"background: \(HTML.escape(hex))\"></span> \(HTML.escape(Wording.spoken(garment["colorName"]?.string ?? hex)))")
        }
        fact("Seasons", (garment["seasons"]?.array ?? []).compactMap(\.string).map(HTML.escape).joined(separator: ", "))
        fact("Style", garment["style"]?.string.map { HTML.escape(Wording.spoken($0)) })
        fact("State", HTML.escape(Wording.spoken(garment["state"]?.string ?? "available")) + (garment["readyToWash"]?.bool == true ? " (wants washing)" : ""))
        fact("Composition", (garment["composition"]?.array ?? []).compactMap { $0.object }.map { part in
            "\(ChartNumber.format(part["percent"]?.number ?? 100))% \(HTML.escape(Wording.spoken(part["fabric"]?.string ?? "?")))"
        }.joined(separator: ", "))
        let price = garment["price"]?.object
        if let amount = price?["amount"]?.number {
            let currency = price?["currency"]?.string ?? "EUR"
            fact("Price", "\(ChartNumber.format(amount)) \(HTML.escape(currency))")
            let wears = garment["wearCount"]?.number ?? 0
            if wears > 0 { fact("Cost per wear", "\(ChartNumber.format(amount / wears)) \(HTML.escape(currency))") }
        }
        fact("Bought", garment["purchasedOn"]?.string.map(HTML.escape))
        fact("Wears", garment["wearCount"]?.number.map { ChartNumber.format($0) } ?? "0")
        fact("Last worn", garment["lastWornOn"]?.string.map(HTML.escape) ?? "never")
        fact("Last washed", garment["lastWashedOn"]?.string.map(HTML.escape))
        if let load = data.laundry.first(where: { load in
            (load["garments"]?.array ?? []).contains(.string(id)) && !["done", "cancelled"].contains(load["status"]?.string ?? "")
        }) {
            fact("Laundry", "in the \(HTML.escape(Wording.spoken(load["bin"]?.string ?? "?"))) load, \(HTML.escape(load["status"]?.string ?? "planned"))")
        }
        let care = (garment["care"]?.array ?? []).compactMap(\.string).map { code in
            "<li>\(CareIcon.svg(code))<span>\(HTML.escape(CareSymbol.named(code)?.meaning ?? code))</span></li>"
        }
        let outfits = data.outfits.filter { ($0["garments"]?.array ?? []).contains(.string(id)) }.compactMap { outfit -> String? in
            guard let oid = outfit["id"]?.string else { return nil }
            return "<li><a href=\"../outfits/\(Self.safe(oid)).html\">\(HTML.escape(outfit["name"]?.string ?? oid))</a></li>"
        }
        // The 3D view, when there is a model, first: it shows the garment best.
        let model = model(of: garment)
        var threeD = ""
        if let model {
            addFiles(ofModel: model.id, model.assets, &files)
            threeD = """
            <h2>In 3D</h2>
            \(viewer(model.id, name: name, root: "../"))
            <p><a href="../models/\(Self.safe(model.id)).html">The model\u{2019}s page</a></p>

            """
        }
        let body = """
        <h1>\(HTML.escape(name))</h1>
        \(threeD)<section class="photos" aria-label="Photos">\(photos.isEmpty ? "<p>No photos yet.</p>" : photos.joined())</section>
        <h2>About it</h2>
        <table class="facts">\(facts.map { "<tr><th scope=\"row\">\($0.0)</th><td>\($0.1)</td></tr>" }.joined())</table>
        <h2>Care</h2>
        \(care.isEmpty ? "<p>No care label recorded.</p>" : "<ul class=\"care\">\(care.joined())</ul>")
        <h2>Outfits</h2>
        \(outfits.isEmpty ? "<p>In no outfit yet.</p>" : "<ul>\(outfits.joined())</ul>")
        """
        return HTML.page(title: name, root: "../", body: body, scripts: model.map { viewerScripts($0.id) } ?? [])
    }

    // MARK: outfits

    func outfitIndex() -> String {
        let items = data.outfits.compactMap { outfit -> String? in
            guard let id = outfit["id"]?.string else { return nil }
            return "<li><a href=\"outfits/\(Self.safe(id)).html\">\(HTML.escape(outfit["name"]?.string ?? id))</a>\(outfit["favorite"]?.bool == true ? " ★<span class=\"skip\">favourite</span>" : "")</li>"
        }
        return HTML.page(title: "Outfits", root: "", body: "<h1>Outfits</h1>\n" + (items.isEmpty ? "<p>No outfits yet.</p>" : "<ul>\(items.joined(separator: "\n"))</ul>"))
    }

    func outfitPage(_ outfit: JSONObject, _ files: inout Files) -> String {
        let name = outfit["name"]?.string ?? "Outfit"
        let byID = data.garmentsByID
        let pieces = (outfit["garments"]?.array ?? []).compactMap(\.string).map { gid -> String in
            guard let garment = byID[gid] else { return "<li>\(HTML.escape(gid)) (not in the lookbook)</li>" }
            return "<li class=\"card\"><a href=\"../garments/\(Self.safe(gid)).html\">\(picture(garment, root: "../", &files))<span>\(HTML.escape(garment["name"]?.string ?? gid))</span></a></li>"
        }
        var facts: [String] = []
        if let tone = outfit["tone"]?.string { facts.append("<tr><th scope=\"row\">Tone</th><td>\(HTML.escape(Wording.spoken(tone)))</td></tr>") }
        if let value = outfit["value"]?.object, !value.isEmpty {
            facts.append("<tr><th scope=\"row\">Value</th><td>\(value.map { "\(ChartNumber.format($0.value.number ?? 0)) \(HTML.escape($0.key))" }.joined(separator: ", "))</td></tr>")
        }
        for (field, label) in [("seasons", "Seasons"), ("occasions", "Occasions"), ("tags", "Tags")] {
            let words = (outfit[field]?.array ?? []).compactMap(\.string)
            if !words.isEmpty { facts.append("<tr><th scope=\"row\">\(label)</th><td>\(words.map(HTML.escape).joined(separator: ", "))</td></tr>") }
        }
        facts.append("<tr><th scope=\"row\">Wears</th><td>\(ChartNumber.format(outfit["wearCount"]?.number ?? 0))</td></tr>")
        let body = """
        <h1>\(HTML.escape(name))\(outfit["favorite"]?.bool == true ? " ★" : "")</h1>
        <ul class="side">\(pieces.joined())</ul>
        <table class="facts">\(facts.joined())</table>
        """
        return HTML.page(title: name, root: "../", body: body)
    }

    // MARK: insights

    func insights() -> String {
        var sections: [String] = []
        let plans: [(String, String?, ChartKind, String)] = [
            ("category", nil, .bars, "Garments by category"),
            ("category", "value", .donut, "Where the money went"),
            ("month", "wears", .line, "Wears by month"),
            ("garment", "costPerWear", .ranking, "Cost per wear"),
        ]
        for (index, (by, field, kind, title)) in plans.enumerated() {
            guard let records = data.stats[by], let chart = try? ChartData.fromStats(records, field: field) else { continue }
            var drawing = SVGChart(kind: kind, data: chart, title: title, width: 800, height: kind == .ranking ? 640 : 420)
            drawing.idPrefix = "chart\(index + 1)"
            drawing.drawsTitle = false  // the section's heading is the title
            guard let svg = try? drawing.render() else { continue }
            // Inline, without the XML declaration, so its text is the page's text.
            let inline = svg.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? svg
            sections.append("<section class=\"chart\" aria-label=\"\(HTML.escape(title))\"><h2>\(HTML.escape(title))</h2>\n\(inline)</section>")
        }
        let body = "<h1>Insights</h1>\n" + (sections.isEmpty ? "<p>No statistics to show yet.</p>" : sections.joined(separator: "\n"))
        return HTML.page(title: "Insights", root: "", body: body)
    }
}
