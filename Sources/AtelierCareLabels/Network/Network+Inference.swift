extension Network {
    /// Runs the network on one input with values in [0, 1]; `normalization`, if the file has
    /// one, is applied here, so pass raw pixel values and not normalised ones.
    /// - Precondition: the network takes the input's shape (`outputShape(for:)` says so
    ///   without trapping; a classifier's fixed size is checked when its file is loaded).
    public func run(_ input: Tensor) -> Tensor {
        run(batch: [input])[0]
    }

    /// Runs the network on many inputs, as `run(_:)` on each: consecutive inputs of one shape
    /// go through each layer together, a few at a time, as one matrix product, and share one
    /// allocation. (With OpenBLAS on this CPU a single 48×48 crop already keeps the GEMM
    /// busy, so this is about as fast per image as `run(_:)`; it pays on CPUs where small
    /// GEMMs are slow.)
    /// - Precondition: the network takes every input's shape.
    public func run(batch inputs: [Tensor]) -> [Tensor] {
        run(batch: inputs, budget: .standard)
    }

    /// `run(batch:)` with a chosen memory budget (tests use tiny ones to exercise the bands
    /// and batch splits that only large inputs reach otherwise).
    func run(batch inputs: [Tensor], budget: InferencePlan.Budget) -> [Tensor] {
        var outputs: [Tensor] = []
        outputs.reserveCapacity(inputs.count)
        var start = 0
        while start < inputs.count {
            let shape = inputs[start].shape
            let plan: InferencePlan
            do {
                plan = try InferencePlan(network: self, input: shape, budget: budget)
            } catch {
                preconditionFailure(error.description)
            }
            var end = start + 1
            while end < inputs.count, inputs[end].shape == shape { end += 1 }
            plan.withBuffers(batch: min(end - start, plan.batchLimit)) { buffers in
                var first = start
                while first < end {
                    let count = min(end - first, buffers.batch)
                    forward(inputs[first..<(first + count)], plan: plan, buffers: buffers, into: &outputs)
                    first += count
                }
            }
            start = end
        }
        return outputs
    }

    /// Runs `inputs` (all of `plan`'s input shape, at most `buffers.batch` of them) through
    /// every layer and appends one output each.
    private func forward(_ inputs: ArraySlice<Tensor>, plan: InferencePlan, buffers: InferenceBuffers, into outputs: inout [Tensor]) {
        let batch = inputs.count
        var source = buffers.ping
        var target = buffers.pong
        pack(inputs, into: source)
        for (index, layer) in layers.enumerated() {
            let input = plan.shapes[index], output = plan.shapes[index + 1]
            switch layer {
            case .convolution(let conv):
                conv.forward(source, input, target, output, batch: batch, scratch: buffers.scratch, bandRows: plan.bandRows[index])
            case .maxPool(let size):
                Pooling.maximum(source, input, target, output, batch: batch, size: size)
            case .globalAveragePool:
                Pooling.globalAverage(source, input, target, batch: batch)
            case .dense(let dense):
                dense.forward(source, input, target, batch: batch, scratch: buffers.scratch)
            }
            swap(&source, &target)
        }
        let shape = plan.shapes[layers.count]
        let plane = shape.height * shape.width
        for item in 0..<batch {
            let values = [Float](unsafeUninitializedCapacity: shape.count) { buffer, initialized in
                for channel in 0..<shape.channels {
                    (buffer.baseAddress! + channel * plane).initialize(from: source + (channel * batch + item) * plane, count: plane)
                }
                initialized = shape.count
            }
            outputs.append(Tensor(shape: shape, values: values))
        }
    }

    /// Copies `inputs` into the engine's layout (below), normalising on the way.
    private func pack(_ inputs: ArraySlice<Tensor>, into target: UnsafeMutablePointer<Float>) {
        let batch = inputs.count
        for (item, input) in inputs.enumerated() {
            let plane = input.height * input.width
            input.values.withUnsafeBufferPointer { values in
                let source = values.baseAddress!
                for channel in 0..<input.channels {
                    let from = source + channel * plane, to = target + (channel * batch + item) * plane
                    if let normalization {
                        let scale = 1 / normalization.std, offset = -normalization.mean / normalization.std
                        for i in 0..<plane { to[i] = from[i] * scale + offset }
                    } else {
                        to.update(from: from, count: plane)
                    }
                }
            }
        }
    }
}

