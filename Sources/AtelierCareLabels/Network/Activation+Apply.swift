import Foundation

/// Adds `bias` and applies `activation` to `count` values in place: the one pass every
/// convolution and dense output gets after its matrix product.
@inline(__always)
func activate(_ values: UnsafeMutablePointer<Float>, count: Int, adding bias: Float, _ activation: Activation) {
    switch activation {
    case .none:
        if bias != 0 { for i in 0..<count { values[i] += bias } }
    case .relu:
        for i in 0..<count { values[i] = max(values[i] + bias, 0) }
    case .sigmoid:
        for i in 0..<count { values[i] = 1 / (1 + exp(-(values[i] + bias))) }
    }
}

/// `activate` over the `rows × columns` matrix at `base` (row stride `stride`), with row `r`'s
/// bias `bias[r]`: a GEMM's output, one output channel per row.
func applyBiasAndActivation(
    _ base: UnsafeMutablePointer<Float>, rows: Int, columns: Int, stride: Int,
    bias: UnsafePointer<Float>, _ activation: Activation
) {
    for row in 0..<rows {
        activate(base + row * stride, count: columns, adding: bias[row], activation)
    }
}
