/// `Kinds`: every widget kind the manifests declare.
public enum KindsMethod: VarlinkMethod {
    public static let method = ControlMethod.kinds
    public typealias Parameters = NoParameters

    /// One parameter a kind's configuration takes.
    public struct Parameter: Sendable, Hashable, Codable {
        public var name: String
        /// The manifest's type name (`string`, `integer`, `number`, `boolean`, `enum`, ...).
        public var type: String
        public var title: String?
        /// The manifest's default, if it has one.
        public var defaultValue: JSONValue?
        /// Whether `Options` asks the provider (`provideOptionsCollection`) rather than listing fixed values.
        public var dynamicOptions: Bool

        public init(
            name: String, type: String, title: String? = nil, defaultValue: JSONValue? = nil,
            dynamicOptions: Bool = false
        ) {
            self.name = name
            self.type = type
            self.title = title
            self.defaultValue = defaultValue
            self.dynamicOptions = dynamicOptions
        }
    }

    /// One kind, from its manifest.
    public struct Kind: Sendable, Hashable, Codable {
        public var kind: String
        public var displayName: String?
        public var description: String?
        public var families: [String]
        public var parameters: [Parameter]
        /// The shared-data group of the kind's manifest, if any.
        public var group: String?
        public var ownerUsers: [String]
        public var ownerGroups: [String]
        /// Whether the kind is in developer mode (no budget, no floor).
        public var developerMode: Bool
        /// How many widgets of this kind exist.
        public var widgets: Int
        /// The manifest file the kind comes from.
        public var manifest: String

        public init(
            kind: String, displayName: String? = nil, description: String? = nil, families: [String],
            parameters: [Parameter], group: String? = nil, ownerUsers: [String] = [], ownerGroups: [String] = [],
            developerMode: Bool = false, widgets: Int, manifest: String
        ) {
            self.kind = kind
            self.displayName = displayName
            self.description = description
            self.families = families
            self.parameters = parameters
            self.group = group
            self.ownerUsers = ownerUsers
            self.ownerGroups = ownerGroups
            self.developerMode = developerMode
            self.widgets = widgets
            self.manifest = manifest
        }
    }

    public struct Reply: Sendable, Hashable, Codable {
        public var kinds: [Kind]

        public init(kinds: [Kind]) {
            self.kinds = kinds
        }
    }
}
