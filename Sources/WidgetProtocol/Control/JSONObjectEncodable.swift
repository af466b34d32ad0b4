/// A reply type that writes its own JSON, byte for byte what `VarlinkCoding.encode` would produce, for replies
/// large enough that `JSONEncoder` is the cost (a `Reload` of a kind with many widgets).
/// `VarlinkCall` prefers this encoding when a reply offers it.
public protocol JSONObjectEncodable {
    /// Appends the JSON object, no NUL terminator.
    func encodeJSONObject(into output: inout JSONBytesWriter)
    /// About how many bytes the object takes, to reserve them at once.
    var jsonCapacityEstimate: Int { get }
}

extension JSONObjectEncodable {
    public var jsonCapacityEstimate: Int { 256 }

    /// The JSON object's bytes, no NUL terminator.
    public func encodedJSONObject() -> [UInt8] {
        var output = JSONBytesWriter(reservingCapacity: jsonCapacityEstimate)
        encodeJSONObject(into: &output)
        return output.bytes
    }
}
