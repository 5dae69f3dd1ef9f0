import AtelierRecords
import Foundation
import XCTest
@testable import AtelierCareLabels

/// The inference engine against outputs computed independently in numpy (direct loops, float64;
/// `Support/make_network_fixture.py`), and the `.atlnn` reader against damaged files.
final class NetworkTests: XCTestCase {
    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support")

    /// One input and the output numpy computed for it.
    struct Case {
        let input: Tensor
        let output: Tensor
    }

    static func cases(_ name: String) throws -> [Case] {
        let data = try Data(contentsOf: support.appendingPathComponent("network-\(name).json"))
        let root = try data.withUnsafeBytes { try JSONParser.parseObject($0) }
        func tensor(_ value: JSONValue?) throws -> Tensor {
            let object = try XCTUnwrap(value?.object)
            let shape = try XCTUnwrap(object["shape"]?.array).map { Int($0.integer!) }
            let values = try XCTUnwrap(object["values"]?.array).map { Float($0.number!) }
            return Tensor(channels: shape[0], height: shape[1], width: shape[2], values: values)
        }
        return try XCTUnwrap(root["cases"]?.array).map { item in
            Case(input: try tensor(item.object?["input"]), output: try tensor(item.object?["output"]))
        }
    }

    static func network(_ name: String) throws -> Network {
        try Network(contentsOf: support.appendingPathComponent("\(name).atlnn"))
    }

    /// Within 1e-4 of the reference, relative to the value or, near zero, to the output's scale.
    func assertClose(_ actual: Tensor, _ expected: Tensor, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(actual.shape, expected.shape, what, file: file, line: line)
        guard actual.shape == expected.shape else { return }
        let scale = expected.values.map(abs).max() ?? 1
        for (i, (a, e)) in zip(actual.values, expected.values).enumerated() where abs(a - e) > 1e-4 * max(abs(e), 0.01 * scale) {
            XCTFail("\(what): value \(i) is \(a), numpy says \(e)", file: file, line: line)
            return
        }
    }

    func testEveryOpMatchesTheNumpyReference() throws {
        for name in ["tiny", "flat", "fcn"] {
            let network = try Self.network(name)
            for (index, item) in try Self.cases(name).enumerated() {
                assertClose(network.run(item.input), item.output, "\(name) case \(index)")
                XCTAssertEqual(try network.outputShape(for: item.input.shape), item.output.shape)
            }
        }
    }

    func testABatchGivesWhatSingleRunsGive() throws {
        for name in ["tiny", "flat", "fcn"] {
            let network = try Self.network(name)
            let cases = try Self.cases(name)
            // Repeated and interleaved so that the fully convolutional batch has runs of shapes.
            let inputs = cases.map(\.input) + cases.map(\.input).reversed() + cases.map(\.input)
            let expected = cases.map(\.output) + cases.map(\.output).reversed() + cases.map(\.output)
            let outputs = network.run(batch: inputs)
            XCTAssertEqual(outputs.count, inputs.count)
            for (index, (output, reference)) in zip(outputs, expected).enumerated() {
                assertClose(output, reference, "\(name) batch item \(index)")
            }
        }
        XCTAssertEqual(try Self.network("tiny").run(batch: []), [])
    }

    /// Tiny memory budgets cut the batch into groups of one or two and im2col into bands of a
    /// row or a few, some across two items: what large images and batches reach.
    func testSmallBudgetsSplitBatchesAndBandsWithoutChangingResults() throws {
        for name in ["tiny", "flat", "fcn"] {
            let network = try Self.network(name)
            let cases = try Self.cases(name)
            let inputs = cases.map(\.input) + cases.map(\.input)
            for budget in [InferencePlan.Budget(scratchFloats: 1, activationFloats: 1), InferencePlan.Budget(scratchFloats: 700, activationFloats: 1300)] {
                for (index, (output, item)) in zip(network.run(batch: inputs, budget: budget), cases + cases).enumerated() {
                    assertClose(output, item.output, "\(name) item \(index) with \(budget)")
                }
            }
        }
    }

