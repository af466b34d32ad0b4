/// `image`: a file in the provider's asset folder, a symbol of the fixed set, or an image the provider wrote for the
/// entry (served by the host from the daemon's store). Never a URL that a host would fetch.
public struct ImageNode: Sendable, Hashable {
    /// Which picture.
    public enum Source: Sendable, Hashable {
        /// A file in the asset folder, checked when the manifest loads.
        case asset(String)
        /// A symbol of the fixed set.
        case symbol(Symbol)
        /// A symbol whose name is at a content path.
        case boundSymbol(ContentPath)
        /// An asset whose file name is at a content path.
        case boundAsset(ContentPath)
        /// An image the provider wrote in the run's image directory, whose file name is at a content path: the
        /// entry's `images` map has its hash, type and size.
        case provided(ContentPath)

        /// The `source` names of a bound image, in the order docs/views.md lists them.
        public static let boundNames = ["symbol", "asset", "provided"]
    }

    public var source: Source
    public var size: ImageSize
    /// What the picture shows, for screen readers and text renderers that cannot draw it.
    public var label: String?
    public var color: NamedColor?

    public init(source: Source, size: ImageSize = .medium, label: String? = nil, color: NamedColor? = nil) {
        self.source = source
        self.size = size
        self.label = label
        self.color = color
    }

    /// Whether the picture is a file (an asset or a provided image) rather than a symbol: only files may `fill`.
    public var isPicture: Bool {
        switch source {
        case .asset, .boundAsset, .provided: return true
        case .symbol, .boundSymbol: return false
        }
    }
}

/// An image's size: the side of its square in points, or `fill`: the room its stack offers, as SwiftUI's
/// `.resizable().scaledToFill()` (a photo's frame; the picture is cropped to it, never stretched).
public enum ImageSize: String, Sendable, Hashable, CaseIterable {
    case small, medium, large, xlarge, fill

    /// The side of the square in points; nil for `fill`.
    public var points: Int? {
        switch self {
        case .small: return 16
        case .medium: return 24
        case .large: return 40
        case .xlarge: return 64
        case .fill: return nil
        }
    }
}
