/// The pooling layers, over a batch in the engine's layout (see `InferencePlan`): every
/// channel of every item is one H×W plane, so both work plane by plane.
enum Pooling {
    /// Maximum over `size × size` windows with step `size`; a remainder row or column is dropped.
    static func maximum(
        _ source: UnsafeMutablePointer<Float>, _ input: TensorShape,
        _ target: UnsafeMutablePointer<Float>, _ output: TensorShape, batch: Int, size: Int
    ) {
        let inPlane = input.height * input.width, outPlane = output.height * output.width
        if size == 2 {
            maximum2(source, input, target, output, planes: input.channels * batch)
            return
        }
        for plane in 0..<(input.channels * batch) {
            let from = source + plane * inPlane, to = target + plane * outPlane
            for y in 0..<output.height {
                let outRow = to + y * output.width
                let top = from + y * size * input.width
                for x in 0..<output.width { outRow[x] = top[x * size] }
                for dy in 0..<size {
                    let line = top + dy * input.width
                    for x in 0..<output.width {
                        let window = line + x * size
                        var best = outRow[x]
                        for dx in 0..<size { best = max(best, window[dx]) }
                        outRow[x] = best
                    }
                }
            }
        }
    }

    /// 2×2 windows, eight outputs at a time from sixteen values of each of two rows. Reads up
    /// to 15 floats past a row and writes up to 7, taken back by the next row or plane or left
    /// in `InferencePlan.slack` (see `FloatCopy`).
    private static func maximum2(
        _ source: UnsafeMutablePointer<Float>, _ input: TensorShape,
        _ target: UnsafeMutablePointer<Float>, _ output: TensorShape, planes: Int
    ) {
        let inPlane = input.height &* input.width, outPlane = output.height &* output.width
        let inWidth = input.width, outWidth = output.width
        for plane in 0..<planes {
            let from = source + plane &* inPlane, to = target + plane &* outPlane
            for y in 0..<output.height {
                var top = UnsafeRawPointer(from + 2 &* y &* inWidth)
                var bottom = top + inWidth &* 4
                var out = UnsafeMutableRawPointer(to + y &* outWidth)
                var left = outWidth
                while left > 0 {
                    var both = top.loadUnaligned(as: SIMD16<Float>.self)
                    let lower = bottom.loadUnaligned(as: SIMD16<Float>.self)
                    both.replace(with: lower, where: both .< lower)
                    var pairs = both.evenHalf
                    let odd = both.oddHalf
                    pairs.replace(with: odd, where: pairs .< odd)
                    out.storeBytes(of: pairs, as: SIMD8<Float>.self)
                    top += 64
                    bottom += 64
                    out += 32
                    left &-= 8
                }
            }
        }
    }

    /// Mean of each plane: C×H×W → C×1×1, which in the engine's layout is the `C × n` matrix a
    /// following dense layer multiplies.
    static func globalAverage(
        _ source: UnsafeMutablePointer<Float>, _ input: TensorShape,
        _ target: UnsafeMutablePointer<Float>, batch: Int
    ) {
        let inPlane = input.height * input.width
        let scale = 1 / Float(inPlane)
        for plane in 0..<(input.channels * batch) {
            let from = source + plane * inPlane
            // Four running sums: shorter dependency chains, and less rounding over large planes.
            var sums = SIMD4<Float>()
            var i = 0
            while i + 4 <= inPlane {
                sums += SIMD4(from[i], from[i + 1], from[i + 2], from[i + 3])
                i += 4
            }
            var sum = sums.sum()
            while i < inPlane {
                sum += from[i]
                i += 1
            }
            target[plane] = sum * scale
        }
    }
}
