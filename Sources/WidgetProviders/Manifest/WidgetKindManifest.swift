import WidgetProtocol

/// One `[[widget]]` table of a manifest: a widget kind the provider serves.
public struct WidgetKindManifest: Sendable, Hashable {
    /// The kind's name, unique across all manifests (`[a-z0-9][a-z0-9._-]*`).
    public var kind: String
    /// From `display-name`; defaults to the kind.
    public var displayName: String
    /// From `description`; defaults to empty.
    public var description: String
    /// The families it supports; defaults to `systemSmall`, `systemMedium` and `systemLarge`.
    public var families: [String]
    /// Its parameters, sorted by name.
    public var parameters: [ParameterSpec]
    /// Its views (`views`): a view document (docs/views.md), validated when the manifest loaded. Nil when it has none.
    public var views: JSONValue?
    /// The view file the views came from; nil when they are inline in the manifest (or absent).
    public var viewsFile: String?

    /// The families a kind supports when its manifest lists none, as WidgetKit's default.
    public static let defaultFamilies = ["systemSmall", "systemMedium", "systemLarge"]

    public init(
        kind: String,
        displayName: String? = nil,
        description: String = "",
        families: [String] = defaultFamilies,
        parameters: [ParameterSpec] = [],
        views: JSONValue? = nil,
        viewsFile: String? = nil
    ) {
        self.kind = kind
        self.displayName = displayName ?? kind
        self.description = description
        self.families = families
        self.parameters = parameters.sorted { $0.name < $1.name }
        self.views = views
        self.viewsFile = viewsFile
    }

    /// The parameter named `name`, if declared.
    public func parameter(named name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }

    /// The manifest's default configuration: every parameter that has a default.
    public var defaultConfiguration: [String: JSONValue] {
        var configuration: [String: JSONValue] = [:]
        for parameter in parameters {
            if let value = parameter.defaultValue { configuration[parameter.name] = value }
        }
        return configuration
    }
}
