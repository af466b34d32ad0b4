/// One member of a reply's parameters, cut out of the message's bytes without parsing it: `widgetctl list --json`
/// passes the daemon's widget array through (a 27 MB reply at 100 000 widgets took seconds to decode and re-encode).
public enum ReplyMember {
    /// The bytes of the array `name` when `message` is exactly `{"parameters":{"NAME":[…]}}`, the form this daemon
    /// writes; nil for anything else (an error, another daemon's spacing or member order), which callers decode.
    public static func array(_ name: String, in message: [UInt8]) -> ArraySlice<UInt8>? {
        let prefix = Array(#"{"parameters":{""#.utf8) + Array(name.utf8) + Array(#"":"#.utf8)
        let suffix = Array("}}".utf8)
        guard message.count >= prefix.count + suffix.count + 2, message.starts(with: prefix),
              message.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        let value = message[prefix.count..<(message.count - suffix.count)]
        guard value.first == UInt8(ascii: "["), value.last == UInt8(ascii: "]") else { return nil }
        return value
    }
}
