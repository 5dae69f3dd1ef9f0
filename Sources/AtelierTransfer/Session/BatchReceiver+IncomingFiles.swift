import Crypto

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
        /// The hash state after each partial file's prefix (`ResumeState.have`), from the survey.
        private let prefixes: [Int: SHA256]
        private var done: [Bool]
        private var current: (index: Int, file: PartialFile, from: UInt64)?
        private var expectedOffset: UInt64 = 0
        /// Bytes written in this session.
        private var received: UInt64 = 0
        private let writer = PipelinedWriter()

        init(manifest: Manifest, directory: BatchDirectory, states: [ResumeState], prefixes: [Int: SHA256]) {
            self.manifest = manifest
            self.directory = directory
            self.states = states
            self.prefixes = prefixes
            done = Array(repeating: false, count: states.count)
        }

        /// Writes what arrived and lets the writer go: also when the stream broke, since what
        /// arrived is authentic and the next run resumes after it.
        func stop() {
            try? writer.drain()
            writer.stop()
        }

        /// Appends a data message's bytes to its file, opening the file when its data begins;
        /// returns the bytes written in this session so far. The data must be of a file still
        /// to come, one file at a time, and not pass the size its manifest entry declares. A
        /// file's first data is at 0, or at the prefix it holds (`have`: the sender's bytes
        /// begin the same); data for a file in place (`present`: the sender's differs) needs
        /// `overwrite`. Then each data message continues exactly where the last one ended.
        mutating func write(_ bytes: ArraySlice<UInt8>, toFile entry: UInt32, at offset: UInt64) throws -> UInt64 {
            let index = Int(entry)
            guard index < done.count, !done[index] else { throw TransferError.unexpectedMessage(expected: "data of a file still to come", got: "data of file \(entry)") }
            if current?.index != index {
                guard current == nil else { throw TransferError.unexpectedMessage(expected: "fileEnd of file \(current!.index)", got: "data of file \(entry)") }
                try start(index, at: offset)
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

        /// Opens file `index` for its first data of this session, at `offset`.
        private mutating func start(_ index: Int, at offset: UInt64) throws {
            switch states[index] {
            case .have(let bytes, _) where offset == bytes:
                break
            case .present where !directory.overwrite:
                throw TransferError.wouldOverwrite(path: directory.finalPath(manifest.entries[index].path.string))
            default:
                guard offset == 0 else {
                    throw TransferError.malformedMessage("data", reason: "file \(index) starts at offset \(offset), expected 0 or the \(states[index].expectedFrom ?? 0) bytes held")
                }
            }
            current = (index, try open(index, from: offset), offset)
            expectedOffset = offset
        }

        /// Ends a file at its fileEnd, which brings the sender's sha256. After data (or for a
        /// file with nothing left to send: empty, or whole in `.atl-partial`), the file must be
        /// exactly its declared size and hash to it on disk; it is then made durable and put in
        /// place (`publish`), else deleted and refused (`checksumMismatch`). After no data for a
        /// file in place (`present`), the sender says it has the same: its sha256 must be the
        /// one the receiver offered.
        mutating func finish(_ entry: UInt32, sha256: [UInt8]) throws -> ReceivedFile {
            let index = Int(entry)
            guard index < done.count, !done[index], current == nil || current!.index == index else {
                throw TransferError.unexpectedMessage(expected: "data", got: "fileEnd of file \(entry)")
            }
            let item = manifest.entries[index]
            let path = directory.finalPath(item.path.string)
            if current == nil, case .present(let held) = states[index] {
                guard sha256 == held else {
                    throw TransferError.malformedMessage("fileEnd", reason: "file \(entry) came without data, and with another sha256 than the one in place")
                }
                done[index] = true
                return ReceivedFile(batch: manifest.batchID, index: index, relativePath: item.path.string, path: path,
                                    sha256Hex: sha256.hex, bytes: item.size, resumedFrom: nil)
            }
            if current == nil { try start(index, at: states[index].expectedFrom ?? 0) }
            try writer.drain()
            let (file, from) = (current!.file, current!.from)
            current = nil
            guard UInt64(file.written) == item.size else {
                throw TransferError.malformedMessage("fileEnd", reason: "file \(entry) ended at \(file.written) bytes of \(item.size)")
            }
            try directory.publish(file, relative: item.path.string, sha256: sha256)
            done[index] = true
            return ReceivedFile(batch: manifest.batchID, index: index, relativePath: item.path.string, path: path,
                                sha256Hex: sha256.hex, bytes: item.size, resumedFrom: from)
        }

        /// At END_BATCH: every file must be done and none half-way; the batch is then finished
        /// on disk (its directories flushed, the temporary directory removed).
        func finishBatch() throws {
            guard current == nil, done.allSatisfy({ $0 }) else {
                throw TransferError.unexpectedMessage(expected: "the rest of the files", got: "endBatch")
            }
            directory.finishBatch(relativePaths: manifest.entries.map(\.path.string))
        }

        /// File `index`'s partial file, from `offset`: the prefix it holds, or 0 (anew).
        private func open(_ index: Int, from offset: UInt64) throws -> PartialFile {
            let entry = manifest.entries[index]
            return try directory.openPartial(relative: entry.path.string, size: Int64(entry.size), offset: Int64(offset),
                                             prefix: offset > 0 ? prefixes[index]! : SHA256())
        }
    }
}
