// swift-tools-version:6.0
import PackageDescription

// Module map (one idea per module, so each can be built and tested alone):
//   WidgetSchedulerCore     pure rules: budget, floor, policies, coalescing, backoff, current entry, relevance
//   WidgetProtocol          wire types: provider request/answer v1 with validation, Varlink control messages
//   CSystemd / SystemdKit   libsystemd: sd-event loop, journal (sd_journal_sendv), sd_notify, socket activation
//   CSpawn / WidgetProviders  manifests (TOMLKit) and the provider runner (clone with a pre-exec hook, Landlock)
//   WidgetSchedulerRuntime  the daemon: SQLite state (GRDB), Varlink server, wiring core to effects
//   WidgetSchedulerCoreTestKit  manual clock and seeded generator, for the core's tests (no runtime, no GRDB)
//   WidgetSchedulerTestKit  fakes for every effect protocol, with the core's kit; DaemonWorld, the real daemon
//                           in a temporary directory, for the integration and reliability suites
//   WidgetProviderKit       the Swift SDK for provider authors, with WidgetKit's names
//   WidgetControlClient     the blocking Varlink client of the control socket, shared by widgetctl and apps
//   WidgetCenter            the library for apps, with WidgetKit's names: reloads, configurations, group data
//   WidgetViews             pure: a kind's declarative views per family, rendered to HTML or text (no I/O)
let package = Package(
    name: "widget-scheduler",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "widget-scheduler", targets: ["widget-scheduler"]),
        .executable(name: "widgetctl", targets: ["widgetctl"]),
        .executable(name: "widget-host", targets: ["widget-host"]),
        .library(name: "WidgetProviderKit", targets: ["WidgetProviderKit"]),
        .library(name: "WidgetCenter", targets: ["WidgetCenter"]),
        // For hosts: the views a kind declares, parsed and drawn as HTML or text (docs/views.md).
        .library(name: "WidgetViews", targets: ["WidgetViews"]),
        .library(name: "WidgetSchedulerTestKit", targets: ["WidgetSchedulerTestKit"]),
        .library(name: "WidgetSchedulerCoreTestKit", targets: ["WidgetSchedulerCoreTestKit"]),
        // The daemon's own modules, for the benchmark package (Benchmarks/Package.swift) alone: daemon-bench
        // populates state through WidgetService and times the Scheduler's decisions, runner-bench runs providers
        // through ProviderRunner, state-bench drives StateStore. No API for apps or providers, which have
        // WidgetProviderKit and the control socket.
        .library(
            name: "WidgetSchedulerInternals",
            targets: ["WidgetSchedulerCore", "WidgetProtocol", "WidgetProviders", "WidgetSchedulerRuntime"]
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // SHA-256 names stored images; already in the graph through Hummingbird's dependencies.
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        .target(
            name: "WidgetSchedulerCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")]
        ),
        .target(name: "WidgetProtocol", dependencies: ["WidgetSchedulerCore"]),
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        .target(name: "CSpawn"),
        .target(
            name: "SystemdKit",
            dependencies: ["CSystemd", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "WidgetProviders",
            dependencies: [
                "WidgetSchedulerCore", "WidgetProtocol", "WidgetViews", "CSpawn",
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(
            name: "WidgetSchedulerRuntime",
            dependencies: [
                "WidgetSchedulerCore", "WidgetProtocol", "WidgetProviders", "SystemdKit", "CSpawn",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "HeapModule", package: "swift-collections"),
            ]
        ),
        .target(name: "WidgetSchedulerCoreTestKit", dependencies: ["WidgetSchedulerCore"]),
        .target(
            name: "WidgetSchedulerTestKit",
            dependencies: [
                "WidgetSchedulerCore", "WidgetSchedulerCoreTestKit", "WidgetSchedulerRuntime", "WidgetProviders",
                "WidgetProtocol", "CSpawn",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "WidgetProviderKit"),
        .target(name: "WidgetViews", dependencies: ["WidgetProtocol", "WidgetSchedulerCore"]),
        .target(name: "WidgetControlClient", dependencies: ["WidgetProtocol"]),
        .target(
            name: "WidgetControl",
            dependencies: ["WidgetControlClient", "WidgetProtocol", "WidgetSchedulerCore", "WidgetViews"]
        ),
        // Apps link only the wire types and the client: WidgetCenterTests checks that nothing of the daemon comes in.
        .target(name: "WidgetCenter", dependencies: ["WidgetControlClient", "WidgetProtocol"]),
        .executableTarget(name: "weather-app", dependencies: ["WidgetCenter"], path: "examples/weather-app"),
        .target(
            name: "WidgetHost",
            dependencies: [
                "WidgetControlClient", "WidgetProtocol", "WidgetSchedulerCore", "WidgetViews",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            resources: [.embedInCode("Assets/home.css"), .embedInCode("Assets/home.js")]
        ),
        .executableTarget(
            name: "widget-host",
            dependencies: [
                "WidgetHost", "SystemdKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "clock-provider",
            dependencies: ["WidgetProviderKit"],
            path: "examples/clock-swift",
            exclude: ["clock.toml", "clock-provider", "clock.views.json", "countdown.views.json"]
        ),
        .executableTarget(
            name: "widget-scheduler",
            dependencies: [
                "WidgetSchedulerCore", "WidgetProtocol", "WidgetProviders", "WidgetSchedulerRuntime", "SystemdKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "widgetctl",
            dependencies: [
                "WidgetProtocol", "WidgetControl", "WidgetViews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "WidgetSchedulerCoreTests", dependencies: ["WidgetSchedulerCore", "WidgetSchedulerCoreTestKit"]
        ),
        .testTarget(name: "WidgetProtocolTests", dependencies: ["WidgetProtocol", "WidgetSchedulerCoreTestKit"]),
        .testTarget(
            name: "WidgetProvidersTests",
            dependencies: ["WidgetProviders", "WidgetProtocol", "WidgetViews", "CSpawn", "WidgetSchedulerTestKit"]
        ),
        .executableTarget(
            name: "systemdkit-probe",
            dependencies: ["SystemdKit", .product(name: "Logging", package: "swift-log")],
            path: "Tests/System/Probe"
        ),
        .testTarget(name: "SystemdKitTests", dependencies: ["SystemdKit", "CSystemd", "WidgetProtocol"]),
        .testTarget(
            name: "WidgetSchedulerRuntimeTests",
            dependencies: ["WidgetSchedulerRuntime", "WidgetSchedulerTestKit", "SystemdKit"]
        ),
        .testTarget(
            name: "WidgetControlTests",
            dependencies: ["WidgetControl", "WidgetProtocol", "WidgetViews", "widgetctl", "WidgetSchedulerTestKit"]
        ),
        .testTarget(name: "WidgetProviderKitTests", dependencies: ["WidgetProviderKit"]),
        .testTarget(
            name: "WidgetCenterTests", dependencies: ["WidgetCenter", "WidgetProtocol", "WidgetSchedulerTestKit"]
        ),
        .testTarget(
            name: "WidgetHostTests",
            dependencies: ["WidgetHost", "WidgetProtocol", "WidgetControlClient", "WidgetSchedulerTestKit"]
        ),
        .testTarget(
            name: "WidgetViewsTests",
            dependencies: ["WidgetViews", "WidgetProtocol", "WidgetSchedulerCore"],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["WidgetCenter", "WidgetProtocol", "WidgetSchedulerTestKit"]
        ),
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "WidgetControl", "WidgetProtocol", "WidgetSchedulerCore", "WidgetSchedulerRuntime",
                "WidgetSchedulerTestKit", "CSpawn",
            ]
        ),
    ]
)
