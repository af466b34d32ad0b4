import Foundation
import WidgetSchedulerCore

/// Reads what `CompactWriter` wrote. Every read checks the remaining length: a short or damaged blob throws
/// `CompactReader.Malformed` naming the offset, never reads out of bounds.
struct CompactReader {
    /// The blob ended early or held an impossible value.
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ data: Data) {
        bytes = [UInt8](data)
    }

    var isAtEnd: Bool { offset == bytes.count }
    /// How many bytes are left to read.
    var remaining: Int { bytes.count - offset }

    private mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count - offset >= count else {
            throw Malformed(offset: offset, reason: "blob ends before \(Counted.phrase(count, "more byte"))")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func fixed<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let slice = try take(MemoryLayout<T>.size)
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: slice) }
        return T(littleEndian: value)
    }

    mutating func u8() throws -> UInt8 {
        try take(1).first!
    }

    mutating func bool() throws -> Bool {
        switch try u8() {
        case 0: return false
        case 1: return true
        case let other: throw Malformed(offset: offset - 1, reason: "flag \(other) is neither 0 nor 1")
        }
    }

    mutating func u32() throws -> UInt32 {
        try fixed(UInt32.self)
    }

    mutating func u64() throws -> UInt64 {
        try fixed(UInt64.self)
    }

    /// A 32-bit byte count, then the bytes.
    mutating func blob() throws -> Data {
        Data(try take(Int(try u32())))
    }

    mutating func int() throws -> Int {
        Int(try fixed(Int64.self))
    }

    mutating func double() throws -> Double {
        Double(bitPattern: try fixed(UInt64.self))
    }

    mutating func date() throws -> Date {
        Date(timeIntervalSinceReferenceDate: try double())
    }

    mutating func string() throws -> String {
        let count = Int(try u32())
        let start = offset
        let slice = try take(count)
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw Malformed(offset: start, reason: "string is not UTF-8")
        }
        return text
    }

    /// A presence byte, then the value when there is one.
    mutating func optional<T>(_ read: (inout CompactReader) throws -> T) throws -> T? {
        try bool() ? try read(&self) : nil
    }

    /// An enumeration's raw value by name.
    mutating func named<T: RawRepresentable>(_: T.Type) throws -> T where T.RawValue == String {
        let start = offset
        let name = try string()
        guard let value = T(rawValue: name) else {
            throw Malformed(offset: start, reason: "unknown \(T.self) \"\(name)\"")
        }
        return value
    }
}
