import Foundation

/// The executables under test, found in the build directory that holds the test runner: `swift test` builds them
/// next to it.
enum DaemonExecutables {
    /// The directory holding `widget-scheduler` and `widgetctl`, or why it could not be found.
    static let directory: Result<URL, ReliabilityFailure> = locate()

    /// The path of the built executable `name`.
    static func path(_ name: String) throws -> String {
        try directory.get().appendingPathComponent(name).path
    }

    private static let names = ["widget-scheduler", "widgetctl"]

    private static func locate() -> Result<URL, ReliabilityFailure> {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["WIDGET_SCHEDULER_BUILD_DIR"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        // The runner is `<build>/debug/<package>PackageTests.xctest`; the executables are its siblings.
        if let runner = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: runner).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        for candidate in candidates where names.allSatisfy({
            FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent($0).path)
        }) {
            return .success(candidate)
        }
        return .failure(ReliabilityFailure(
            "widget-scheduler and widgetctl are not built next to the tests (looked in: "
                + candidates.map(\.path).joined(separator: ", ") + "); build them with swift build --build-tests, "
                + "or set WIDGET_SCHEDULER_BUILD_DIR"))
    }
}
