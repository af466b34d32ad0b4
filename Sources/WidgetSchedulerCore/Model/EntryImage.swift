/// An image a provider wrote for an entry, as the daemon stored it: what a host needs to ask the control API for its
/// bytes (`Image`, by `sha256`) and to lay it out before they come. An entry's content refers to the image by its file
/// name; the entry carries this beside its content, keyed by that name (`"images": {"cat.jpg": {...}}`).
public struct EntryImage: Sendable, Hashable, Codable {
    /// The SHA-256 of the image's bytes, 64 lowercase hexadecimal digits: its name in the daemon's image store.
    public var sha256: String
    /// `image/png`, `image/jpeg` or `image/webp`, as the bytes say (never the file name).
    public var contentType: String
    /// Its width in pixels, from its header: 1 to 2048.
    public var width: Int
    /// Its height in pixels, from its header: 1 to 2048.
    public var height: Int
    /// Its size in bytes: at most 2 MiB.
    public var byteCount: Int

    public init(sha256: String, contentType: String, width: Int, height: Int, byteCount: Int) {
        self.sha256 = sha256
        self.contentType = contentType
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }
}
