import AtelierRecords
import Foundation

/// The `.atlnn` format, version 1 (written by the Python exporter; little-endian):
///
/// 1. the ASCII line `atelier-network 1\n`;
/// 2. one line of JSON: `name`, `input` {channels, height, width (null: any size)}, optional
///    `normalize` {mean, std}, `layers` [{op: conv | maxpool | globalavgpool | dense, …}],
///    optional `classes` [strings, one per output channel], optional `meta` {anything};
/// 3. the float32 tensors in layer order: conv weight [out][in/groups][k][k] then bias [out],
///    dense weight [out][in] then bias [out]; nothing after the last one.
///
/// Reading is defensive: any byte sequence either loads or throws a `CareLabelError` naming the
/// file and the problem. Dimensions are bounded (below), sizes are checked against each other
/// when the input size is known, and the data must be exactly as long as the layers need.
enum NetworkFile {
    static let magic = Array("atelier-network ".utf8)
    static let maxChannels = 4096
    static let maxKernel = 15
    static let maxStride = 15
    static let maxInputSide = 16384
    static let maxLayers = 256
    static let maxHeaderBytes = 16 << 20

    /// The parts of a network read from a file, before `Network` wraps them.
    struct Contents {
        var name: String
        var input: PartialShape
        var normalization: Network.Normalization?
        var layers: [NetworkLayer]
        var classes: [String]
        var meta: JSONObject
    }

    /// A shape whose height and width may be unknown until an input arrives.
    struct PartialShape: Equatable {
        var channels: Int
        var height: Int?
        var width: Int?
    }

    /// A layer as the header states it; the weights come later.
    private enum LayerSpec {
        case convolution(out: Int, kernel: Int, stride: Int, pad: Int, depthwise: Bool, activation: Activation, inChannels: Int)
        case maxPool(size: Int)
        case globalAveragePool
        case dense(out: Int, activation: Activation, inFeatures: Int)

        var parameterCount: Int {
            switch self {
            case let .convolution(out, kernel, _, _, depthwise, _, inChannels):
                return out * (depthwise ? 1 : inChannels) * kernel * kernel + out
            case let .dense(out, _, inFeatures): return out * inFeatures + out
            case .maxPool, .globalAveragePool: return 0
            }
        }
    }

    static func read(_ bytes: UnsafeRawBufferPointer, source: String) throws(CareLabelError) -> Contents {
        // Line 1: the magic and the version.
        guard bytes.count > magic.count, zip(magic, bytes).allSatisfy({ $0 == $1 }) else { throw .notANetwork(source: source) }
        guard let versionEnd = bytes[magic.count...].prefix(16).firstIndex(of: 0x0A) else { throw .notANetwork(source: source) }
        let version = String(decoding: bytes[magic.count..<versionEnd], as: UTF8.self)
        guard version == "1" else {
            guard !version.isEmpty, version.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { throw .notANetwork(source: source) }
            throw .unsupportedVersion(source: source, version: version)
        }

        // Line 2: the JSON header.
        let headerStart = versionEnd + 1
        guard let headerEnd = bytes[headerStart...].prefix(maxHeaderBytes).firstIndex(of: 0x0A) else {
            throw .badHeader(source: source, reason: bytes.count - headerStart > maxHeaderBytes
                ? "the JSON header line is longer than \(maxHeaderBytes) bytes"
                : "the JSON header line does not end with a newline (file cut short?)")
        }
        let header: JSONObject
        do {
            header = try JSONParser.parseObject(UnsafeRawBufferPointer(rebasing: bytes[headerStart..<headerEnd]))
        } catch {
            throw .badHeader(source: source, reason: "line 2 is not a JSON object: \(error.reason) (column \(error.column ?? 0))")
        }
        var contents = Contents(name: "", input: PartialShape(channels: 0), normalization: nil, layers: [], classes: [], meta: [:])
        let specs = try readHeader(header, source: source, into: &contents)

        // The tensors: exactly as many bytes as the layers need.
        var expected = 0
        for spec in specs {
            let (bytesNeeded, overflow) = spec.parameterCount.multipliedReportingOverflow(by: MemoryLayout<Float>.size)
            guard !overflow, expected <= Int.max - bytesNeeded else {
                throw .badHeader(source: source, reason: "the layers need more weights than memory can hold")
            }
            expected += bytesNeeded
        }
        let dataStart = headerEnd + 1
        guard bytes.count - dataStart == expected else {
            throw .dataLength(source: source, expectedBytes: expected, actualBytes: bytes.count - dataStart)
        }
        var offset = dataStart
        for (index, spec) in specs.enumerated() {
            let layerNumber = index + 1
            func tensor(_ count: Int, _ what: String) throws(CareLabelError) -> [Float] {
                let values = try readFloats(bytes, at: offset, count: count, source: source, layer: layerNumber, what: what)
                offset += count * MemoryLayout<Float>.size
                return values
            }
            switch spec {
            case let .convolution(out, kernel, stride, pad, depthwise, activation, inChannels):
                let weights = try tensor(out * (depthwise ? 1 : inChannels) * kernel * kernel, "weight")
                let bias = try tensor(out, "bias")
                contents.layers.append(.convolution(ConvolutionLayer(
                    inChannels: inChannels, outChannels: out, kernel: kernel, stride: stride, pad: pad,
                    isDepthwise: depthwise, activation: activation, weights: weights, bias: bias)))
            case .maxPool(let size):
                contents.layers.append(.maxPool(size: size))
            case .globalAveragePool:
                contents.layers.append(.globalAveragePool)
            case let .dense(out, activation, inFeatures):
                let weights = try tensor(out * inFeatures, "weight")
                let bias = try tensor(out, "bias")
                contents.layers.append(.dense(DenseLayer(inFeatures: inFeatures, outFeatures: out, activation: activation, weights: weights, bias: bias)))
            }
        }
        return contents
    }

