// swift-tools-version:6.0
import PackageDescription

// The benchmarks, in a package of their own (as swift-nio's and swift-collections' are), so that the product's
// package builds only the product and its tests. It depends on the product's package by path:
//   daemon-bench        the measurements of suite.sh that need a program (populate, start, runs, entries, reload,
//                       list, decision)
//   runner-bench        ProviderRunner against the bare C loop (runner.sh)
//   state-bench         the SQLite state store at P2's scale and under kill -9
//   views-bench         issue 31's rendering: 1 000 widgets' current entries to HTML and text, against JSON
//   BenchmarkToolTests  daemon-bench's own parts (its options, byte search, its use of the raw Varlink client)
// Build and test: swift build --package-path Benchmarks; swift test --package-path Benchmarks.
let package = Package(
    name: "widget-scheduler-benchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "widget-scheduler", path: ".."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "daemon-bench",
            dependencies: [
                .product(name: "WidgetSchedulerInternals", package: "widget-scheduler"),
                // The raw Varlink client the tests use too (RawVarlinkConnection), reading replies as bytes.
                .product(name: "WidgetSchedulerTestKit", package: "widget-scheduler"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "runner-bench",
            dependencies: [.product(name: "WidgetSchedulerInternals", package: "widget-scheduler")]
        ),
        .executableTarget(
            name: "state-bench",
            dependencies: [.product(name: "WidgetSchedulerInternals", package: "widget-scheduler")]
        ),
        .executableTarget(
            name: "views-bench",
            dependencies: [
                .product(name: "WidgetViews", package: "widget-scheduler"),
                .product(name: "WidgetSchedulerInternals", package: "widget-scheduler"),
            ]
        ),
        .testTarget(
            name: "BenchmarkToolTests",
            dependencies: ["daemon-bench", .product(name: "WidgetSchedulerTestKit", package: "widget-scheduler")]
        ),
    ]
)
