/// `image`: a file in the provider's asset folder, or a symbol of the fixed set. Never a URL that a host would fetch.
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
}

/// An image's size: the side of its square in points.
public enum ImageSize: String, Sendable, Hashable, CaseIterable {
    case small, medium, large, xlarge

    public var points: Int {
        switch self {
        case .small: return 16
        case .medium: return 24
        case .large: return 40
        case .xlarge: return 64
        }
    }
}
