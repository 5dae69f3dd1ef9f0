import AtelierRecords
import AtelierTestSupport
import Crypto
import XCTest
@testable import AtelierTransfer

/// The sealed framing: round trips in any chunking, and every way a stream can be damaged.
final class ChannelTests: XCTestCase {
    let key = SymmetricKey(data: (0..<32).map { UInt8($0) })

    /// A stream of a hello, three data frames, a fileEnd and close.
    func sealedStream() throws -> (bytes: [UInt8], frameEnds: [Int], messages: [TransferMessage]) {
        var sealer = FrameSealer(key: key)
        var out: [UInt8] = []
        var ends: [Int] = []
        var messages: [TransferMessage] = [.hello(Hello(role: .sender, software: "test"))]
        try sealer.seal(messages[0], into: &out); ends.append(out.count)
        var random = SplitMix64(seed: 7)
        var file = random.bytes(70_000)
        for (i, chunk) in stride(from: 0, to: file.count, by: 30_000).map({ ($0, file[$0..<min($0 + 30_000, file.count)]) }) {
            try chunk.withUnsafeBytes { try sealer.sealData(entry: 2, offset: UInt64(i), bytes: $0, into: &out) }
            ends.append(out.count)
            messages.append(.data(entry: 2, offset: UInt64(i), bytes: chunk))
        }
        file[0] = 0
        for message in [TransferMessage.fileEnd(entry: 2, sha256: Array(SHA256.hash(data: file))), .close] {
            try sealer.seal(message, into: &out); ends.append(out.count); messages.append(message)
        }
        XCTAssertEqual(sealer.framesSealed, 6)
        return (out, ends, messages)
    }

    /// Feeds `bytes` in the given chunk sizes and collects messages until an error.
    func open(_ bytes: [UInt8], chunks: [Int] = [Int.max], finish: Bool = true) -> (messages: [TransferMessage], error: TransferError?) {
        var opener = FrameOpener(key: key)
        var messages: [TransferMessage] = []
        var position = 0, chunk = 0
        do {
            while position < bytes.count {
                let size = min(chunks[chunk % chunks.count], bytes.count - position)
                try opener.feed(bytes[position..<position + size])
                position += size; chunk += 1
                while let message = try opener.next() { messages.append(message) }
            }
            if finish { try opener.finish() }
            return (messages, nil)
        } catch {
            return (messages, error as? TransferError)
        }
    }

    func testRoundTripInAnyChunking() throws {
        let stream = try sealedStream()
        for chunks in [[Int.max], [1], [3, 7, 1000], [4], [65_536]] {
            let result = open(stream.bytes, chunks: chunks)
            XCTAssertNil(result.error, "\(chunks)")
            XCTAssertEqual(result.messages, stream.messages, "\(chunks)")
        }
    }

    func testTamperingAnyByteIsAnAuthenticationFailure() throws {
        let stream = try sealedStream()
        var random = SplitMix64(seed: 0x7A3)
        for _ in 0..<200 {
            var bytes = stream.bytes
            let at = random.below(bytes.count)
            bytes[at] ^= UInt8(1 << random.below(8))
            let result = open(bytes)
            let frame = stream.frameEnds.firstIndex { $0 > at }!
            XCTAssertEqual(result.messages, Array(stream.messages.prefix(frame)), "byte \(at)")
            switch result.error {
            case .authenticationFailed(let failed)?: XCTAssertEqual(failed, UInt64(frame))
            case .frameTooLarge?, .frameTooSmall?, .truncatedStream?:
                // A flipped length prefix: refused, or waiting for bytes that never come.
                XCTAssertLessThan(at - (frame == 0 ? 0 : stream.frameEnds[frame - 1]), 4, "byte \(at)")
            default: XCTFail("byte \(at): \(String(describing: result.error))")
            }
        }
    }

    func testReorderedReplayedOrDroppedFramesFail() throws {
        let stream = try sealedStream()
        let frames = zip([0] + stream.frameEnds, stream.frameEnds).map { Array(stream.bytes[$0..<$1]) }
        let swapped = frames[0] + frames[2] + frames[1] + frames[3...].flatMap { $0 }
        XCTAssertEqual(open(swapped).error, .authenticationFailed(frame: 1))
        let replayed = frames[0] + frames[1] + frames[1] + frames[2...].flatMap { $0 }
        XCTAssertEqual(open(replayed).error, .authenticationFailed(frame: 2))
        let dropped = frames[0] + frames[2...].flatMap { $0 }
        XCTAssertEqual(open(dropped).error, .authenticationFailed(frame: 1))
        var otherKey = FrameOpener(key: SymmetricKey(size: .bits256))
        try otherKey.feed(frames[0])
        XCTAssertThrowsError(try otherKey.next()) { XCTAssertEqual($0 as? TransferError, .authenticationFailed(frame: 0)) }
        XCTAssertThrowsError(try otherKey.next(), "stays failed") { XCTAssertEqual($0 as? TransferError, .authenticationFailed(frame: 0)) }
    }

