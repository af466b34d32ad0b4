import Foundation

/// Appends values in the store's compact binary encoding: little-endian fixed-width numbers, strings as a 32-bit
/// byte count and UTF-8. Used for what the daemon reads back for every widget at start (schedules and timeline
/// outlines), where JSON decoding took most of a 100 000-widget start.
struct CompactWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
    }

    var data: Data { Data(bytes) }

    mutating func u8(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func u32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func u64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A 32-bit byte count, then the bytes.
    mutating func blob(_ value: Data) {
        u32(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func date(_ value: Date) {
        double(value.timeIntervalSinceReferenceDate)
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A presence byte, then the value when there is one.
    mutating func optional<T>(_ value: T?, _ write: (inout CompactWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}
