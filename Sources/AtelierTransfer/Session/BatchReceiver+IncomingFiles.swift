extension BatchReceiver {
    /// The files of a batch as their data arrives: which are done, which one is being written
    /// and where its next byte goes, and the writer that puts the bytes on disk. Each message's
    /// checks are here, each throwing `TransferError` for a message out of place or
    /// inconsistent with the manifest; `receive` answers the peer and reports.
    struct IncomingFiles {
        let manifest: Manifest
        let directory: BatchDirectory
        /// What the receiver answered to the manifest, file by file.
        let states: [ResumeState]
        private var done: [Bool]
        private var current: (index: Int, file: PartialFile)?
        private var expectedOffset: UInt64 = 0
        /// Bytes written in this session.
        private var received: UInt64 = 0
        private let writer = PipelinedWriter()

        init(manifest: Manifest, directory: BatchDirectory, states: [ResumeState]) {
            self.manifest = manifest
            self.directory = directory
            self.states = states
            done = states.map { $0 == .complete }
        }

        /// Writes what arrived and lets the writer go: also when the stream broke, since what
        /// arrived is authentic and the next run resumes after it.
        func stop() {
            try? writer.drain()
            writer.stop()
        }

        /// Appends a data message's bytes to its file, opening the file (where an earlier run
        /// left it) when its data begins; returns the bytes written in this session so far.
        /// The data must be of a file still to come, one file at a time, continue exactly where
        /// the file stands, and not pass the size its manifest entry declares.
        mutating func write(_ bytes: ArraySlice<UInt8>, toFile entry: UInt32, at offset: UInt64) throws -> UInt64 {
            let index = Int(entry)
            guard index < done.count, !done[index] else { throw TransferError.unexpectedMessage(expected: "data of a file still to come", got: "data of file \(entry)") }
            if current?.index != index {
                guard current == nil else { throw TransferError.unexpectedMessage(expected: "fileEnd of file \(current!.index)", got: "data of file \(entry)") }
                current = (index, try open(index))
                expectedOffset = UInt64(current!.file.written)
            }
            guard offset == expectedOffset else {
                throw TransferError.malformedMessage("data", reason: "file \(entry) at offset \(offset), expected \(expectedOffset)")
            }
            let size = manifest.entries[index].size
            guard expectedOffset <= size, UInt64(bytes.count) <= size - expectedOffset else {
                throw TransferError.malformedMessage("data", reason: "file \(entry) would grow to \(expectedOffset + UInt64(bytes.count)) bytes at offset \(offset), past the \(size) its manifest entry declares")
            }
            try writer.append(bytes, to: current!.file)
            expectedOffset += UInt64(bytes.count)
            received += UInt64(bytes.count)
            return received
        }

        /// Ends a file at its fileEnd: the sha256 must be the manifest's and the file exactly
        /// its declared size; then the file is verified and put in place (`publish`).
        mutating func finish(_ entry: UInt32, sha256: [UInt8]) throws -> ReceivedFile {
            let index = Int(entry)
            guard index < done.count, !done[index], current == nil || current!.index == index else {
                throw TransferError.unexpectedMessage(expected: "data", got: "fileEnd of file \(entry)")
            }
            let item = manifest.entries[index]
            guard sha256 == item.sha256 else { throw TransferError.malformedMessage("fileEnd", reason: "file \(entry)'s sha256 differs from the manifest's") }
            try writer.drain()
            let file = try current?.file ?? open(index)
            current = nil
            guard UInt64(file.written) == item.size else {
                throw TransferError.malformedMessage("fileEnd", reason: "file \(entry) ended at \(file.written) bytes of \(item.size)")
            }
            try directory.publish(file, relative: item.path.string, sha256Hex: item.sha256Hex)
            done[index] = true
            return ReceivedFile(batch: manifest.batchID, index: index, relativePath: item.path.string, path: directory.finalPath(item.path.string),
                                sha256Hex: item.sha256Hex, bytes: item.size, resumedFrom: states[index].sendFrom)
        }

        /// At END_BATCH: every file must be done and none half-way; the batch is then finished
        /// on disk (its directories flushed, the temporary directory removed).
        func finishBatch() throws {
            guard current == nil, done.allSatisfy({ $0 }) else {
                throw TransferError.unexpectedMessage(expected: "the rest of the files", got: "endBatch")
            }
            directory.finishBatch(relativePaths: manifest.entries.map(\.path.string))
        }

        /// File `index`'s partial file, from where this session starts it.
        private func open(_ index: Int) throws -> PartialFile {
            let entry = manifest.entries[index]
            return try directory.openPartial(relative: entry.path.string, sha256Hex: entry.sha256Hex, offset: Int64(states[index].sendFrom ?? 0))
        }
    }
}
