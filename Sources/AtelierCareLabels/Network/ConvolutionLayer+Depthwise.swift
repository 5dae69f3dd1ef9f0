extension ConvolutionLayer {
    /// Depthwise convolution: each channel of each item with its own k×k filter, by direct
    /// loops (there is no sum over channels for a GEMM to do).
    ///
    /// Each input plane is first copied into `scratch` inside its zero padding, so that no tap
    /// needs a bounds test; then eight outputs at a time add up their k² taps in registers and
    /// are stored with bias and activation. Writes up to 7 floats past each output row, which
    /// the next row (or plane, or `InferencePlan.slack`) takes back.
    func depthwise(
        _ source: UnsafeMutablePointer<Float>, _ input: TensorShape,
        _ target: UnsafeMutablePointer<Float>, _ output: TensorShape,
        batch: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        let inPlane = input.height &* input.width, outPlane = output.height &* output.width
        let paddedWidth = input.width &+ 2 &* pad
        let outWidth = output.width, taps = kernel &* kernel
        weights.withUnsafeBufferPointer { weights in
            for channel in 0..<outChannels {
                let filter = weights.baseAddress! + channel &* taps
                let bias = self.bias[channel]
                for item in 0..<batch {
                    let plane = channel &* batch &+ item
                    let padded: UnsafePointer<Float>
                    if pad == 0 {
                        padded = UnsafePointer(source + plane &* inPlane)
                    } else {
                        surround(source + plane &* inPlane, input, into: scratch)
                        padded = UnsafePointer(scratch)
                    }
                    let to = target + plane &* outPlane
                    for y in 0..<output.height {
                        let top = padded + y &* stride &* paddedWidth
                        let outRow = to + y &* outWidth
                        if stride <= 2 {
                            filterRow(top, paddedWidth: paddedWidth, filter: filter, bias: bias, into: outRow, count: outWidth)
                            if activation == .sigmoid { activate(outRow, count: outWidth, adding: 0, .sigmoid) }
                        } else {
                            for x in 0..<outWidth {
                                var sum = bias
                                for ky in 0..<kernel {
                                    let line = top + (ky &* paddedWidth &+ x &* stride)
                                    for kx in 0..<kernel { sum += filter[ky &* kernel &+ kx] * line[kx] }
                                }
                                outRow[x] = sum
                            }
                            activate(outRow, count: outWidth, adding: 0, activation)
                        }
                    }
                }
            }
        }
    }

    /// One output row for stride 1 or 2, eight outputs at a time, ReLU applied in registers.
    @inline(__always)
    private func filterRow(
        _ top: UnsafePointer<Float>, paddedWidth: Int, filter: UnsafePointer<Float>, bias: Float,
        into outRow: UnsafeMutablePointer<Float>, count: Int
    ) {
        let stride2 = stride == 2
        var x = 0
        while x < count {
            var sum = SIMD8<Float>(repeating: bias)
            var line = top + x &* stride
            var tap = filter
            for _ in 0..<kernel {
                for kx in 0..<kernel {
                    sum += tap.pointee * FloatCopy.load8(line + kx, stride2: stride2)
                    tap += 1
                }
                line += paddedWidth
            }
            if activation == .relu { sum.replace(with: 0, where: sum .< 0) }
            UnsafeMutableRawPointer(outRow + x).storeBytes(of: sum, as: SIMD8<Float>.self)
            x &+= 8
        }
    }

    /// Copies an H×W plane into `target` as (H + 2·pad)×(W + 2·pad), zeros around it.
    private func surround(_ plane: UnsafeMutablePointer<Float>, _ input: TensorShape, into target: UnsafeMutablePointer<Float>) {
        let width = input.width, paddedWidth = width &+ 2 &* pad
        FloatCopy.zero(target, count: pad &* paddedWidth)
        var row = target + pad &* paddedWidth
        for y in 0..<input.height {
            // The copy runs up to 7 floats into the right padding and the next row, which are
            // written after it.
            FloatCopy.zero(row, count: pad)
            FloatCopy.copy(plane + y &* width, into: row + pad, count: width)
            FloatCopy.zero(row + (pad &+ width), count: pad)
            row += paddedWidth
        }
        FloatCopy.zero(row, count: pad &* paddedWidth)
    }
}