    func testTheHeaderIsReadAsWritten() throws {
        let tiny = try Self.network("tiny")
        XCTAssertEqual(tiny.name, "tiny")
        XCTAssertEqual(tiny.inputChannels, 2)
        XCTAssertEqual(tiny.inputHeight, 13)
        XCTAssertEqual(tiny.inputWidth, 11)
        XCTAssertEqual(tiny.normalization, Network.Normalization(mean: 0.4, std: 0.3))
        XCTAssertEqual(tiny.classes, ["wash-30", "bleach-no", "tumble-low", "none"])
        XCTAssertEqual(tiny.meta["seed"], .int(20261121))
        XCTAssertEqual(tiny.meta["nested"], ["list": [1, 2.5, nil]])
        XCTAssertEqual(tiny.layerSummary, [
            "conv 2→4 3×3 /1 pad 1 relu", "conv 4→6 5×5 /2 pad 1 sigmoid", "depthwise conv 6 3×3 /1 pad 1 relu",
            "maxpool 2×2", "conv 6→5 1×1 /1 pad 0 none", "globalavgpool", "dense 5→4 none",
        ])
        XCTAssertEqual(tiny.parameterCount, (72 + 4) + (600 + 6) + (54 + 6) + (30 + 5) + (20 + 4))

        let fcn = try Self.network("fcn")
        XCTAssertNil(fcn.inputHeight)
        XCTAssertNil(fcn.inputWidth)
        XCTAssertEqual(fcn.classes, [])
        XCTAssertEqual(fcn.meta, [:])
        XCTAssertNil(try Self.network("flat").normalization)
    }

    func testAnInputTheNetworkCannotTakeIsNamed() throws {
        let fcn = try Self.network("fcn")
        XCTAssertThrowsError(try fcn.outputShape(for: TensorShape(channels: 1, height: 4, width: 40))) { error in
            XCTAssertEqual("\(error)", "\(Self.support.path)/fcn.atlnn: a 1×4×40 input cannot go through layer 2 (conv): a 2×38 input is smaller than its 5×5 kernel with padding 1")
        }
        XCTAssertThrowsError(try fcn.outputShape(for: TensorShape(channels: 1, height: 16384, width: 16384))) { error in
            XCTAssertTrue("\(error)".hasSuffix("a 1×16384×16384 input cannot go through layer 1 (conv): it needs a buffer of 1073479696 values, more than the 268435456 allowed"), "\(error)")
        }
        XCTAssertThrowsError(try fcn.outputShape(for: TensorShape(channels: 3, height: 40, width: 40))) { error in
            XCTAssertEqual("\(error)", "\(Self.support.path)/fcn.atlnn: the network takes 1×H×W inputs, not 3×40×40")
        }
        XCTAssertThrowsError(try Self.network("tiny").outputShape(for: TensorShape(channels: 2, height: 11, width: 13))) { error in
            XCTAssertTrue("\(error)".hasSuffix("the network takes 2×13×11 inputs, not 2×11×13"), "\(error)")
        }
    }

    func testOpenBLASRunsOnOneThreadUnlessTold() throws {
        _ = try Self.network("tiny")
        XCTAssertEqual(Network.blasThreadCount, 1)
        Network.setBLASThreadCount(2)
        XCTAssertEqual(Network.blasThreadCount, min(2, ProcessInfo.processInfo.activeProcessorCount))
        Network.setBLASThreadCount(1)
        XCTAssertEqual(Network.blasThreadCount, 1)
    }
}

/// Damaged and malformed files: each refused with a message that names the file and the fault.
extension NetworkTests {
    static let tinyBytes = try! Data(contentsOf: support.appendingPathComponent("tiny.atlnn"))

    /// The tiny network's JSON header line and its weights.
    static var tinyParts: (header: String, weights: Data) {
        let magicEnd = tinyBytes.firstIndex(of: 0x0A)!
        let headerEnd = tinyBytes[(magicEnd + 1)...].firstIndex(of: 0x0A)!
        return (String(decoding: tinyBytes[(magicEnd + 1)..<headerEnd], as: UTF8.self), tinyBytes[(headerEnd + 1)...])
    }

    /// The tiny network with `old` replaced by `new` (once) in its header.
    static func tiny(replacing old: String, with new: String) -> Data {
        let (header, weights) = tinyParts
        precondition(header.contains(old), old)
        let range = header.range(of: old)!
        return Data("atelier-network 1\n\(header.replacingCharacters(in: range, with: new))\n".utf8) + weights
    }

    /// The message loading `data` fails with, or nil if it loads.
    static func failure(_ data: Data) -> String? {
        do {
            _ = try Network(data: data, source: "bad.atlnn")
            return nil
        } catch {
            return error.description
        }
    }

