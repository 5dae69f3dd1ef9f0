import AtelierCharts

/// HTML text: escaping, and the frame every page shares (one stylesheet, a skip link, the site's
/// navigation, relative links only).
enum HTML {
    static func escape(_ text: String) -> String { Markup.escape(text) }

    /// A whole page. `root` is the way back to the site's top ("" or "../").
    static func page(title: String, root: String, body: String, scripts: [String] = []) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · Atelier</title>
        <link rel="stylesheet" href="\(root)style.css">
        </head>
        <body>
        <a class="skip" href="#main">Skip to the content</a>
        <header><nav aria-label="Lookbook"><a href="\(root)index.html">Garments</a> <a href="\(root)outfits.html">Outfits</a> <a href="\(root)insights.html">Insights</a> <a href="\(root)laundry.html">Laundry</a> <a href="\(root)photos.html">Photos</a> <a href="\(root)models.html">3D models</a></nav></header>
        <main id="main">
        \(body)
        </main>
        \(scripts.map { "<script src=\"\(root)\($0)\"></script>" }.joined(separator: "\n"))
        </body>
        </html>

        """
    }

    static let stylesheet = """
    :root { --ink: #1a1a1a; --muted: #5c5c5c; --line: #d9d9d9; --accent: #0072B2; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 16px/1.5 "DejaVu Sans", Verdana, Arial, sans-serif; color: var(--ink); background: #fff; }
    header { border-bottom: 1px solid var(--line); padding: 0.75rem 1.5rem; }
    nav a { margin-right: 1.25rem; color: var(--accent); font-weight: bold; }
    main { padding: 1rem 1.5rem 3rem; max-width: 72rem; }
    .skip { position: absolute; left: -10000px; }
    .skip:focus { left: 1rem; top: 0.5rem; background: #fff; padding: 0.25rem; }
    a:focus, select:focus, button:focus { outline: 3px solid #E69F00; outline-offset: 2px; }
    .grid { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); gap: 1rem; }
    .card a { display: block; color: inherit; text-decoration: none; }
    .card .thumb { width: 100%; aspect-ratio: 1; object-fit: cover; border: 1px solid var(--line); display: block; }
    .card .swatch { width: 100%; aspect-ratio: 1; border: 1px solid var(--line); display: block; }
    .card span { display: block; font-size: 0.9rem; margin-top: 0.25rem; }
    .filters { display: flex; flex-wrap: wrap; gap: 1rem; margin: 1rem 0; }
    .filters label { display: flex; flex-direction: column; font-size: 0.85rem; color: var(--muted); }
    .filters select { font-size: 1rem; padding: 0.25rem; }
    .photos img { max-width: 20rem; max-height: 20rem; margin: 0 0.5rem 0.5rem 0; border: 1px solid var(--line); }
    table.facts th { text-align: left; padding-right: 1rem; color: var(--muted); font-weight: normal; vertical-align: top; }
    .care { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1rem; }
    .care li { width: 9rem; font-size: 0.85rem; }
    .care svg { width: 3rem; height: 3rem; display: block; }
    .side { display: flex; flex-wrap: wrap; gap: 1rem; list-style: none; padding: 0; }
    .side li { width: 10rem; }
    .chart svg { max-width: 100%; height: auto; }
    .colour { display: inline-block; width: 1rem; height: 1rem; border: 1px solid var(--muted); vertical-align: middle; }
    .model { margin: 0 0 1rem; max-width: 48rem; }
    .stage { position: relative; aspect-ratio: 4 / 3; background: #f2f2f0; border: 1px solid var(--line); }
    .stage canvas, .stage .poster { display: block; width: 100%; height: 100%; }
    .stage canvas { cursor: grab; touch-action: none; }
    .stage[data-state="ready"] .poster { display: none; }
    .stage:focus { outline: 3px solid #E69F00; outline-offset: 2px; }
    .model-controls { display: flex; flex-wrap: wrap; gap: 0.5rem; margin-top: 0.5rem; }
    .model-controls button { font: inherit; font-size: 0.9rem; padding: 0.25rem 0.75rem; }
    .model-note { color: var(--muted); font-size: 0.9rem; }
    img.ar { vertical-align: middle; border: 1px solid var(--line); }
    [hidden] { display: none !important; }
    """
}
