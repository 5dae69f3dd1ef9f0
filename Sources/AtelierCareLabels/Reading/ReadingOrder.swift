/// Symbols in the order a person reads a label: rows from top to bottom, left to right in a row.
enum ReadingOrder {
    /// Rows follow the label's own slant: the median slope between horizontally neighbouring
    /// symbols turns the centres level first, so a label photographed at an angle still reads
    /// as rows. Then a centre within half a typical symbol height of a row's line joins it.
    static func sorted<T>(_ items: [T], box: (T) -> SymbolBox) -> [T] {
        guard items.count > 1 else { return items }
        let boxes = items.map(box)
        let heights = boxes.map(\.height).sorted()
        let typical = heights[heights.count / 2]
        var slopes: [Double] = []
        for a in boxes {
            for b in boxes where b.centreX - a.centreX > typical * 0.5 && b.centreX - a.centreX < typical * 3 {
                let slope = (b.centreY - a.centreY) / (b.centreX - a.centreX)
                if abs(slope) < 0.6 { slopes.append(slope) }
            }
        }
        let slope = slopes.isEmpty ? 0 : slopes.sorted()[slopes.count / 2]
        // Position across the rows, measured perpendicular to the slanted row direction.
        func across(_ b: SymbolBox) -> Double { b.centreY - slope * b.centreX }
        func along(_ b: SymbolBox) -> Double { b.centreX + slope * b.centreY }
        var rows: [(line: Double, members: [Int])] = []
        for i in boxes.indices.sorted(by: { across(boxes[$0]) < across(boxes[$1]) }) {
            let v = across(boxes[i])
            if let last = rows.indices.last, abs(v - rows[last].line) <= typical / 2 {
                rows[last].members.append(i)
                rows[last].line = rows[last].members.map { across(boxes[$0]) }.reduce(0, +) / Double(rows[last].members.count)
            } else {
                rows.append((v, [i]))
            }
        }
        return rows.flatMap { row in row.members.sorted { along(boxes[$0]) < along(boxes[$1]) }.map { items[$0] } }
    }
}
