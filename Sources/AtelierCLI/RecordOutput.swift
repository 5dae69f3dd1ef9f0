import AtelierRecords
import Foundation

/// Writes records to standard output as NDJSON through one reusable buffer.
///
/// Block-buffered by default and flushed per record when stdout is a terminal or
/// `--line-buffered` is given. When the reader goes away (`tool | head -1`) the write fails with
/// EPIPE and `OutputClosed` is thrown, which the tools treat as a quiet, successful end.
public final class RecordOutput {
    private let fd: Int32
    /// What the output is called in messages: "standard output", or the file `-o` names.
    public let destination: String
    private var buffer: [UInt8] = []
    private let lineBuffered: Bool
    private let flushThreshold = 1 << 16
    /// Records written so far.
    public private(set) var count = 0

    /// Whether what is written goes to /dev/null, where nobody reads it (`atl-import big.ndjson >
    /// /dev/null`): a tool may then skip making records only to print them, as GNU tar skips
    /// reading files for an archive written to /dev/null.
    public var discards: Bool { Self.isDevNull(fd) }

    static func isDevNull(_ fd: Int32) -> Bool {
        var out = stat(), null = stat()
        guard fstat(fd, &out) == 0, stat("/dev/null", &null) == 0 else { return false }
        return (out.st_mode & S_IFMT) == S_IFCHR && out.st_rdev == null.st_rdev
    }

    public init(fd: Int32 = 1, destination: String = "standard output", lineBuffered: Bool = false) {
        self.fd = fd
        self.destination = destination
        self.lineBuffered = lineBuffered || isatty(fd) == 1
        buffer.reserveCapacity(flushThreshold * 2)
    }

    public func write(_ record: JSONObject) throws(OutputError) {
        JSONWriter.append(record, to: &buffer)
        buffer.append(0x0A)
        count += 1
        if lineBuffered || buffer.count >= flushThreshold { try flush() }
    }

    /// Writes a line that is already JSON (a record passed through untouched).
    public func writeLine(_ bytes: UnsafeRawBufferPointer) throws(OutputError) {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        count += 1
        if lineBuffered || buffer.count >= flushThreshold { try flush() }
    }

    /// Writes NDJSON lines made elsewhere: `lines` records, each ending in a newline.
    public func writeLines(_ bytes: UnsafeRawBufferPointer, lines: Int) throws(OutputError) {
        buffer.append(contentsOf: bytes)
        count += lines
        if lineBuffered || buffer.count >= flushThreshold { try flush() }
    }

    /// How many bytes of lines to gather before calling `writeLines`: 0 when every record must
    /// leave at once (a terminal, `--line-buffered`), else the size of a flush.
    public var chunkBytes: Int { lineBuffered ? 0 : flushThreshold }

    /// Writes raw bytes (pretty JSON, CSV) without counting records.
    public func writeRaw(_ bytes: [UInt8]) throws(OutputError) {
        buffer.append(contentsOf: bytes)
        if lineBuffered || buffer.count >= flushThreshold { try flush() }
    }

    public func flush() throws(OutputError) {
        var offset = 0
        defer {
            if offset > 0 { buffer.removeFirst(offset) }
        }
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                buffer.removeAll()
                offset = 0
                if code == EPIPE { throw .closed }
                if OutOfSpace.isOutOfSpace(code) { throw .noSpace(destination) }
                throw .failed(String(cString: strerror(code)), destination: destination)
            }
            offset += n
        }
    }
}

/// Standard output could not be written.
public enum OutputError: Error {
    /// The reader closed the pipe: not an error for a filter.
    case closed
    /// Writing failed for `reason` (the system's words) on `destination`.
    case failed(String, destination: String = "standard output")
    /// The disk holding `destination` is full.
    case noSpace(String)
}

extension OutputError: ExitCodedError {
    public var description: String {
        switch self {
        case .closed: return "the reader closed the pipe"
        case .failed(let reason, let destination): return "cannot write to \(destination): \(reason)"
        case .noSpace(let destination): return OutOfSpace.message(writing: destination)
        }
    }

    public var sysexit: Sysexit {
        switch self {
        case .closed: return .ok
        case .failed: return .ioError
        case .noSpace: return .cannotCreate
        }
    }
}

/// Holds an import's output until its transaction commits, so stdout never shows a record that
/// was rolled back. Small outputs stay in memory; large ones spill to an unlinked temporary file,
/// keeping memory flat for a million-record import.
public final class OutputSpool {
    private var memory: [UInt8] = []
    private var file: FileHandle?
    private let memoryLimit = 8 << 20
    public private(set) var count = 0

    public init() {}

    public func append(_ record: JSONObject) throws {
        JSONWriter.append(record, to: &memory)
        memory.append(0x0A)
        count += 1
        if memory.count >= memoryLimit { try spill() }
    }

    private func spill() throws {
        if file == nil {
            let dir = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
            var template = Array("\(dir)/atl-import-XXXXXX".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard fd >= 0 else { throw OutputError.failed("cannot create a temporary file in \(dir): \(String(cString: strerror(errno)))") }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            file = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        }
        try file!.write(contentsOf: memory)
        memory.removeAll(keepingCapacity: true)
    }

    /// Copies everything spooled to `output`, in order, and empties the spool.
    public func drain(to output: RecordOutput) throws(OutputError) {
        if let file {
            do {
                try file.seek(toOffset: 0)
                while let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty {
                    try output.writeRaw([UInt8](chunk))
                }
            } catch let error as OutputError {
                throw error
            } catch {
                throw .failed("\(error)")
            }
            self.file = nil
        }
        try output.writeRaw(memory)
        memory.removeAll()
        count = 0
    }

    public func discard() {
        memory.removeAll()
        file = nil
        count = 0
    }
}
