import Foundation

/// The executables under test, found in the build directory that holds the test bundle: `swift test` and
/// `swift build --build-tests && swift test --skip-build` both put them side by side.
public enum BuiltProducts {
    /// The directory holding `widget-scheduler` and `widgetctl`, or why it could not be found.
    public static let directory: Result<URL, LookupError> = locate()

    /// Why the executables could not be found: every place looked at, and how to build them.
    public struct LookupError: Error, CustomStringConvertible {
        public var searched: [String]
        public var description: String {
            "widget-scheduler and widgetctl are not built next to the tests (looked in: "
                + searched.joined(separator: ", ") + "). Build them first: swift build --build-tests "
                + "[--scratch-path DIR], or set WIDGET_SCHEDULER_BUILD_DIR to the directory holding them."
        }
    }

    /// The path of the built executable `name`.
    public static func executable(_ name: String) throws -> String {
        try directory.get().appendingPathComponent(name).path
    }

    private static let names = ["widget-scheduler", "widgetctl"]

    private static func locate() -> Result<URL, LookupError> {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["WIDGET_SCHEDULER_BUILD_DIR"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        // The test runner is `<build>/debug/<package>PackageTests.xctest` (an executable on Linux, a bundle
        // directory elsewhere); the executables are its siblings.
        if let runner = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: runner).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        candidates.append(Bundle.main.bundleURL.resolvingSymlinksInPath())
        candidates.append(Bundle.main.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        // Last resort: the package's default build directory, from this file's path.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for candidate in candidates where names.allSatisfy({
            FileManager.default.isExecutableFile(atPath: candidate.appendingPathComponent($0).path)
        }) {
            return .success(candidate)
        }
        return .failure(LookupError(searched: candidates.map(\.path)))
    }
}
