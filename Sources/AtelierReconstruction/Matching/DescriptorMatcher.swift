import Foundation

/// Nearest-neighbour matching of RootSIFT descriptors between two images, by brute force.
///
/// Descriptors are unit vectors, so the nearest neighbour is the one with the largest dot
/// product, and every dot product of a pair of images is one matrix product `A·Bᵀ`, which
/// OpenBLAS computes near the machine's peak (`RuntimeBLAS`). The product is formed a band of rows at a time so
/// the scratch stays small (a few megabytes whatever the feature counts); each band is scanned
/// once, keeping each row's two best columns and each column's best row. Angles
/// (`acos` of the dot product, as COLMAP measures them) are taken only for the winners.
///
/// Matching one pair uses one thread: `PairMatcher` runs pairs in parallel, which scales better
/// than threading inside a product of this size.
public struct DescriptorMatcher: Sendable {
    public let options: MatchingOptions
    /// Bytes of scratch for one band of the product.
    static let bandBytes = 2 << 20

    public init(options: MatchingOptions = MatchingOptions()) throws(ReconstructionError) {
        try options.validate()
        self.options = options
    }

    /// The matches from `first` to `second`, ordered by `index1`.
    public func match(_ first: Features, _ second: Features) -> [FeatureMatch] {
        let rows = first.count, columns = second.count
        guard rows > 0, columns > 0 else { return [] }
        var rowBest = [Int32](repeating: -1, count: rows)
        var rowBestDot = [Float](repeating: -1, count: rows)
        var rowSecondDot = [Float](repeating: -1, count: rows)
        var columnBest = [Int32](repeating: -1, count: columns)
        var columnBestDot = [Float](repeating: -.infinity, count: columns)
        let bandRows = max(1, min(rows, Self.bandBytes / (4 * columns)))
        var band = [Float](repeating: 0, count: bandRows * columns)

        first.descriptors.withUnsafeBufferPointer { a in
            second.descriptors.withUnsafeBufferPointer { b in
                band.withUnsafeMutableBufferPointer { c in
                    var start = 0
                    while start < rows {
                        let count = min(bandRows, rows - start)
                        RuntimeBLAS.multiplyTransposed(a.baseAddress! + start * Features.descriptorLength, b.baseAddress!,
                                                       into: c.baseAddress!, rows: count, columns: columns, depth: Features.descriptorLength)
                        for r in 0 ..< count {
                            let best = Self.scanRow(c.baseAddress! + r * columns, columns: columns, row: Int32(start + r),
                                                    columnBest: &columnBest, columnBestDot: &columnBestDot)
                            rowBest[start + r] = best.index
                            rowBestDot[start + r] = best.dot
                            rowSecondDot[start + r] = best.second
                        }
                        start += count
                    }
                }
            }
        }

        var matches: [FeatureMatch] = []
        let maxDot = cos(options.maxDistance)
        for i in 0 ..< rows {
            let j = Int(rowBest[i])
            guard j >= 0, rowBestDot[i] >= maxDot else { continue }
            if options.crossCheck && columnBest[j] != Int32(i) { continue }
            let bestAngle = acos(min(1, rowBestDot[i]))
            let secondAngle = acos(min(1, max(-1, rowSecondDot[i])))
            guard bestAngle < options.maxRatio * secondAngle else { continue }
            matches.append(FeatureMatch(i, j))
        }
        return matches
    }

    /// One row of dot products: its best and second-best values and the best's column, while
    /// raising each column's best. Eight lanes at a time: each lane keeps its own best two, and
    /// the row's best two are the best two of those sixteen.
    @inline(__always)
    static func scanRow(_ dots: UnsafePointer<Float>, columns: Int, row: Int32,
                        columnBest: inout [Int32], columnBestDot: inout [Float]) -> (index: Int32, dot: Float, second: Float) {
        typealias Lanes = SIMD8<Float>
        var best = Lanes(repeating: -.infinity), second = Lanes(repeating: -.infinity)
        var bestIndex = SIMD8<Int32>(repeating: -1)
        var index = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        let rowLanes = SIMD8<Int32>(repeating: row)
        let whole = columns & ~7
        columnBest.withUnsafeMutableBufferPointer { colIndex in
            columnBestDot.withUnsafeMutableBufferPointer { colDot in
                let raw = UnsafeRawPointer(dots)
                var j = 0
                while j < whole {
                    let v = raw.loadUnaligned(fromByteOffset: j * 4, as: Lanes.self)
                    let isBest = v .> best
                    second = second.replacing(with: best, where: isBest)
                    second = second.replacing(with: v, where: .!isBest .& (v .> second))
                    best = best.replacing(with: v, where: isBest)
                    bestIndex = bestIndex.replacing(with: index, where: isBest)
                    let columnRaw = UnsafeMutableRawPointer(colDot.baseAddress! + j)
                    let current = columnRaw.loadUnaligned(as: Lanes.self)
                    let raises = v .> current
                    if any(raises) {
                        columnRaw.storeBytes(of: current.replacing(with: v, where: raises), as: Lanes.self)
                        let indexRaw = UnsafeMutableRawPointer(colIndex.baseAddress! + j)
                        let owners = indexRaw.loadUnaligned(as: SIMD8<Int32>.self)
                        indexRaw.storeBytes(of: owners.replacing(with: rowLanes, where: raises), as: SIMD8<Int32>.self)
                    }
                    index &+= 8
                    j += 8
                }
                // Lanes to one best and second best; the lowest column wins a tie, as in the tail.
                var topDot: Float = -.infinity, topIndex: Int32 = -1, runnerUp: Float = -.infinity
                for lane in 0 ..< 8 where bestIndex[lane] >= 0 {
                    let d = best[lane]
                    if d > topDot || (d == topDot && bestIndex[lane] < topIndex) {
                        runnerUp = max(runnerUp, topDot)
                        topDot = d
                        topIndex = bestIndex[lane]
                    } else {
                        runnerUp = max(runnerUp, d)
                    }
                    runnerUp = max(runnerUp, second[lane])
                }
                while j < columns {
                    let d = dots[j]
                    if d > topDot {
                        runnerUp = topDot
                        topDot = d
                        topIndex = Int32(j)
                    } else if d > runnerUp {
                        runnerUp = d
                    }
                    if d > colDot[j] {
                        colDot[j] = d
                        colIndex[j] = row
                    }
                    j += 1
                }
                best[0] = topDot
                second[0] = runnerUp
                bestIndex[0] = topIndex
            }
        }
        return (bestIndex[0], best[0], second[0])
    }
}
