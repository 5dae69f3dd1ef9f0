import Foundation

/// Reads newline-delimited lines from a file descriptor in large chunks, handing each line to
/// the caller as a borrowed byte buffer: memory stays flat whatever the input size, bounded by
/// the longest allowed line.
public final class LineReader {
    /// Lines longer than this are refused: no record is that big, and a runaway input (a binary
    /// file, a missing newline) must not eat the machine's memory.
    public static let defaultMaximumLineBytes = 8 << 20

    public let source: String
    public let maximumLineBytes: Int
    private let fd: Int32
    private let closeWhenDone: Bool
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// Bytes consumed so far, for progress reporting.
    public private(set) var bytesRead: Int = 0

    /// Opens `path` for reading; `-` means standard input.
    public convenience init(path: String, maximumLineBytes: Int = LineReader.defaultMaximumLineBytes) throws(RecordsError) {
        if path == "-" {
            self.init(fd: 0, source: "stdin", closeWhenDone: false, maximumLineBytes: maximumLineBytes)
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw RecordsError.input(errno == ENOENT ? .missing : .io, source: path, message: "cannot open: \(reason)")
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw RecordsError.input(.missing, source: path, message: "is a directory, not a file")
        }
        self.init(fd: fd, source: path, closeWhenDone: true, maximumLineBytes: maximumLineBytes)
    }

    public init(fd: Int32, source: String, closeWhenDone: Bool, maximumLineBytes: Int = LineReader.defaultMaximumLineBytes) {
        self.fd = fd
        self.source = source
        self.closeWhenDone = closeWhenDone
        self.maximumLineBytes = maximumLineBytes
        self.capacity = 1 << 20
        self.buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if closeWhenDone { close(fd) }
    }

    /// The size of the input when it is a regular file (for a progress bar), else nil.
    public var totalBytes: Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Calls `body` with each non-blank line (without its `\n` or `\r\n`) and its 1-based number.
    /// The buffer is only valid during the call. Blank lines (only spaces and tabs) are allowed
    /// between records, as jq allows them; they are skipped but counted.
    /// Blocks until the input has something to read (or has ended). A writer that reads a pipe
    /// waits here before it locks anything, so `atl-import | jq … | atl-import` does not have
    /// the second import hold the catalog while the first one, which feeds it, waits for it.
    public func waitForInput() {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG else { return }
        var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&request, 1, -1) < 0 && errno == EINTR {}
    }

    public func forEachLine<E: Error>(_ body: (UnsafeRawBufferPointer, Int) throws(E) -> Void) throws(LineReaderError<E>) {
        try forEachRawLine { (bytes, number) throws(E) in
            var line = bytes
            if let last = line.last, last == 0x0D { line = UnsafeRawBufferPointer(rebasing: line.dropLast()) }
            if line.contains(where: { $0 != 0x20 && $0 != 0x09 }) { try body(line, number) }
        }
    }

    /// Calls `body` with every line exactly as the input has it, blank or not, without its `\n`
    /// but with any `\r` before it, and its 1-based number: for formats such as CSV, where a
    /// line break inside a quoted field is data and must come back byte for byte.
    ///
    /// Every line, the last one included when no `\n` ends it, is held to `maximumLineBytes`
    /// (a `\r` counts): a longer one ends the input with an error at its number.
    public func forEachRawLine<E: Error>(_ body: (UnsafeRawBufferPointer, Int) throws(E) -> Void) throws(LineReaderError<E>) {
        var filled = 0  // bytes in the buffer
        var lineNumber = 0
        var eof = false
        while !eof {
            if filled == capacity {
                // One line fills the whole buffer: grow, up to the limit.
                guard capacity < maximumLineBytes + 2 else { throw .input(tooLong(lineNumber + 1)) }
                let newCapacity = min(capacity * 2, maximumLineBytes + 2)
                let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
                grown.copyMemory(from: buffer, byteCount: filled)
                buffer.deallocate()
                buffer = grown
                capacity = newCapacity
            }
            let n = read(fd, buffer + filled, capacity - filled)
            if n < 0 {
                if errno == EINTR { continue }
                throw .input(RecordsError.input(.io, source: source, line: lineNumber + 1, message: "read failed: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { eof = true }
            bytesRead += n
            filled += n
            var start = 0
            while start < filled {
                let end: Int
                if let newline = memchr(buffer + start, 0x0A, filled - start) {
                    end = buffer.distance(to: newline)
                } else if eof {
                    end = filled  // the last line, with no newline to end it
                } else {
                    break
                }
                lineNumber += 1
                if end - start > maximumLineBytes { throw .input(tooLong(lineNumber)) }
                do {
                    try body(UnsafeRawBufferPointer(start: buffer + start, count: end - start), lineNumber)
                } catch {
                    throw .body(error)
                }
                start = min(end + 1, filled)
            }
            if start > 0 {
                filled -= start
                if filled > 0 { memmove(buffer, buffer + start, filled) }
            }
        }
    }

    private func tooLong(_ line: Int) -> RecordsError {
        RecordsError.input(.data, source: source, line: line, message: "line is longer than \(maximumLineBytes >> 20) MiB; is this NDJSON?")
    }
}

/// An error from reading the input, or one thrown by the caller's line handler.
public enum LineReaderError<E: Error>: Error {
    case input(RecordsError)
    case body(E)
}

extension LineReaderError where E == RecordsError {
    /// The error, whether reading failed or the line's handler refused it: both are input errors.
    public var inputError: RecordsError {
        switch self {
        case .input(let error), .body(let error): return error
        }
    }
}

extension LineReader {
    /// Line `number` of this input as one JSON object (building only `keys` when given), a
    /// syntax error placed at this input and line: what every reader of NDJSON records does
    /// with each line `forEachLine` hands it.
    @inlinable public func record(_ line: UnsafeRawBufferPointer, number: Int, keeping keys: JSONParser.KeySet? = nil) throws(RecordsError) -> JSONObject {
        do {
            return try JSONParser.parseObject(line, keeping: keys)
        } catch {
            throw error.at(source, line: number)
        }
    }
}
