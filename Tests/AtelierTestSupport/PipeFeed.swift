import Foundation

/// `bytes` written into a new pipe by another thread, in pieces of the sizes `chunks` gives (the
/// rest at once when they run out), for readers that must see input arrive as a pipe delivers
/// it. Returns the read end, which the caller reads and closes, and a wait for the writer; the
/// writer stops early when the reader closes its end. SIGPIPE is ignored from the first call on,
/// process-wide, so that such a writer gets an error instead of ending the test run.
/// (The libFuzzer harness of csv compiles this file too: fuzz/run.sh.)
public func feedThroughPipe(_ bytes: [UInt8], chunks: [Int] = []) -> (readEnd: Int32, waitForWriter: @Sendable () -> Void) {
    signal(SIGPIPE, SIG_IGN)
    var fds: [Int32] = [0, 0]
    precondition(pipe(&fds) == 0)
    let writer = fds[1]
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        var offset = 0
        var sizes = chunks.makeIterator()
        while offset < bytes.count {
            let size = min(bytes.count - offset, max(1, sizes.next() ?? bytes.count))
            let written = bytes[offset ..< (offset + size)].withUnsafeBytes { write(writer, $0.baseAddress, size) }
            if written <= 0 { break }  // the reader stopped and closed its end
            offset += written
        }
        close(writer)
        done.signal()
    }
    return (fds[0], { done.wait() })
}
