/// Separable Gaussian blur of a `FloatPlane`, both passes fused per row.
///
/// For each output row the vertical pass combines the 2r + 1 source rows around it (clamped at
/// the top and bottom edges) into a scratch row padded by r samples on each side; the horizontal
/// pass then runs along that scratch row into the output. Both passes walk contiguous memory in
/// eight-lane vectors and exploit the kernel's symmetry (`k_j · (a + b)`), there is no transpose
/// and no whole-image temporary, and the rows a band reads stay in cache. Edges replicate the
/// border sample.
///
/// Rows are cut into fixed bands spread over the workers; every output sample is computed with
/// the same arithmetic in the same order whatever the thread count.
enum GaussianBlur {
    /// Output rows per work item.
    static let bandRows = 16

    /// Blurs `source` with `kernel` into `target` (same size, a different plane).
    static func apply(_ source: FloatPlane, kernel: GaussianKernel, into target: FloatPlane, splitter: WorkSplitter) {
        precondition(source.width == target.width && source.height == target.height && source !== target)
        let width = source.width, height = source.height, radius = kernel.radius
        let taps = kernel.taps
        let bands = (height + bandRows - 1) / bandRows
        splitter.forEach(bands) { band in
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: width + 2 * radius)
            let rows = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: 2 * radius + 1)
            defer {
                scratch.deallocate()
                rows.deallocate()
            }
            taps.withUnsafeBufferPointer { k in
                for y in band * bandRows ..< min(height, (band + 1) * bandRows) {
                    for j in -radius ... radius {
                        rows[j + radius] = UnsafePointer(source.row(min(max(y + j, 0), height - 1)))
                    }
                    let middle = scratch + radius
                    verticalPass(rows: rows, taps: k, width: width, into: middle)
                    for j in 1 ... radius {
                        middle[-j] = middle[0]
                        middle[width - 1 + j] = middle[width - 1]
                    }
                    horizontalPass(UnsafePointer(middle), taps: k, width: width, into: target.row(y))
                }
            }
        }
    }

    /// `out[x] = k₀·row₀[x] + Σⱼ kⱼ·(row₋ⱼ[x] + row₊ⱼ[x])`, with `rows[radius]` the centre row.
    ///
    /// Thirty-two columns at a time: four independent eight-lane sums hide the latency of the
    /// additions, and each source row is read 128 contiguous bytes at a visit. Narrower loops
    /// finish the row; every column gets the same arithmetic in the same order either way.
    @inline(__always)
    static func verticalPass(rows: UnsafePointer<UnsafePointer<Float>>, taps: UnsafeBufferPointer<Float>, width: Int,
                             into out: UnsafeMutablePointer<Float>) {
        let radius = taps.count - 1
        let centre = rows[radius]
        let k0 = taps[0], first = SIMD8<Float>(repeating: k0)
        var x = 0
        while x &+ 32 <= width {
            let c = centre + x
            var s0 = first * load8(c), s1 = first * load8(c + 8), s2 = first * load8(c + 16), s3 = first * load8(c + 24)
            for j in 1 ... radius {
                let k = SIMD8<Float>(repeating: taps[j])
                let a = rows[radius - j] + x, b = rows[radius + j] + x
                s0 += k * (load8(a) + load8(b))
                s1 += k * (load8(a + 8) + load8(b + 8))
                s2 += k * (load8(a + 16) + load8(b + 16))
                s3 += k * (load8(a + 24) + load8(b + 24))
            }
            store8(s0, out + x)
            store8(s1, out + x + 8)
            store8(s2, out + x + 16)
            store8(s3, out + x + 24)
            x &+= 32
        }
        while x &+ 8 <= width {
            var sum = first * load8(centre + x)
            for j in 1 ... radius {
                sum += SIMD8<Float>(repeating: taps[j]) * (load8(rows[radius - j] + x) + load8(rows[radius + j] + x))
            }
            store8(sum, out + x)
            x &+= 8
        }
        while x < width {
            var sum = k0 * centre[x]
            for j in 1 ... radius { sum += taps[j] * (rows[radius - j][x] + rows[radius + j][x]) }
            out[x] = sum
            x &+= 1
        }
    }

    /// `out[x] = k₀·row[x] + Σⱼ kⱼ·(row[x−j] + row[x+j])`; `row` is readable from −radius to
    /// width − 1 + radius. Sixteen columns at a time (two independent sums), then eight, then one.
    @inline(__always)
    static func horizontalPass(_ row: UnsafePointer<Float>, taps: UnsafeBufferPointer<Float>, width: Int,
                               into out: UnsafeMutablePointer<Float>) {
        let radius = taps.count - 1
        let k0 = taps[0], first = SIMD8<Float>(repeating: k0)
        var x = 0
        while x &+ 16 <= width {
            let at = row + x
            var s0 = first * load8(at), s1 = first * load8(at + 8)
            for j in 1 ... radius {
                let k = SIMD8<Float>(repeating: taps[j])
                s0 += k * (load8(at - j) + load8(at + j))
                s1 += k * (load8(at + 8 - j) + load8(at + 8 + j))
            }
            store8(s0, out + x)
            store8(s1, out + x + 8)
            x &+= 16
        }
        while x &+ 8 <= width {
            let at = row + x
            var sum = first * load8(at)
            for j in 1 ... radius {
                sum += SIMD8<Float>(repeating: taps[j]) * (load8(at - j) + load8(at + j))
            }
            store8(sum, out + x)
            x &+= 8
        }
        while x < width {
            var sum = k0 * row[x]
            for j in 1 ... radius { sum += taps[j] * (row[x - j] + row[x + j]) }
            out[x] = sum
            x &+= 1
        }
    }
}
