import COpenBLAS

extension ConvolutionLayer {
    /// Convolves a batch (in the engine's layout, see `InferencePlan`) from `source` into
    /// `target`, adding the bias and applying the activation.
    ///
    /// A full convolution is one GEMM, `weights (C_out × C_in·k²) · columns (C_in·k² × n·H·W)`,
    /// with the im2col matrix built `bandRows` output rows at a time so that scratch stays
    /// small for large images; a 1×1 convolution multiplies the input itself. Bias and
    /// activation follow each band while it is still in cache.
    func forward(
        _ source: UnsafeMutablePointer<Float>, _ input: TensorShape,
        _ target: UnsafeMutablePointer<Float>, _ output: TensorShape,
        batch: Int, scratch: UnsafeMutablePointer<Float>, bandRows: Int
    ) {
        if isDepthwise {
            depthwise(source, input, target, output, batch: batch, scratch: scratch)
            return
        }
        let columns = batch * output.height * output.width
        weights.withUnsafeBufferPointer { weights in
            bias.withUnsafeBufferPointer { bias in
                if isPointwise {
                    multiply(weights.baseAddress!, patchSize, source, columns, target, ldc: columns)
                    applyBiasAndActivation(target, rows: outChannels, columns: columns, stride: columns, bias: bias.baseAddress!, activation)
                    return
                }
                let totalRows = batch * output.height
                var first = 0
                while first < totalRows {
                    let rows = min(bandRows, totalRows - first)
                    im2col(source, input, output, batch: batch, firstRow: first, rows: rows, into: scratch)
                    let band = target + first * output.width
                    let bandColumns = rows * output.width
                    multiply(weights.baseAddress!, patchSize, scratch, bandColumns, band, ldc: columns)
                    applyBiasAndActivation(band, rows: outChannels, columns: bandColumns, stride: columns, bias: bias.baseAddress!, activation)
                    first += rows
                }
            }
        }
    }

    /// `c[outChannels × n] = weights[outChannels × k] · b[k × n]`, row-major, with row stride
    /// `ldc` in `c`.
    private func multiply(_ weights: UnsafePointer<Float>, _ k: Int, _ b: UnsafePointer<Float>, _ n: Int, _ c: UnsafeMutablePointer<Float>, ldc: Int) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans,
                    Int32(outChannels), Int32(n), Int32(k),
                    1, weights, Int32(k), b, Int32(n), 0, c, Int32(ldc))
    }

    /// Writes the im2col columns of output rows `firstRow..<firstRow + rows` (counted across
    /// the batch: row `r` is row `r % H_out` of item `r / H_out`) into `scratch`, as a
    /// `C_in·k² × rows·W_out` row-major matrix whose row `(c·k + ky)·k + kx` holds input pixel
    /// `(c, y·stride − pad + ky, x·stride − pad + kx)` for each output pixel `(y, x)`, zero in
    /// the padding.
    ///
    /// Reads up to `InferencePlan.slack` floats past the end of `source` and writes as many
    /// past the end of the band (see `FloatCopy.copy`).
    private func im2col(
        _ source: UnsafeMutablePointer<Float>, _ input: TensorShape, _ output: TensorShape,
        batch: Int, firstRow: Int, rows: Int, into scratch: UnsafeMutablePointer<Float>
    ) {
        // Wrapping arithmetic: every index is below the buffer sizes the plan allocated, so none
        // can overflow, and the checks would cost more than the copying on 6-pixel rows.
        let inPlane = input.height &* input.width, inHeight = input.height, inWidth = input.width
        let outHeight = output.height, outWidth = output.width
        // With stride 1 and "same" padding, output row y of a matrix row reads input row
        // y − pad + ky whole, shifted: the rows of one item are then one run of the input.
        let rowsAlign = stride == 1 && outWidth == inWidth
        let firstItem = firstRow / outHeight, firstY = firstRow &- firstItem &* outHeight
        var segment = scratch
        for channel in 0..<inChannels {
            let planes = source + channel &* batch &* inPlane
            for ky in 0..<kernel {
                for kx in 0..<kernel {
                    let (lo, hi) = validColumns(kx, inputWidth: inWidth, outputWidth: outWidth)
                    let shift = kx &- pad
                    var item = firstItem, y = firstY, left = rows
                    while left > 0 {
                        // The output rows y..<end of one item, and among them those whose input
                        // row is inside the image.
                        let end = min(outHeight, y &+ left)
                        let validFrom = min(end, max(y, (pad &- ky &+ stride &- 1) / stride))
                        let lastRow = inHeight &- 1 &+ pad &- ky
                        let validTo = max(validFrom, min(end, lastRow < 0 ? 0 : lastRow / stride &+ 1))
                        let plane = planes + item &* inPlane
                        FloatCopy.zero(segment, count: (validFrom &- y) &* outWidth)
                        segment += (validFrom &- y) &* outWidth
                        if lo >= hi {
                            FloatCopy.zero(segment, count: (validTo &- validFrom) &* outWidth)
                            segment += (validTo &- validFrom) &* outWidth
                        } else if rowsAlign {
                            let first = plane + ((validFrom &- pad &+ ky) &* inWidth &+ lo &+ shift)
                            FloatCopy.copy(first, into: segment + lo, count: (validTo &- validFrom &- 1) &* outWidth &+ hi &- lo)
                            // The run carried the neighbouring row's pixels into the padding
                            // columns (`pad` at most on each side): zero them again.
                            if lo > 0 || hi < outWidth {
                                for _ in validFrom..<validTo {
                                    for x in 0..<lo { segment[x] = 0 }
                                    for x in hi..<outWidth { segment[x] = 0 }
                                    segment += outWidth
                                }
                            } else {
                                segment += (validTo &- validFrom) &* outWidth
                            }
                        } else {
                            for oy in validFrom..<validTo {
                                let line = plane + (oy &* stride &- pad &+ ky) &* inWidth
                                FloatCopy.zero(segment, count: lo)
                                if stride == 1 {
                                    FloatCopy.copy(line + (lo &+ shift), into: segment + lo, count: hi &- lo)
                                } else {
                                    FloatCopy.gather(line + (lo &* stride &+ shift), stride: stride, into: segment + lo, count: hi &- lo)
                                }
                                FloatCopy.zero(segment + hi, count: outWidth &- hi)
                                segment += outWidth
                            }
                        }
                        FloatCopy.zero(segment, count: (end &- validTo) &* outWidth)
                        segment += (end &- validTo) &* outWidth
                        left &-= end &- y
                        y = 0
                        item &+= 1
                    }
                }
            }
        }
    }

    /// The output columns `lo..<hi` whose kernel column `kx` lands inside the input row
    /// (`0 ≤ x·stride − pad + kx < width`); the others read padding.
    @inline(__always)
    private func validColumns(_ kx: Int, inputWidth: Int, outputWidth: Int) -> (Int, Int) {
        let before = pad - kx
        let lo = before <= 0 ? 0 : min(outputWidth, (before + stride - 1) / stride)
        let last = inputWidth - 1 + pad - kx
        let hi = last < 0 ? 0 : min(outputWidth, last / stride + 1)
        return (lo, max(lo, hi))
    }
}
