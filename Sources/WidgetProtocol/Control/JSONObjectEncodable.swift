/// A reply type that writes its own JSON, byte for byte what `VarlinkCoding.encode` would produce, for replies
/// large enough that `JSONEncoder` is the cost (a `Reload` of 10 000 widgets: ~50 ms through `JSONEncoder`).
/// `VarlinkCall` prefers this encoding when a reply offers it.
public protocol JSONObjectEncodable {
    /// The JSON object's bytes, no NUL terminator.
    func encodedJSONObject() -> [UInt8]
}
