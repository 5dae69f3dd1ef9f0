import Foundation

/// A fixed list of names, each found by its position: a record's field names, a vocabulary's
/// words.
///
/// An import looks up every key of every line, and most values, in such lists. `Dictionary`
/// hashes a String with seeded SipHash, which for these short names costs more than the rest
/// of the lookup; here an ASCII name is hashed with FNV-1a over its bytes into a small
/// open-addressed table and compared as bytes. For ASCII text, equal bytes and equal Strings
/// are the same thing. Anything else (a name or a query that is not ASCII) goes through a
/// `Dictionary`, so equality stays Swift's canonical equivalence: `"\u{212A}"` (the Kelvin
/// sign) still finds `K`.
public struct NameIndex: Sendable {
    private let table: Table
    /// Every name, for lookups that are not plain ASCII.
    private let byString: [String: Int]

    /// Indexes `names`; a name given twice is found at its first position.
    public init(_ names: [String]) {
        byString = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        table = Table(names, first: byString)
    }

    /// The position of `name`, or nil.
    public func position(of name: String) -> Int? {
        var name = name  // `withUTF8` needs a variable; a native String's buffer is not copied
        let table = table
        let found = name.withUTF8 { table.lookUp(UnsafeRawBufferPointer($0)) }
        switch found {
        case .found(let position): return position
        case .absent: return table.hasOtherNames ? byString[name] : nil
        case .notASCII: return byString[name]
        }
    }

    public func contains(_ name: String) -> Bool { position(of: name) != nil }

    /// The open-addressed table of the ASCII names, in memory of its own, read without bounds
    /// checks or reference counting in the loop (which, for names this short, cost more than
    /// the SipHash they replace).
    private final class Table: @unchecked Sendable {
        enum Answer { case found(Int), absent, notASCII }

        /// Per slot, 1 + the name's position, or 0 for an empty slot.
        let slots: UnsafeMutableBufferPointer<Int32>
        /// The names' bytes back to back, and per position where each starts and ends.
        let bytes: UnsafeMutableBufferPointer<UInt8>
        let spans: UnsafeMutableBufferPointer<(start: Int, end: Int)>
        let slotMask: Int
        /// Whether some name is not ASCII: an ASCII query that misses the table may still equal it.
        let hasOtherNames: Bool

        init(_ names: [String], first: [String: Int]) {
            var size = 8
            while size < names.count * 4 { size *= 2 }
            slots = .allocate(capacity: size)
            slots.initialize(repeating: 0)
            let all = names.flatMap(\.utf8)
            bytes = .allocate(capacity: max(1, all.count))
            _ = bytes.initialize(from: all)
            spans = .allocate(capacity: max(1, names.count))
            var other = false
            var offset = 0
            for (position, name) in names.enumerated() {
                let utf8 = Array(name.utf8)
                spans[position] = (offset, offset + utf8.count)
                offset += utf8.count
                guard utf8.allSatisfy({ $0 < 0x80 }) else { other = true; continue }
                guard first[name] == position else { continue }
                var slot = Int(truncatingIfNeeded: utf8.withUnsafeBytes(Self.hash)) & (size - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
                slots[slot] = Int32(position + 1)
            }
            slotMask = size - 1
            hasOtherNames = other
        }

        deinit {
            slots.deallocate()
            bytes.deallocate()
            spans.deallocate()
        }

        /// One pass over the query's bytes (ASCII or not, and their hash), then byte compares
        /// inline: for names this short a call to `memcmp` cost more than the compare.
        func lookUp(_ utf8: UnsafeRawBufferPointer) -> Answer {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var high: UInt8 = 0
            for byte in utf8 {
                high |= byte
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            guard high < 0x80 else { return .notASCII }
            var slot = Int(truncatingIfNeeded: hash) & slotMask
            while true {
                let entry = Int(slots[slot])
                if entry == 0 { return .absent }
                let span = spans[entry - 1]
                if span.end - span.start == utf8.count, Self.equal(UnsafeRawPointer(bytes.baseAddress! + span.start), utf8) {
                    return .found(entry - 1)
                }
                slot = (slot + 1) & slotMask
            }
        }

        /// Whether the `query.count` bytes at `name` are the query's, eight at a time.
        @inline(__always)
        static func equal(_ name: UnsafeRawPointer, _ query: UnsafeRawBufferPointer) -> Bool {
            guard let other = query.baseAddress else { return true }
            let count = query.count
            var i = 0
            while i + 8 <= count {
                if name.loadUnaligned(fromByteOffset: i, as: UInt64.self) != other.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
                i += 8
            }
            while i < count {
                if name.load(fromByteOffset: i, as: UInt8.self) != other.load(fromByteOffset: i, as: UInt8.self) { return false }
                i += 1
            }
            return true
        }

        /// FNV-1a, 64-bit.
        static func hash(_ utf8: UnsafeRawBufferPointer) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
    }
}
