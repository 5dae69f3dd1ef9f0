import AtelierCharts
import AtelierRecords
import Foundation

extension Lookbook {
    /// The models that have their files (`data.modelAssets`), by id.
    var shownModels: [(id: String, record: JSONObject, assets: ModelAssets)] {
        data.models.compactMap { record in
            guard let id = record["id"]?.string, let assets = data.modelAssets[id] else { return nil }
            return (id, record, assets)
        }
    }

    /// The model of a garment: the one its `model` field names, else one that names the garment.
    func model(of garment: JSONObject) -> (id: String, record: JSONObject, assets: ModelAssets)? {
        let models = shownModels
        if let id = garment["model"]?.string, let found = models.first(where: { $0.id == id }) { return found }
        guard let garmentID = garment["id"]?.string else { return nil }
        return models.last(where: { $0.record["garment"]?.string == garmentID })
    }

    /// What a model is called on a page: its garment's name, else its id.
    func title(ofModel record: JSONObject) -> String {
        let garment = record["garment"]?.string.flatMap { data.garmentsByID[$0] }
        return garment?["name"]?.string ?? record["id"]?.string ?? "Model"
    }

    /// Adds a model's files (and, once, the viewer and three.js) to the site.
    func addFiles(ofModel id: String, _ assets: ModelAssets, _ files: inout Files) {
        for (name, path) in assets.siteFiles(id: id) { files.copies[name] = path }
        if let threeJS {
            for (name, path) in threeJS.files { files.copies["js/" + name] = path }
            files.contents["js/viewer.js"] = Array(ViewerScript.source.utf8)
        }
    }

    /// The scripts a page with the viewer of model `id` loads (none without three.js).
    func viewerScripts(_ id: String) -> [String] {
        threeJS == nil ? [] : ThreeJS.pageScripts + ["models/\(Self.safe(id)).glb.js", "js/viewer.js"]
    }

    /// The viewer: the poster in a focusable stage the script turns into a live view, the
    /// buttons (shown once it is live), a line that says how to use it, and the AR link.
    func viewer(_ id: String, name: String, root: String) -> String {
        let stem = "\(root)models/\(Self.safe(id))"
        let note = threeJS == nil
            ? "A still of the model: three.js was not found when this site was written (apt-get install libjs-three, then export again)."
            : "A still of the model while the 3D view loads."
        let buttons = [("left", "Turn left"), ("right", "Turn right"), ("up", "Tilt up"), ("down", "Tilt down"), ("in", "Zoom in"), ("out", "Zoom out"), ("reset", "Reset")]
            .map { "<button type=\"button\" data-action=\"\($0.0)\" hidden>\($0.1)</button>" }.joined()
        return """
        <figure class="model">
        <div class="stage" data-model="\(Self.safe(id))" tabindex="0" role="group" aria-label="3D model of \(HTML.escape(name))"><img class="poster" src="\(stem)-poster.png" alt="\(HTML.escape(name)), a still of the 3D model" width="\(ModelView.posterWidth)" height="\(ModelView.posterHeight)"></div>
        <figcaption><div class="model-controls">\(buttons)</div><p class="model-note" aria-live="polite">\(note)</p>
        <p><a rel="ar" href="\(stem).usdz"><img class="ar" src="\(stem)-poster.png" alt="\(HTML.escape(name)) in augmented reality (USDZ)" width="96" height="72"></a> <a href="\(stem).usdz" download>The USDZ file</a>: AR Quick Look on an iPhone or iPad, or any USD viewer.</p></figcaption>
        </figure>
        """
    }

    /// Every model with its still, linking to its page.
    func modelIndex(_ files: inout Files) -> String {
        let models = shownModels
        let cards = models.map { model -> String in
            addFiles(ofModel: model.id, model.assets, &files)
            let name = title(ofModel: model.record)
            return "<li class=\"card\"><a href=\"models/\(Self.safe(model.id)).html\"><img class=\"thumb\" src=\"models/\(Self.safe(model.id))-poster.png\" alt=\"\(HTML.escape(name)), 3D model\" loading=\"lazy\"><span>\(HTML.escape(name))</span></a></li>"
        }
        let body = "<h1>3D models</h1>\n" + (cards.isEmpty
            ? "<p>No 3D models yet: photograph a garment all round, then <code>atl-reconstruct PHOTOS --garment ID | atl-import</code>.</p>"
            : "<ul class=\"grid\">\(cards.joined(separator: "\n"))</ul>")
        return HTML.page(title: "3D models", root: "", body: body)
    }

    /// A model's page: the viewer, what it was made from and how finely, and its garment.
    func modelPage(_ id: String, _ record: JSONObject, _ assets: ModelAssets, _ files: inout Files) -> String {
        addFiles(ofModel: id, assets, &files)
        let name = title(ofModel: record)
        var facts: [(String, String)] = []
        if let garment = record["garment"]?.string {
            facts.append(("Garment", data.garmentsByID[garment] == nil ? HTML.escape(garment) : "<a href=\"../garments/\(Self.safe(garment)).html\">\(HTML.escape(name))</a>"))
        }
        if let detail = record["detail"]?.string { facts.append(("Detail", HTML.escape(detail))) }
        if let faces = record["faces"]?.number { facts.append(("Triangles", ChartNumber.format(faces))) }
        if let vertices = record["vertices"]?.number { facts.append(("Vertices", ChartNumber.format(vertices))) }
        if let registered = record["registered"]?.number {
            let of = record["images"]?.number.map { " of \(ChartNumber.format($0))" } ?? ""
            facts.append(("Photos used", ChartNumber.format(registered) + of))
        }
        if let size = record["metrics"]?.object?["size"]?.array?.compactMap(\.number), size.count == 3 {
            // The record does not say whether --height scaled it.
            facts.append(("Width × height × depth", size.map { ChartNumber.format(($0 * 1000).rounded() / 1000) }.joined(separator: " × ")
                + " (metres when made with --height, else the cameras' units)"))
        }
        let body = """
        <h1>\(HTML.escape(name))</h1>
        \(viewer(id, name: name, root: "../"))
        <h2>About the model</h2>
        <table class="facts">\(facts.map { "<tr><th scope=\"row\">\($0.0)</th><td>\($0.1)</td></tr>" }.joined())</table>
        """
        return HTML.page(title: "\(name) in 3D", root: "../", body: body, scripts: viewerScripts(id))
    }
}