    /// Reads the top-level fields into `contents` and returns the layers as stated, with the
    /// channel counts (and dense input sizes) that flow between them.
    private static func readHeader(_ header: JSONObject, source: String, into contents: inout Contents) throws(CareLabelError) -> [LayerSpec] {
        let top = HeaderFields(object: header) { .badHeader(source: source, reason: $0) }
        try top.requireOnly(["name", "input", "normalize", "layers", "classes", "meta"])
        contents.name = try top.string("name")

        let input = HeaderFields(object: try top.object("input")) { .badHeader(source: source, reason: "input: \($0)") }
        try input.requireOnly(["channels", "height", "width"])
        contents.input = PartialShape(
            channels: try input.integer("channels", in: 1...maxChannels),
            height: try input.optionalInteger("height", in: 1...maxInputSide),
            width: try input.optionalInteger("width", in: 1...maxInputSide))

        if let value = header["normalize"], !value.isNull {
            guard let object = value.object else { throw .badHeader(source: source, reason: "\"normalize\" must be an object, got \(HeaderFields.shown(value))") }
            let normalize = HeaderFields(object: object) { .badHeader(source: source, reason: "normalize: \($0)") }
            try normalize.requireOnly(["mean", "std"])
            let mean = try normalize.number("mean"), std = try normalize.number("std")
            guard std > 0, Float(std).isNormal, Float(mean).isFinite else {
                throw .badHeader(source: source, reason: "normalize: \"std\" must be positive and both must fit a float32, got mean \(mean), std \(std)")
            }
            contents.normalization = Network.Normalization(mean: Float(mean), std: Float(std))
        }

        let layerValues = try top.array("layers")
        guard (1...maxLayers).contains(layerValues.count) else {
            throw .badHeader(source: source, reason: "\"layers\" must list 1 to \(maxLayers) layers, got \(layerValues.count)")
        }
        var shape = contents.input
        var specs: [LayerSpec] = []
        for (index, value) in layerValues.enumerated() {
            let spec = try readLayer(value, number: index + 1, after: &shape, source: source)
            specs.append(spec)
        }

        if let value = header["classes"], !value.isNull {
            guard let array = value.array else { throw .badHeader(source: source, reason: "\"classes\" must be a list of strings, got \(HeaderFields.shown(value))") }
            var classes: [String] = []
            for item in array {
                guard let name = item.string, !name.isEmpty else {
                    throw .badHeader(source: source, reason: "\"classes\" must be a list of non-empty strings, holds \(HeaderFields.shown(item))")
                }
                classes.append(name)
            }
            guard classes.count == shape.channels else {
                throw .badHeader(source: source, reason: "\(classes.count) classes for \(shape.channels) output channels")
            }
            contents.classes = classes
        }
        if let value = header["meta"], !value.isNull {
            guard let meta = value.object else { throw .badHeader(source: source, reason: "\"meta\" must be an object, got \(HeaderFields.shown(value))") }
            contents.meta = meta
        }
        return specs
    }

