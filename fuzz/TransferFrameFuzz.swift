import Foundation

// libFuzzer harness for AtelierTransfer's parsers (build and run with `fuzz/run.sh transfer SECONDS`).
//
// The first byte picks a parser, the rest is its input:
//   0  FrameDecoder, fed in chunks whose sizes come from the input: every frame it returns must
//      have a length in bounds that matches its prefix, and bytes are neither lost nor invented;
//   1  TransferMessage.decode: a decoded message must re-encode to exactly the input bytes
//      (one encoding per message), and a manifest part must go through ManifestAssembler;
//   2  ManifestPath from raw bytes: an accepted path must obey the rules on its bytes;
//   3  PairingCode(parsing:): an accepted code must parse again from its canonical text.
// Only TransferError may be thrown. The crypto layers (FrameSealer/FrameOpener, the handshake)
// are not compiled in: random bytes never authenticate, so they add nothing but the decoder
// and the message parser, which are here.

func fail(_ message: String, _ bytes: [UInt8]) -> Never {
    FileHandle.standardError.write(Data("transfer fuzz: \(message)\n  input: \(bytes.map { String($0, radix: 16) })\n".utf8))
    abort()
}

func expectTransferError(_ error: Error, _ bytes: [UInt8]) {
    if !(error is TransferError) { fail("a non-TransferError was thrown: \(error)", bytes) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTransfer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let all = Array(UnsafeBufferPointer(start: data, count: size))
    let input = Array(all.dropFirst())
    switch all[0] % 4 {
    case 0: fuzzDecoder(input)
    case 1: fuzzMessage(input)
    case 2: fuzzPath(input)
    default: fuzzCode(input)
    }
    return 0
}

func fuzzDecoder(_ input: [UInt8]) {
    // Small frames allowed, so that short inputs reach whole frames.
    var decoder = FrameDecoder(maxSealedBytes: 64)
    var fed = 0, taken = 0, position = 0, step = 0
    do {
        while position < input.count {
            let size = min(1 + Int(input[step % input.count]) % 9, input.count - position)
            decoder.append(contentsOf: input[position..<position + size])
            position += size; fed += size; step += 1
            while let frame = try decoder.next() {
                let length = frame.prefix.reduce(0) { $0 << 8 | Int($1) }
                guard frame.prefix.count == 4, length == frame.sealed.count, (FrameLimits.minSealedBytes...64).contains(length) else {
                    fail("frame of \(frame.sealed.count) bytes under prefix \(Array(frame.prefix))", input)
                }
                taken += 4 + length
            }
            if taken + decoder.bufferedBytes != fed { fail("\(fed) fed, \(taken) taken, \(decoder.bufferedBytes) buffered", input) }
        }
    } catch {
        expectTransferError(error, input)
    }
}

func fuzzMessage(_ input: [UInt8]) {
    do {
        let message = try TransferMessage.decode(input[...])
        if message.encoded != input { fail("\(message.name) re-encodes as \(message.encoded)", input) }
        if case .manifest(let part) = message {
            var assembler = ManifestAssembler()
            do { _ = try assembler.add(part) } catch { expectTransferError(error, input) }
        }
    } catch {
        expectTransferError(error, input)
    }
}

func fuzzPath(_ input: [UInt8]) {
    do {
        let path = try ManifestPath(bytes: input[...])
        let bytes = Array(path.string.utf8)
        let components = bytes.split(separator: 0x2F, omittingEmptySubsequences: false)
        guard bytes == input, !bytes.isEmpty, bytes.count <= ManifestPath.maxBytes, bytes.first != 0x2F,
              !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x5C }),
              !components.contains(where: { $0.isEmpty || $0.elementsEqual([0x2E]) || $0.elementsEqual([0x2E, 0x2E]) || $0.count > ManifestPath.maxComponentBytes })
        else { fail("accepted unsafe path \(path.string.debugDescription)", input) }
    } catch {
        expectTransferError(error, input)
    }
}

func fuzzCode(_ input: [UInt8]) {
    let text = String(decoding: input.prefix(200), as: UTF8.self)
    do {
        let code = try PairingCode(parsing: text)
        let again = try PairingCode(parsing: code.description)
        if again != code || !PairingCode.numberRange.contains(code.number) { fail("\(code) does not parse back", input) }
    } catch {
        expectTransferError(error, input)
    }
}