/// The shapes and memory one input shape needs, worked out once per `run(batch:)` group.
///
/// The engine's layout for a batch of `n` activations of C×H×W is channel-major across the
/// batch: the H×W plane of channel `c` of item `i` starts at `(c · n + i) · H · W`. A full
/// convolution's output is then exactly the `C_out × (n · H · W)` product of one GEMM, and a 1×1
/// convolution's input is already its right-hand matrix; for `n = 1` it is plain CHW.
struct InferencePlan {
    /// How much memory the buffers of one run may take, in floats.
    struct Budget {
        /// For an im2col band.
        var scratchFloats: Int
        /// For one activation buffer, when choosing how many inputs go together.
        var activationFloats: Int

        /// 1 MiB of im2col and 512 KiB per activation buffer. Measured on the 48×48 classifier
        /// and a 256×384 image (Zen 4, 1 MiB L2 per core): batches in 4 MiB buffers were 10–15%
        /// slower than in these, and bands from 128 KiB to 2 MiB made no measurable difference.
        static let standard = Budget(scratchFloats: 1 << 18, activationFloats: 1 << 17)
    }

    let shapes: [TensorShape]
    /// Output rows (counted across the batch) per im2col band, per layer; 0 where there is no
    /// im2col.
    let bandRows: [Int]
    /// Largest activation of one input, in floats.
    let activationFloats: Int
    /// Inputs that go through the layers together.
    let batchLimit: Int
    /// For each im2col layer: floats of one output row's columns, and output rows per input.
    private let bands: [(rowFloats: Int, rows: Int, bandRows: Int)]
    /// Largest input of a dense layer that sees more than one pixel (transposed for a batch).
    private let denseFloats: Int
    /// Largest padded plane of a depthwise convolution.
    private let planeFloats: Int

    init(network: Network, input: TensorShape, budget: Budget) throws(CareLabelError) {
        shapes = try network.shapes(for: input)
        activationFloats = shapes.map(\.count).max()!
        batchLimit = max(1, budget.activationFloats / activationFloats)
        var bandRows: [Int] = []
        var bands: [(rowFloats: Int, rows: Int, bandRows: Int)] = []
        var denseFloats = 0
        var planeFloats = 0
        for (index, layer) in network.layers.enumerated() {
            let input = shapes[index], output = shapes[index + 1]
            switch layer {
            case .convolution(let conv) where !conv.isPointwise && !conv.isDepthwise:
                let rowFloats = conv.patchSize * output.width
                let rows = max(1, budget.scratchFloats / rowFloats)
                bandRows.append(rows)
                bands.append((rowFloats, output.height, rows))
            case .convolution(let conv) where conv.isDepthwise && conv.pad > 0:
                // One padded input plane at a time, whatever the batch.
                planeFloats = max(planeFloats, (input.height + 2 * conv.pad) * (input.width + 2 * conv.pad))
                bandRows.append(0)
            case .dense where input.height * input.width > 1:
                denseFloats = max(denseFloats, input.count)
                bandRows.append(0)
            default:
                bandRows.append(0)
            }
        }
        self.bandRows = bandRows
        self.bands = bands
        self.denseFloats = denseFloats
        self.planeFloats = planeFloats
    }

    /// Scratch floats for a batch of `batch`: the largest im2col band (never more than the
    /// whole output), padded depthwise plane or dense layer's transposed input.
    func scratchFloats(batch: Int) -> Int {
        var largest = max(planeFloats, batch > 1 ? batch * denseFloats : 0)
        for band in bands {
            largest = max(largest, band.rowFloats * min(band.bandRows, batch * band.rows))
        }
        return largest
    }

    /// Floats left after each buffer, so that im2col may copy eight values at a time (and
    /// gather eight out of sixteen) without a scalar tail on every row.
    static let slack = 16

    /// Allocates the buffers for batches of up to `batch` inputs, in one block, for `body`.
    func withBuffers<R>(batch: Int, _ body: (InferenceBuffers) -> R) -> R {
        let activation = activationFloats * batch + Self.slack
        let scratch = scratchFloats(batch: batch) + Self.slack
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 2 * activation + scratch)
        defer { block.deallocate() }
        // Layers write before they read, except im2col's reads past a buffer's end (whose
        // values only land where they are overwritten): zeroed, so they are never garbage.
        for end in [activation, 2 * activation, 2 * activation + scratch] {
            (block + (end - Self.slack)).initialize(repeating: 0, count: Self.slack)
        }
        return body(InferenceBuffers(ping: block, pong: block + activation, scratch: block + 2 * activation, batch: batch))
    }
}

/// The three buffers of a run: two activations that swap roles at each layer, and scratch.
struct InferenceBuffers {
    let ping: UnsafeMutablePointer<Float>
    let pong: UnsafeMutablePointer<Float>
    let scratch: UnsafeMutablePointer<Float>
    /// How many inputs the buffers hold.
    let batch: Int
}
