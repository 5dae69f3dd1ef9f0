import COpenBLAS

extension DenseLayer {
    /// `output = activation(weights · input + bias)` for each item of a batch in the engine's
    /// layout (see `InferencePlan`), written as the `outFeatures × n` matrix that layout makes
    /// of `outFeatures×1×1` outputs.
    ///
    /// After a global pool (1×1 planes), or for a single item, the input already is the
    /// `inFeatures × n` right-hand matrix. Otherwise each item's C·H·W values lie in C separate
    /// planes, so they are first gathered into `scratch` as an `n × inFeatures` matrix, used
    /// transposed.
    func forward(
        _ source: UnsafeMutablePointer<Float>, _ input: TensorShape,
        _ target: UnsafeMutablePointer<Float>, batch: Int, scratch: UnsafeMutablePointer<Float>
    ) {
        let plane = input.height * input.width
        let gathered = batch > 1 && plane > 1
        if gathered {
            for item in 0..<batch {
                for channel in 0..<input.channels {
                    (scratch + item * inFeatures + channel * plane)
                        .update(from: source + (channel * batch + item) * plane, count: plane)
                }
            }
        }
        weights.withUnsafeBufferPointer { weights in
            cblas_sgemm(CblasRowMajor, CblasNoTrans, gathered ? CblasTrans : CblasNoTrans,
                        Int32(outFeatures), Int32(batch), Int32(inFeatures),
                        1, weights.baseAddress!, Int32(inFeatures),
                        gathered ? scratch : source, Int32(gathered ? inFeatures : batch),
                        0, target, Int32(batch))
        }
        bias.withUnsafeBufferPointer { bias in
            applyBiasAndActivation(target, rows: outFeatures, columns: batch, stride: batch, bias: bias.baseAddress!, activation)
        }
    }
}
