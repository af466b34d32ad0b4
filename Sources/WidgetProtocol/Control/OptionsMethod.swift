/// `Options`: the values a parameter can take, asked of the provider (`provideOptionsCollection`) or read from the
/// manifest's fixed list.
public enum OptionsMethod: VarlinkMethod {
    public static let method = ControlMethod.options

    public struct Parameters: Sendable, Hashable, Codable {
        public var kind: String
        public var parameter: String
        /// Text the user typed, for providers that filter.
        public var search: String?

        public init(kind: String, parameter: String, search: String? = nil) {
            self.kind = kind
            self.parameter = parameter
            self.search = search
        }
    }

    /// One value with the title to show for it.
    public struct Option: Sendable, Hashable, Codable {
        public var value: JSONValue
        public var title: String?

        public init(value: JSONValue, title: String? = nil) {
            self.value = value
            self.title = title
        }
    }

    /// Where the options came from.
    public enum Source: String, Sendable, Hashable, Codable {
        case provider, manifest
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var options: [Option]
        public var source: Source

        public init(options: [Option], source: Source) {
            self.options = options
            self.source = source
        }
    }
}
