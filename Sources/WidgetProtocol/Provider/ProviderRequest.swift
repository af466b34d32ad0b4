import Foundation
import WidgetSchedulerCore

/// One request of the provider protocol v1, written as a JSON object on the provider's stdin.
///
/// ```
/// {"context":{"dataDirectory":"/var/lib/widget-scheduler/groups/weather","isPreview":false,
///   "now":"2026-01-05T08:00:00Z","reason":"policy"},"kind":"weather","protocol":1,"request":"timeline",
///  "widget":{"configuration":{"location":"Paris"},"family":"systemSmall","id":"w1"}}
/// ```
public struct ProviderRequest: Sendable, Hashable, Encodable {
    /// The protocol version this type writes.
    public static let protocolVersion = 1

    /// The widget a request is about.
    public struct Widget: Sendable, Hashable, Encodable {
        /// The widget's id in the daemon.
        public var id: String
        /// Its family, e.g. `systemSmall`.
        public var family: String
        /// Its parameter values by name.
        public var configuration: [String: JSONValue]

        public init(id: String, family: String, configuration: [String: JSONValue] = [:]) {
            self.id = id
            self.family = family
            self.configuration = configuration
        }
    }

    /// Facts about the run.
    public struct Context: Sendable, Hashable, Encodable {
        /// The daemon's wall clock when it started the run.
        public var now: Date
        /// True for previews (snapshots for a gallery, `run-provider`): the provider should answer fast, with sample
        /// data if need be.
        public var isPreview: Bool
        /// Why the run happens, for timeline runs.
        public var reason: RunReason?
        /// The shared data directory of the manifest's group, if it has one: one file per key.
        public var dataDirectory: String?
        /// For `timeline` and `snapshot`: a fresh, empty directory the provider may write image files in, which
        /// entries then name (docs/provider-protocol.md, "Images"); absent when the daemon could not make one.
        public var imageDirectory: String?

        public init(now: Date, isPreview: Bool = false, reason: RunReason? = nil, dataDirectory: String? = nil,
                    imageDirectory: String? = nil) {
            self.now = now
            self.isPreview = isPreview
            self.reason = reason
            self.dataDirectory = dataDirectory
            self.imageDirectory = imageDirectory
        }

        enum CodingKeys: String, CodingKey {
            case now, isPreview, reason, dataDirectory, imageDirectory
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            // Held within the dates a provider may answer with (a clock set past year 9999 is not the provider's).
            try container.encode(RFC3339.string(from: SupportedRange.clamped(now)), forKey: .now)
            try container.encode(isPreview, forKey: .isPreview)
            try container.encodeIfPresent(reason, forKey: .reason)
            try container.encodeIfPresent(dataDirectory, forKey: .dataDirectory)
            try container.encodeIfPresent(imageDirectory, forKey: .imageDirectory)
        }
    }

    /// What is asked for.
    public var request: ProviderRequestKind
    /// The widget kind, as named in the manifest.
    public var kind: String
    /// The widget, when the request is about one (absent for `options` asked without a widget).
    public var widget: Widget?
    /// For `options`: the parameter whose options are asked for.
    public var parameter: String?
    /// For `options`: the text the user typed to filter them, if any.
    public var search: String?
    public var context: Context

    public init(
        request: ProviderRequestKind,
        kind: String,
        widget: Widget?,
        parameter: String? = nil,
        search: String? = nil,
        context: Context
    ) {
        self.request = request
        self.kind = kind
        self.widget = widget
        self.parameter = parameter
        self.search = search
        self.context = context
    }

    enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol"
        case request, kind, widget, parameter, search, context
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.protocolVersion, forKey: .protocolVersion)
        try container.encode(request, forKey: .request)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(widget, forKey: .widget)
        if request == .options {
            try container.encodeIfPresent(parameter, forKey: .parameter)
            try container.encodeIfPresent(search, forKey: .search)
        }
        try container.encode(context, forKey: .context)
    }

    /// The request as compact UTF-8 JSON with sorted keys, ready to write on the provider's stdin: byte for byte
    /// what `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`) makes of `encode(to:)`, pinned by a test, but
    /// written by hand, as the daemon writes one per run.
    public func encoded() -> [UInt8] {
        var output = JSONBytesWriter(reservingCapacity: 256)
        output.raw("{\"context\":{")
        if let dataDirectory = context.dataDirectory {
            output.raw("\"dataDirectory\":")
            output.string(dataDirectory)
            output.raw(",")
        }
        if let imageDirectory = context.imageDirectory {
            output.raw("\"imageDirectory\":")
            output.string(imageDirectory)
            output.raw(",")
        }
        output.raw(context.isPreview ? "\"isPreview\":true,\"now\":" : "\"isPreview\":false,\"now\":")
        output.date(context.now)
        if let reason = context.reason {
            output.raw(",\"reason\":")
            output.string(reason.rawValue)
        }
        output.raw("},\"kind\":")
        output.string(kind)
        if request == .options, let parameter {
            output.raw(",\"parameter\":")
            output.string(parameter)
        }
        output.raw(",\"protocol\":")
        output.value(.integer(Int64(Self.protocolVersion)))
        output.raw(",\"request\":")
        output.string(request.rawValue)
        if request == .options, let search {
            output.raw(",\"search\":")
            output.string(search)
        }
        if let widget {
            output.raw(",\"widget\":{\"configuration\":")
            output.object(widget.configuration)
            output.raw(",\"family\":")
            output.string(widget.family)
            output.raw(",\"id\":")
            output.string(widget.id)
            output.raw("}")
        }
        output.raw("}")
        return output.bytes
    }

    /// The request as written on a provider's stdin: `encoded()` and a newline, then end-of-file. A line-oriented
    /// reader (a shell's `read`, `readline()`) gets the whole request in one line and a clean end of line; without
    /// the newline a shell's `read` reports end-of-file with the line in hand, and its loop goes round once more.
    public func encodedLine() -> [UInt8] {
        var bytes = encoded()
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