    /// Reads layer `number` and moves `shape` past it; a size that becomes empty, or a dense
    /// layer whose input size is unknown, is refused here rather than when an image arrives.
    private static func readLayer(_ value: JSONValue, number: Int, after shape: inout PartialShape, source: String) throws(CareLabelError) -> LayerSpec {
        guard let object = value.object else {
            throw .badLayer(source: source, layer: number, reason: "must be an object, got \(HeaderFields.shown(value))")
        }
        let opName = object["op"]?.string ?? ""
        let fields = HeaderFields(object: object) { reason in
            .badLayer(source: source, layer: number, reason: opName.isEmpty ? reason : "\(HeaderFields.quoted(opName)): \(reason)")
        }
        let op = try fields.string("op")
        switch op {
        case "conv":
            try fields.requireOnly(["op", "out", "kernel", "stride", "pad", "groups", "activation"])
            let out = try fields.integer("out", in: 1...maxChannels)
            let kernel = try fields.integer("kernel", in: 1...maxKernel)
            let stride = try fields.integer("stride", in: 1...maxStride, default: 1)
            let pad = try fields.integer("pad", in: 0...(kernel - 1), default: 0)
            let groups = try fields.integer("groups", in: 1...maxChannels, default: 1)
            let activation = try fields.activation()
            let depthwise = groups > 1
            if depthwise, groups != shape.channels || out != shape.channels {
                throw fields.fail("\"groups\" must be 1 or, for a depthwise convolution, equal the input channels (\(shape.channels)) and \"out\"; got groups \(groups), out \(out)")
            }
            func side(_ size: Int?) throws(CareLabelError) -> Int? {
                guard let size else { return nil }
                let span = size + 2 * pad - kernel
                guard span >= 0 else { throw fields.fail("its \(kernel)×\(kernel) kernel with padding \(pad) does not fit the \(size)-pixel input") }
                return span / stride + 1
            }
            let spec = LayerSpec.convolution(out: out, kernel: kernel, stride: stride, pad: pad, depthwise: depthwise, activation: activation, inChannels: shape.channels)
            shape = PartialShape(channels: out, height: try side(shape.height), width: try side(shape.width))
            return spec
        case "maxpool":
            try fields.requireOnly(["op", "size"])
            let size = try fields.integer("size", in: 1...maxKernel)
            func side(_ value: Int?) throws(CareLabelError) -> Int? {
                guard let value else { return nil }
                guard value >= size else { throw fields.fail("its \(size)×\(size) window does not fit the \(value)-pixel input") }
                return value / size
            }
            shape = PartialShape(channels: shape.channels, height: try side(shape.height), width: try side(shape.width))
            return .maxPool(size: size)
        case "globalavgpool":
            try fields.requireOnly(["op"])
            shape = PartialShape(channels: shape.channels, height: 1, width: 1)
            return .globalAveragePool
        case "dense":
            try fields.requireOnly(["op", "out", "activation"])
            let out = try fields.integer("out", in: 1...maxChannels)
            let activation = try fields.activation()
            guard let height = shape.height, let width = shape.width else {
                throw fields.fail("its input size depends on the image size; give input.height and input.width, or put a \"globalavgpool\" before it")
            }
            let spec = LayerSpec.dense(out: out, activation: activation, inFeatures: shape.channels * height * width)
            shape = PartialShape(channels: out, height: 1, width: 1)
            return spec
        default:
            throw fields.fail("unknown \"op\" \(HeaderFields.quoted(op)) (expected \"conv\", \"maxpool\", \"globalavgpool\" or \"dense\")")
        }
    }

    /// `count` little-endian float32 values at `offset`, all finite.
    private static func readFloats(_ bytes: UnsafeRawBufferPointer, at offset: Int, count: Int, source: String, layer: Int, what: String) throws(CareLabelError) -> [Float] {
        var firstBad: Int?
        let values = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count * MemoryLayout<Float>.size)]))
            for i in 0..<count {
                #if _endian(big)
                buffer[i] = Float(bitPattern: buffer[i].bitPattern.byteSwapped)
                #endif
                if firstBad == nil, !buffer[i].isFinite { firstBad = i }
            }
            initialized = count
        }
        if let firstBad {
            throw .badWeights(source: source, layer: layer, reason: "\(what) value \(firstBad) is \(values[firstBad]), not a finite number (damaged file?)")
        }
        return values
    }
}
