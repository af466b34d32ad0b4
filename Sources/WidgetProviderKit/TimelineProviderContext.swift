import Foundation

/// What a provider knows about the request, as WidgetKit's `TimelineProviderContext`, plus the widget's
/// configuration, its group's data directory, the run's image directory and the reason for the run.
public struct TimelineProviderContext: Sendable {
    /// The widget kind asked for.
    public var kind: String
    /// The widget's id in the daemon, when the request is about one widget.
    public var widgetID: String?
    public var family: WidgetFamily
    /// True for previews: answer fast, with sample data.
    public var isPreview: Bool
    /// The widget's parameters by name (its intent, in WidgetKit's terms).
    public var configuration: [String: ParameterValue]
    /// The shared data directory of the manifest's group, if it has one.
    public var dataDirectory: URL?
    /// Where a timeline or snapshot run writes the images its entries show (`saveImage(_:name:)`), when the manifest
    /// says `images = true`; nil otherwise, and for placeholder, defaults and options requests.
    public var imageDirectory: URL?
    /// Why the run happens (`initial`, `configuration`, `foreground`, `policy`, `explicit`, `retry`), if known.
    public var reason: String?
    /// The daemon's clock when it started the run. Use it rather than `Date()` so previews and tests are repeatable.
    public var now: Date

    public init(
        kind: String,
        widgetID: String? = nil,
        family: WidgetFamily = .systemSmall,
        isPreview: Bool = false,
        configuration: [String: ParameterValue] = [:],
        dataDirectory: URL? = nil,
        imageDirectory: URL? = nil,
        reason: String? = nil,
        now: Date = Date()
    ) {
        self.kind = kind
        self.widgetID = widgetID
        self.family = family
        self.isPreview = isPreview
        self.configuration = configuration
        self.dataDirectory = dataDirectory
        self.imageDirectory = imageDirectory
        self.reason = reason
        self.now = now
    }

    /// The group value stored for `key`, if the manifest has a group and the app wrote it.
    public func groupValue(forKey key: String) -> GroupValue? {
        dataDirectory.flatMap { GroupValue.read(key: key, in: $0) }
    }

    /// The longest image file name the daemon accepts, in UTF-8 bytes.
    public static let maximumImageNameLength = 255

    /// Writes `data` (a PNG, JPEG or WebP image) as `name` in the run's image directory and returns `name`, to put in
    /// an entry's content where a view's `image` of source `provided` reads it. Saving a name again replaces the file.
    /// The daemon checks the image when the run ends (its type by its bytes, at most 2 MiB and 2048×2048); a bad one
    /// fails the run, naming the entry and the file.
    ///
    /// Throws `ProviderKitError.imageNotSaved` for a name with a `/`, a leading `.`, a NUL or more than 255 bytes,
    /// for a request without an image directory (a placeholder, or a manifest without `images = true`), or when the
    /// file cannot be written.
    @discardableResult
    public func saveImage(_ data: Data, name: String) throws(ProviderKitError) -> String {
        guard !name.isEmpty, name.utf8.count <= Self.maximumImageNameLength, !name.contains("/"),
              !name.hasPrefix("."), !name.utf8.contains(0)
        else {
            throw .imageNotSaved(name: name, reason: "expected a plain file name of 1 to "
                + "\(Self.maximumImageNameLength) bytes, without \"/\" or a leading \".\", such as \"photo.jpg\"")
        }
        guard let imageDirectory else {
            throw .imageNotSaved(name: name, reason: "this request has no image directory (only timeline and "
                + "snapshot requests of a provider whose manifest says images = true have one)")
        }
        do {
            // The daemon reads the directory once the provider has exited, so a plain write is whole by then.
            try data.write(to: imageDirectory.appendingPathComponent(name, isDirectory: false))
        } catch {
            throw .imageNotSaved(name: name, reason: "\(error.localizedDescription)")
        }
        return name
    }
}
