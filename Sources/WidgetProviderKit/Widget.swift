/// One widget kind, as WidgetKit's `Widget`. Mark it `@main` to serve it from an executable.
///
/// ```swift
/// @main
/// struct ClockWidget: Widget {
///     var body: some WidgetConfiguration { StaticConfiguration(kind: "clock", provider: ClockProvider()) }
/// }
/// ```
public protocol Widget {
    associatedtype Body: WidgetConfiguration
    init()
    var body: Body { get }
}

extension Widget {
    /// The kinds this widget serves, as `ProviderMain` dispatches on them.
    public var staticConfigurations: [StaticConfiguration] { body.staticConfigurations }

    /// Serves one request from stdin and exits; see `ProviderMain`.
    public static func main() {
        ProviderMain.run(Self().staticConfigurations)
    }
}

/// Several widget kinds served by one executable, as WidgetKit's `WidgetBundle`. Mark it `@main`.
///
/// ```swift
/// @main
/// struct ClockWidgets: WidgetBundle {
///     var body: some Widget {
///         ClockWidget()
///         CountdownWidget()
///     }
/// }
/// ```
public protocol WidgetBundle {
    associatedtype Body: Widget
    init()
    @WidgetBundleBuilder var body: Body { get }
}

extension WidgetBundle {
    /// The kinds of every widget in the bundle, as `ProviderMain` dispatches on them.
    public var staticConfigurations: [StaticConfiguration] { body.staticConfigurations }

    /// Serves one request from stdin and exits; see `ProviderMain`.
    public static func main() {
        ProviderMain.run(Self().staticConfigurations)
    }
}

/// The widgets of a bundle, gathered by `WidgetBundleBuilder`.
public struct BundledWidgets: Widget {
    public struct Configurations: WidgetConfiguration {
        public var staticConfigurations: [StaticConfiguration]
    }

    let configurations: [StaticConfiguration]

    public init() {
        configurations = []
    }

    init(_ configurations: [StaticConfiguration]) {
        self.configurations = configurations
    }

    public var body: Configurations { Configurations(staticConfigurations: configurations) }
}

/// Builds a `WidgetBundle`'s body from a list of widgets.
@resultBuilder
public enum WidgetBundleBuilder {
    public static func buildExpression(_ widget: some Widget) -> [StaticConfiguration] {
        widget.staticConfigurations
    }

    public static func buildBlock(_ parts: [StaticConfiguration]...) -> BundledWidgets {
        BundledWidgets(parts.flatMap { $0 })
    }
}
