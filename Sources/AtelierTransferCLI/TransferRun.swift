import AtelierCLI

/// How atl-send and atl-recv run: large buffers kept in the malloc heap (HeapTuning), and the
/// records written so far flushed even when a later file fails — each was verified, so they are
/// true, and a block-buffered stdout must not swallow them.
package enum TransferRun {
    package static func run(lineBuffered: Bool, _ body: (RecordOutput) throws -> Void) throws {
        HeapTuning.keepLargeBuffersInHeap()
        let out = RecordOutput(lineBuffered: lineBuffered)
        do {
            try body(out)
            try out.flush()
        } catch {
            try? out.flush()
            throw Diagnostics.exitCode(for: error)
        }
    }
}