    func testTruncationAndDataAfterCloseAreErrors() throws {
        let stream = try sealedStream()
        let withoutClose = Array(stream.bytes[..<stream.frameEnds[4]])
        XCTAssertEqual(open(withoutClose).error, .truncatedStream(bufferedBytes: 0))
        XCTAssertEqual(open(withoutClose).messages.count, 5)
        XCTAssertEqual(open(Array(stream.bytes.dropLast(3))).error, .truncatedStream(bufferedBytes: 18))
        XCTAssertEqual(open(stream.bytes + [0, 0, 0, 17]).error, .dataAfterClose)
        XCTAssertEqual(open([]).error, .truncatedStream(bufferedBytes: 0), "an empty stream is truncated too")
    }

    func testLengthPrefixesAreCheckedBeforeAllocating() {
        XCTAssertEqual(open([0x7F, 0xFF, 0xFF, 0xFF], finish: false).error, .frameTooLarge(length: 0x7FFF_FFFF, limit: FrameLimits.maxSealedBytes))
        XCTAssertEqual(open([0x00, 0x10, 0x00, 0x51], finish: false).error, .frameTooLarge(length: 0x10_0051, limit: FrameLimits.maxSealedBytes))
        XCTAssertEqual(open([0, 0, 0, 16] + [UInt8](repeating: 0, count: 16), finish: false).error, .frameTooSmall(length: 16))
        var decoder = FrameDecoder()
        decoder.append(contentsOf: [0x00, 0x10, 0x00, 0x50])
        XCTAssertNil(try decoder.next(), "the largest legal frame waits for its body")
        XCTAssertEqual(decoder.bufferedBytes, 4)
    }

    func testSealerLimits() throws {
        var sealer = FrameSealer(key: key)
        var out: [UInt8] = []
        let big = [UInt8](repeating: 1, count: FrameLimits.maxDataChunkBytes + 1)
        XCTAssertThrowsError(try big.withUnsafeBytes { try sealer.sealData(entry: 0, offset: 0, bytes: $0, into: &out) }) {
            XCTAssertEqual($0 as? TransferError, .frameTooLarge(length: big.count, limit: FrameLimits.maxDataChunkBytes))
        }
        let full = [UInt8](repeating: 1, count: FrameLimits.maxDataChunkBytes)
        try full.withUnsafeBytes { try sealer.sealData(entry: 0, offset: 0, bytes: $0, into: &out) }
        XCTAssertEqual(out.count, 4 + 13 + full.count + 16)
        try sealer.seal(.close, into: &out)
        XCTAssertThrowsError(try sealer.seal(.batchVerified, into: &out)) { XCTAssertEqual($0 as? TransferError, .channelClosed) }
        XCTAssertEqual(hex(FrameSealer.nonce(0x0102_0304_0506_0708).withUnsafeBytes { Array($0) }), "000000000102030405060708")
    }

    /// Not a benchmark (see benchmarks/ for that): a floor that catches a per-byte slow path.
    func testSealAndOpenMoveAtLeast50MBPerSecondEvenInDebug() throws {
        var sealer = FrameSealer(key: key)
        var opener = FrameOpener(key: key)
        let chunk = [UInt8](repeating: 0xA5, count: FrameLimits.maxDataChunkBytes)
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count + 64)
        let start = Date()
        var received = 0
        for i in 0..<64 {
            out.removeAll(keepingCapacity: true)
            try chunk.withUnsafeBytes { try sealer.sealData(entry: 0, offset: UInt64(i) << 20, bytes: $0, into: &out) }
            try out.withUnsafeBytes { try opener.feed($0) }
            while case .data(_, _, let bytes)? = try opener.next() { received += bytes.count }
        }
        let seconds = Date().timeIntervalSince(start)
        XCTAssertEqual(received, 64 << 20)
        XCTAssertLessThan(seconds, 64.0 / 50, "64 MiB sealed and opened in \(seconds) s")
    }
}