    func testFilesThatAreNotNetworks() {
        XCTAssertEqual(Self.failure(Data()), "bad.atlnn: not an Atelier network file (the first line must be \"atelier-network 1\")")
        XCTAssertEqual(Self.failure(Data("\u{89}PNG\r\n".utf8)), Self.failure(Data()))
        XCTAssertEqual(Self.failure(Data("atelier-network\n".utf8)), Self.failure(Data()))
        XCTAssertEqual(Self.failure(Data("atelier-network 2\n{}\n".utf8)),
                       "bad.atlnn: network file format version 2 is not supported (this build reads version 1)")
        let missing = Self.support.appendingPathComponent("no-such.atlnn")
        XCTAssertThrowsError(try Network(contentsOf: missing)) { error in
            guard case .unreadable(let source, _)? = error as? CareLabelError else { return XCTFail("\(error)") }
            XCTAssertEqual(source, missing.path)
        }
    }

    func testTruncatedOrExtendedData() {
        let needed = Self.tinyParts.weights.count
        XCTAssertEqual(Self.failure(Self.tinyBytes.dropLast(10)),
                       "bad.atlnn: the file is cut short: the layers need \(needed) bytes of weights, only \(needed - 10) follow the header")
        XCTAssertEqual(Self.failure(Self.tinyBytes + Data([0, 0, 0])),
                       "bad.atlnn: 3 unexpected bytes after the last tensor (the layers need \(needed) bytes of weights, \(needed + 3) follow the header)")
        XCTAssertEqual(Self.failure(Self.tinyBytes.prefix(60)),
                       "bad.atlnn: bad network header: the JSON header line does not end with a newline (file cut short?)")
        var nan = Self.tinyBytes
        nan.replaceSubrange((nan.count - 8)..<(nan.count - 4), with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian) { Data($0) })
        XCTAssertEqual(Self.failure(nan), "bad.atlnn: layer 7: bias value 2 is nan, not a finite number (damaged file?)")
    }

    func testBadJSON() {
        XCTAssertEqual(Self.failure(Data("atelier-network 1\n{\"name\":\"x\",}\n".utf8))?.hasPrefix("bad.atlnn: bad network header: line 2 is not a JSON object: "), true)
        XCTAssertEqual(Self.failure(Data("atelier-network 1\n[1]\n".utf8)), "bad.atlnn: bad network header: line 2 is not a JSON object: expected a JSON object (column 1)")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"name\":\"tiny\",", with: "")), "bad.atlnn: bad network header: missing \"name\"")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"meta\":{", with: "\"comment\":\"hi\",\"meta\":{")),
                       "bad.atlnn: bad network header: unknown key \"comment\" (expected \"name\", \"input\", \"normalize\", \"layers\", \"classes\", \"meta\")")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"std\":0.3", with: "\"std\":0")),
                       "bad.atlnn: bad network header: normalize: \"std\" must be positive and both must fit a float32, got mean 0.4, std 0.0")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"none\"]", with: "\"none\",\"extra\"]")),
                       "bad.atlnn: bad network header: 5 classes for 4 output channels")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"stride\":2", with: "\"stride\":\"2\"")),
                       "bad.atlnn: layer 2: \"conv\": \"stride\" must be an integer from 1 to 15, got \"2\"")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "{\"op\":\"maxpool\",\"size\":2}", with: "{\"op\":\"avgpool\",\"size\":2}")),
                       "bad.atlnn: layer 4: \"avgpool\": unknown \"op\" \"avgpool\" (expected \"conv\", \"maxpool\", \"globalavgpool\" or \"dense\")")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"pad\":1,\"activation\":\"relu\"}", with: "\"pad\":1,\"activation\":\"tanh\"}")),
                       "bad.atlnn: layer 1: \"conv\": \"activation\" must be one of \"none\", \"relu\", \"sigmoid\", got \"tanh\"")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"kernel\":3,\"stride\":1", with: "\"kernel\":3,\"strides\":1")),
                       "bad.atlnn: layer 1: \"conv\": unknown key \"strides\" (expected \"op\", \"out\", \"kernel\", \"stride\", \"pad\", \"groups\", \"activation\")")
    }

    func testAbsurdDimensions() {
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"kernel\":3", with: "\"kernel\":99")),
                       "bad.atlnn: layer 1: \"conv\": \"kernel\" must be an integer from 1 to 15, got 99")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"out\":4", with: "\"out\":1e12")),
                       "bad.atlnn: layer 1: \"conv\": \"out\" must be an integer from 1 to 4096, got 1000000000000.0")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"channels\":2", with: "\"channels\":0")),
                       "bad.atlnn: bad network header: input: \"channels\" must be an integer from 1 to 4096, got 0")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"height\":13", with: "\"height\":-13")),
                       "bad.atlnn: bad network header: input: \"height\" must be an integer from 1 to 16384, got -13")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"height\":13,\"width\":11", with: "\"height\":2,\"width\":2")),
                       "bad.atlnn: layer 2: \"conv\": its 5×5 kernel with padding 1 does not fit the 2-pixel input")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"height\":13,\"width\":11", with: "\"height\":16384,\"width\":16384")),
                       "bad.atlnn: bad network header: a 2×16384×16384 input cannot go through layer 1 (conv): it needs a buffer of 1073741824 values, more than the 268435456 allowed")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"pad\":1", with: "\"pad\":3")),
                       "bad.atlnn: layer 1: \"conv\": \"pad\" must be an integer from 0 to 2, got 3")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"groups\":6", with: "\"groups\":3")),
                       "bad.atlnn: layer 3: \"conv\": \"groups\" must be 1 or, for a depthwise convolution, equal the input channels (6) and \"out\"; got groups 3, out 6")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "{\"op\":\"globalavgpool\"},", with: "").replacing(Data("\"height\":13,\"width\":11".utf8), with: Data("\"height\":null,\"width\":null".utf8))),
                       "bad.atlnn: layer 6: \"dense\": its input size depends on the image size; give input.height and input.width, or put a \"globalavgpool\" before it")
        XCTAssertEqual(Self.failure(Self.tiny(replacing: "\"layers\":[", with: "\"layers\":[\(String(repeating: "{\"op\":\"globalavgpool\"},", count: 300))")),
                       "bad.atlnn: bad network header: \"layers\" must list 1 to 256 layers, got 307")
    }

    /// Thousands of seeded mutations of valid files (bytes flipped, cut, inserted, numbers in
    /// the header changed): each either loads, and then runs, or throws `CareLabelError`; none
    /// traps.
    func testDamagedFilesOnlyEverThrow() throws {
        let originals = try ["tiny", "flat", "fcn"].map { try Data(contentsOf: Self.support.appendingPathComponent("\($0).atlnn")) }
        var random = SplitMix64(seed: 0xA7E1_1E12)
        let numbers = ["0", "-1", "1", "2", "3", "7", "15", "16", "4096", "99999999999", "1e400", "2.5", "null", "\"x\"", "[]", "{}", "true"]
        var loaded = 0, refused = 0
        for _ in 0..<3000 {
            var bytes = [UInt8](originals[Int(random.next() % 3)])
            let headerEnd = bytes.indices.filter { bytes[$0] == 0x0A }.dropFirst().first!
            for _ in 0..<(1 + random.next() % 3) {
                switch random.next() % 6 {
                case 0: // cut anywhere
                    bytes.removeLast(Int(random.next() % UInt64(bytes.count + 1)))
                case 1: // any byte to any value
                    if !bytes.isEmpty { bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next()) }
                case 2: // a header byte to JSON punctuation or a digit
                    let punctuation = Array("{}[]\":,0123456789-.en ".utf8)
                    if headerEnd < bytes.count { bytes[Int(random.next() % UInt64(headerEnd))] = punctuation[Int(random.next() % UInt64(punctuation.count))] }
                case 3: // a number in the header to another value
                    let digits = bytes.prefix(min(headerEnd, bytes.count)).indices.filter { (0x30...0x39).contains(bytes[$0]) && !(0x30...0x39).contains(bytes[$0 - 1]) }
                    if let at = digits.randomElement(using: &random) {
                        var end = at
                        while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
                        bytes.replaceSubrange(at..<end, with: Array(numbers[Int(random.next() % UInt64(numbers.count))].utf8))
                    }
                case 4: // bytes inserted
                    let at = Int(random.next() % UInt64(bytes.count + 1))
                    bytes.insert(contentsOf: (0..<(1 + random.next() % 8)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
                default: // a range deleted
                    if !bytes.isEmpty {
                        let at = Int(random.next() % UInt64(bytes.count))
                        bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 16)))
                    }
                }
            }
            let network: Network
            do {
                network = try Network(data: Data(bytes), source: "fuzz")
            } catch {
                XCTAssertTrue(error.description.hasPrefix("fuzz: "), error.description)
                refused += 1
                continue
            }
            loaded += 1
            let shape = TensorShape(channels: network.inputChannels,
                                    height: network.inputHeight ?? Int(8 + random.next() % 40),
                                    width: network.inputWidth ?? Int(8 + random.next() % 40))
            guard shape.count <= 50_000, let output = try? network.outputShape(for: shape) else { continue }
            XCTAssertEqual(network.run(Tensor(shape: shape, repeating: 0.5)).shape, output)
        }
        XCTAssertGreaterThan(refused, 2000)
        XCTAssertGreaterThan(loaded, 50, "mutated weights still load")
    }
}
