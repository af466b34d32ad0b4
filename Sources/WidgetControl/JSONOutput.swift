import Foundation
import WidgetProtocol

/// `--json` output: the wire shapes with RFC 3339 dates and sorted keys.
public enum JSONOutput {
    /// Indented JSON for one document.
    public static func document<Value: Encodable>(_ value: Value) -> String {
        let encoder = VarlinkCoding.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// One compact line, for streams (`watch --json`).
    public static func line<Value: Encodable>(_ value: Value) -> String {
        guard let bytes = try? VarlinkCoding.encode(value) else { return "null" }
        return String(decoding: bytes, as: UTF8.self)
    }
}
