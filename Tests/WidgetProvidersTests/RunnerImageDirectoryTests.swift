import Foundation
import Testing
@testable import WidgetProviders

/// A sandbox with a run root: each run writes regular files in its own directory beneath it, and nothing else there,
/// not another run's directory nor the root itself; a run without a directory writes none of them.
struct RunnerImageDirectoryTests {
    /// Tries each write and reports `name=written` or `name=denied` on one line.
    private static let probe = """
        #!/bin/sh
        try() { if (eval "$2") 2>/dev/null; then printf '%s=written ' "$1"; else printf '%s=denied ' "$1"; fi; }
        try own 'printf png > "$OWN/cat.png"'
        try ownAgain 'printf more >> "$OWN/cat.png"'
        try ownRemove 'printf x > "$OWN/gone" && rm "$OWN/gone"'
        try other 'printf png > "$OTHER/planted.png"'
        try root 'printf png > "$ROOT/loose.png"'
        try mkdirOwn 'mkdir "$OWN/sub"'
        try symlinkOwn 'ln -s /etc/passwd "$OWN/link.png"'
        try fifoOwn 'mkfifo "$OWN/fifo.png"'
        try hardLinkIn 'ln "$TMP_FILE" "$OWN/hard.png"'
        try tmp 'printf x > "$TMP_DIR/ok"'
        echo
        """

    private struct Places {
        let root: URL
        let runs: URL
        let own: URL
        let other: URL
        let tmp: URL

        init() throws {
            root = try RunnerHarness.temporaryDirectory()
            runs = root.appendingPathComponent("image-runs")
            own = runs.appendingPathComponent("run-own")
            other = runs.appendingPathComponent("run-other")
            tmp = root.appendingPathComponent("tmp")
            for directory in [own, other, tmp] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try Data("x".utf8).write(to: tmp.appendingPathComponent("file"))
        }

        func spec(writing directory: URL?) throws -> ProcessSpec {
            var environment = ProcessSpec.minimalEnvironment
            environment["OWN"] = own.path
            environment["OTHER"] = other.path
            environment["ROOT"] = runs.path
            environment["TMP_DIR"] = tmp.path
            environment["TMP_FILE"] = tmp.appendingPathComponent("file").path
            return ProcessSpec(argv: try RunnerHarness.interpreted(RunnerImageDirectoryTests.probe, in: root),
                               environment: environment, timeout: 10, writableDirectory: directory?.path)
        }
    }

    private static func outcomes(_ result: ProcessResult) -> [String: String] {
        var pairs: [String: String] = [:]
        for field in String(decoding: result.stdout, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { pairs[parts[0]] = parts[1] }
        }
        return pairs
    }

    @Test func aRunWritesFilesInItsOwnDirectoryAloneAndOnlyRegularOnes() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.tmp.path, "/dev"], runRoot: places.runs.path)
        let result = RunnerHarness.run([try places.spec(writing: places.own)], sandbox: sandbox)[0]
        #expect(result.succeeded, "\(result)")
        #expect(Self.outcomes(result) == [
            "own": "written", "ownAgain": "written", "ownRemove": "written", "other": "denied", "root": "denied",
            "mkdirOwn": "denied", "symlinkOwn": "denied", "fifoOwn": "denied", "hardLinkIn": "denied",
            "tmp": "written",
        ])
        #expect(try Data(contentsOf: places.own.appendingPathComponent("cat.png")) == Data("pngmore".utf8))
        #expect(!FileManager.default.fileExists(atPath: places.other.appendingPathComponent("planted.png").path))
    }

    @Test func aRunWithoutADirectoryWritesNoneBeneathTheRoot() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.tmp.path, "/dev"], runRoot: places.runs.path)
        let result = RunnerHarness.run([try places.spec(writing: nil)], sandbox: sandbox)[0]
        #expect(result.succeeded, "\(result)")
        let outcomes = Self.outcomes(result)
        #expect(outcomes["own"] == "denied")
        #expect(outcomes["other"] == "denied")
        #expect(outcomes["root"] == "denied")
        #expect(outcomes["tmp"] == "written", "the writable paths stay writable")
    }

    @Test func runsWithoutADirectoryOneAfterAnotherEachWriteNoneBeneathTheRoot() throws {
        // They share one ruleset, made at the first: each is restricted by it all the same, and a run with a
        // directory among them still writes its own.
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.tmp.path, "/dev"], runRoot: places.runs.path)
        let specs = [try places.spec(writing: nil), try places.spec(writing: nil), try places.spec(writing: places.own),
                     try places.spec(writing: nil)]
        let results = RunnerHarness.run(specs, sandbox: sandbox)
        for (index, result) in results.enumerated() {
            #expect(result.succeeded, "run \(index): \(result)")
            let outcomes = Self.outcomes(result)
            #expect(outcomes["own"] == (index == 2 ? "written" : "denied"), "run \(index)")
            #expect(outcomes["other"] == "denied" && outcomes["root"] == "denied", "run \(index)")
            #expect(outcomes["tmp"] == "written", "run \(index)")
        }
    }

    @Test func aRunWhoseDirectoryIsGoneDoesNotStart() throws {
        let places = try Places()
        defer { try? FileManager.default.removeItem(at: places.root) }
        let sandbox = try ProviderSandbox(writablePaths: [places.tmp.path, "/dev"], runRoot: places.runs.path)
        let missing = places.runs.appendingPathComponent("run-missing")
        let result = RunnerHarness.run([try places.spec(writing: missing)], sandbox: sandbox)[0]
        #expect(!result.succeeded)
        #expect(result.stdout.isEmpty, "it never ran")
    }
}
