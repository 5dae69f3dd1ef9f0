/// The garment's silhouette in a photo taken on a plain backdrop, on a coarse grid of cells
/// (128–255 on the shorter side): what reconstruction uses to keep features off the backdrop.
///
/// It is `SubjectMask`'s filled silhouette (the largest region that differs from a backdrop
/// modelled as a colour plus a gradient), widened by `marginCells` so features on the garment's
/// outline, which are often its strongest, stay in. There is none when the border of the photo is
/// not a plain backdrop or no clear subject stands out: the caller then uses the whole photo.
public struct SubjectSilhouette: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// One byte per cell, rows top to bottom: 1 on the garment (and its margin), 0 elsewhere.
    public let cells: [UInt8]

    /// The silhouette of an RGB (or grey, which is expanded) photo, or nil.
    public init?(_ image: Image, marginCells: Int = 2) {
        let rgb = image.channels == 3 ? image : image.rgb()
        let subject = SubjectMask(rgb)
        guard subject.found else { return nil }
        var cells = subject.silhouette, scratch = cells
        for _ in 0 ..< max(0, marginCells) {
            SubjectMask.filter3x3(&cells, scratch: &scratch, width: subject.width, height: subject.height, maximum: true)
        }
        width = subject.width
        height = subject.height
        self.cells = cells
    }

    /// The fraction of the frame the silhouette covers.
    public var coverage: Double { Double(cells.reduce(0) { $0 + Int($1) }) / Double(max(1, cells.count)) }
}
