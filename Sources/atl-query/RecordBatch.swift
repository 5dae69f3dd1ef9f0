import AtelierRecords
import Dispatch

/// Lines of one input parsed into whole records on every core, a batch at a time, and handed
/// over in line order, the first line that is no record stopping them with its error as a
/// parse line by line would. For the views that build every record in full before they start
/// (`duplicates` reads 88 MB of image records for 100,000 photos: half a second on one core).
struct RecordBatch {
    /// A batch is parsed when it holds this many bytes of lines.
    static let capacity = 4 << 20

    let source: String
    private var bytes: [UInt8] = []
    /// Where each line ends in `bytes`, and its number in the input.
    private var ends: [Int] = []
    private var numbers: [Int] = []

    init(source: String) { self.source = source }

    /// Adds a copy of `line`; true when the batch is full and should be drained.
    mutating func add(_ line: UnsafeRawBufferPointer, number: Int) -> Bool {
        bytes.append(contentsOf: line)
        ends.append(bytes.count)
        numbers.append(number)
        return bytes.count >= Self.capacity
    }

    /// Hands each record of the batch to `take` in order until it returns false, and empties
    /// the batch; a line that is not a JSON object throws its error, placed at its line.
    mutating func drain(_ take: (JSONObject) -> Bool) throws(RecordsError) {
        defer {
            bytes.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            numbers.removeAll(keepingCapacity: true)
        }
        let count = ends.count
        guard count > 0 else { return }
        let (text, ends) = (bytes, ends)
        let parsed = ParallelArray.map(count, parts: count >= 512 ? 8 : 1) { k in
            text.withUnsafeBytes { all in
                let line = UnsafeRawBufferPointer(rebasing: all[(k == 0 ? 0 : ends[k - 1]) ..< ends[k]])
                return Result { () throws(RecordsError) in try JSONParser.parseObject(line) }
            }
        }
        for k in 0 ..< count {
            switch parsed[k] {
            case .success(let record): if !take(record) { return }
            case .failure(let error): throw error.at(source, line: numbers[k])
            }
        }
    }
}
