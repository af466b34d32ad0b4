import WidgetSchedulerCore

/// The image metadata every entry the control API returns may carry (`images`, keyed by the file name its content
/// names): the core's type, named here so that a host importing only the wire types finds it.
public typealias EntryImage = WidgetSchedulerCore.EntryImage

extension EntryImage {
    /// The image as a JSON object with sorted keys, as `VarlinkCoding` writes it.
    public var jsonValue: JSONValue {
        .object(["byteCount": .integer(Int64(byteCount)), "contentType": .string(contentType),
                 "height": .integer(Int64(height)), "sha256": .string(sha256), "width": .integer(Int64(width))])
    }

    /// An entry's `images` map as a JSON object, for the replies written by hand.
    public static func jsonValue(_ images: [String: EntryImage]) -> JSONValue {
        .object(images.mapValues(\.jsonValue))
    }
}

extension EntryImage {
    /// Whether the image could be one the daemon stored: a SHA-256, a known type, dimensions and size within the
    /// limits. A stored value that is not is damage.
    public var isPlausible: Bool {
        ImageMethod.isSHA256(sha256) && ImageHeader.Format.allCases.contains { $0.contentType == contentType }
            && (1...ImageRules.maximumDimension).contains(width) && (1...ImageRules.maximumDimension).contains(height)
            && (1...ImageRules.maximumImageBytes).contains(byteCount)
    }
}
