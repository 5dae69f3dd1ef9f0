import AtelierRecords
import Foundation

/// Reads, parses and validates NDJSON on a second thread while the caller stores records, so a
/// large import uses both cores: parsing and checking a record costs about as much as SQLite
/// storing it.
///
/// Records arrive in input order, in batches, through a small bounded queue, so memory stays
/// flat however long the input. A record that fails to parse or validate arrives as a failure
/// with its line, exactly as it would have without the second thread.
final class ParsingPipeline: @unchecked Sendable {
    struct Item {
        var line: Int
        var content: Content

        enum Content {
            /// A record to apply: checked and normalised already when `prepared` is set
            /// (`CatalogWriter.prepare`), else as read.
            case record(JSONObject, prepared: CatalogWriter.Prepared?)
            /// A new record's row, ready to insert; the record itself only when the stored
            /// record is wanted back (it is freed here otherwise, not on the writer's thread).
            case fresh(FreshRow, record: JSONObject?)
            case failure(RecordsError)
        }
    }

    private enum Message {
        /// Records, and how many bytes of input had been read when they were sent.
        case batch([Item], bytesRead: Int)
        case end(RecordsError?)
    }

    private static let batchSize = 256
    private static let capacity = 8

    private let lock = NSLock()
    private var queue: [Message] = []
    private let spaces = DispatchSemaphore(value: ParsingPipeline.capacity)
    private let filled = DispatchSemaphore(value: 0)
    private let stopped = ManagedAtomicFlag()
    private let done = DispatchSemaphore(value: 0)
    private var ended = false

    /// Starts reading `reader` on another thread. `keepsRecords`: whether a new record's row
    /// (`FreshRow`) travels with the record, for the stored record to be worked out.
    init(reader: LineReader, keepsRecords: Bool) {
        let source = reader.source
        let owned = ReaderHandOff(reader: reader)
        Thread.detachNewThread { [self] in
            let reader = owned.reader
            var batch: [Item] = []
            batch.reserveCapacity(Self.batchSize)
            var failure: RecordsError?
            do throws(LineReaderError<RecordsError>) {
                try reader.forEachLine { (line, number) throws(RecordsError) in
                    if stopped.isSet { throw RecordsError.input(.io, source: source, line: number, message: "stopped") }
                    batch.append(Self.prepare(line, number, source: source, keepsRecords: keepsRecords))
                    if batch.count == Self.batchSize {
                        send(.batch(batch, bytesRead: reader.bytesRead))
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                failure = error.inputError
            }
            if !batch.isEmpty { send(.batch(batch, bytesRead: reader.bytesRead)) }
            send(.end(stopped.isSet ? nil : failure))
            done.signal()
        }
    }

    /// Input bytes behind the batches handed out so far (the reader itself belongs to the
    /// reading thread until `finish`).
    private(set) var bytesDelivered = 0

    /// The next batch, nil at the end; throws what went wrong reading the input.
    func next() throws(RecordsError) -> [Item]? {
        guard !ended else { return nil }
        filled.wait()
        let message = lock.withLock { queue.removeFirst() }
        spaces.signal()
        switch message {
        case .batch(let items, let bytesRead):
            bytesDelivered = bytesRead
            return items
        case .end(let failure):
            ended = true
            if let failure { throw failure }
            return nil
        }
    }

    /// Stops the reading thread (if it is still going) and waits for it to let go of the reader.
    func finish() {
        stopped.set()
        while !ended {
            filled.wait()
            let message = lock.withLock { queue.removeFirst() }
            spaces.signal()
            if case .end = message { ended = true }
        }
        done.wait()
    }

    private func send(_ message: Message) {
        spaces.wait()
        lock.withLock { queue.append(message) }
        filled.signal()
    }

    private static func prepare(_ line: UnsafeRawBufferPointer, _ number: Int, source: String, keepsRecords: Bool) -> Item {
        do throws(RecordsError) {
            let record = try JSONParser.parseObject(line)
            // A prepared record stands in for what was read (it keeps "type", "op" and every
            // field, normalised), so the parsed one is freed here rather than on the other thread.
            guard let prepared = try CatalogWriter.prepare(record) else { return Item(line: number, content: .record(record, prepared: nil)) }
            if let row = prepared.row { return Item(line: number, content: .fresh(row, record: keepsRecords ? prepared.record : nil)) }
            return Item(line: number, content: .record(prepared.record, prepared: prepared))
        } catch {
            return Item(line: number, content: .failure(error.at(source, line: number)))
        }
    }
}

/// The reader, handed to the parsing thread; the caller does not touch it until `finish`.
private struct ReaderHandOff: @unchecked Sendable {
    let reader: LineReader
}

/// A flag set once, read from any thread.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
