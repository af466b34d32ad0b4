import Foundation
import WidgetSchedulerCore

/// Writes JSON text straight into memory that `JSONBytesWriter.appendWritten(atMost:_:)` lends it: the same text as
/// the writer's `raw`, `date` and `string`, without the array's uniqueness and capacity checks on every piece. For
/// the per-element loops of large replies (a `Reload` of a kind writes ~90 bytes in ~25 pieces per widget).
///
/// The caller bounds what it writes (`maximumDateCount`, `maximumCount(ofString:)`); every write is still checked
/// against the memory lent, and a write past it stops the process rather than corrupt memory.
public struct JSONByteCursor: JSONByteSink {
    private let start: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// How many bytes have been written.
    public private(set) var count = 0
    var cachedSecond = Int64.min
    var cachedPrefix = InlineArray<19, UInt8>(repeating: 0)

    /// The most a date takes, quotes included (an RFC 3339 date of a year of any width).
    public static let maximumDateCount = 64

    /// The most `string(text)` takes: every byte escaped as `\u00XX`, and the quotes.
    public static func maximumCount(ofString text: String) -> Int {
        2 + 6 * text.utf8.count
    }

    init(start: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.start = start
        self.capacity = capacity
    }

    mutating func put(_ byte: UInt8) {
        precondition(count < capacity, "JSONByteCursor: more written than was bounded")
        start[count] = byte
        count += 1
    }

    mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        precondition(count + bytes.count <= capacity, "JSONByteCursor: more written than was bounded")
        (start + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    mutating func putFullDate(_ date: Date, second: Int64) {
        var text: [UInt8] = []
        RFC3339.append(date, to: &text)
        text.withUnsafeBufferPointer { put($0) }
        cachePrefix(of: text, second: second)
    }

    /// Writes text as it is: punctuation, keys known to need no escaping.
    public mutating func raw(_ text: StaticString) {
        putRaw(text)
    }

    /// Writes `date` as `JSONBytesWriter.date` does.
    public mutating func date(_ date: Date) {
        putDate(date)
    }

    /// Writes `text` as `JSONBytesWriter.string` does.
    public mutating func string(_ text: String) {
        putString(text)
    }
}
