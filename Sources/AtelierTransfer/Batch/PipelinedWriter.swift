import Foundation

/// Appends received chunks to their files on a second thread, so that hashing and writing
/// one chunk overlaps with receiving and decrypting the next (the receiver's two halves of
/// work are about equal, so this uses a second core). At most `depth` chunks wait, which keeps
/// memory flat; the first write error is kept and thrown to the receiving thread at its next
/// `append` or `drain`.
final class PipelinedWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [(file: PartialFile, bytes: ArraySlice<UInt8>)] = []
    private var writing = false
    private var stopped = false
    private var failure: (any Error)?
    private let depth: Int

    init(depth: Int = 4) {
        self.depth = depth
        Thread { [self] in loop() }.start()
    }

    /// Queues `bytes` for the end of `file`, waiting while `depth` chunks already wait.
    func append(_ bytes: ArraySlice<UInt8>, to file: PartialFile) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append((file, bytes))
        condition.broadcast()
    }

    /// Waits until every queued chunk is written.
    func drain() throws {
        condition.lock()
        defer { condition.unlock() }
        while (!queue.isEmpty || writing) && failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Ends the writing thread once the queue is empty.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        condition.lock()
        while true {
            while queue.isEmpty && !stopped { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                return
            }
            let next = queue.removeFirst()
            writing = true
            condition.unlock()
            var error: (any Error)?
            do {
                try next.bytes.withUnsafeBytes { raw in try next.file.append(raw) }
            } catch let caught {
                error = caught
            }
            condition.lock()
            writing = false
            if let error, failure == nil {
                failure = error
                queue.removeAll()
            }
            condition.broadcast()
        }
    }
}
