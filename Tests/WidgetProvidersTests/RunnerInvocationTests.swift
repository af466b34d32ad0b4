import Foundation
import Testing
import WidgetProtocol
@testable import WidgetProviders
import WidgetSchedulerCore

@Suite("Provider invocation")
struct RunnerInvocationTests {
    private static let request = ProviderRequest(
        request: .timeline, kind: "weather",
        widget: ProviderRequest.Widget(id: "w1", family: "systemSmall", configuration: ["location": .string("Paris")]),
        context: ProviderRequest.Context(now: Date(timeIntervalSince1970: 1_767_600_000), reason: .policy)
    )

    private func invoke(_ script: String, in directory: URL, memoryMax: Int = 64 << 20) throws -> ProviderRunResult {
        let argv = try RunnerHarness.interpreted(script, in: directory)
        let manifest = ProviderManifest(
            path: directory.appendingPathComponent("weather.toml").path, exec: argv, timeout: 5,
            memoryMax: memoryMax, widgets: [WidgetKindManifest(kind: "weather")]
        )
        let invocation = ProviderInvocation(manifest: manifest, request: Self.request, grace: 0.5)
        return invocation.result(of: RunnerHarness.run(invocation.processSpec))
    }

    @Test(arguments: [
        ("/usr/share/widget-scheduler/providers/weather.toml", "/usr/share/widget-scheduler/providers"),
        ("/weather.toml", "/"),
        ("providers/weather.toml", "providers"),
        ("weather.toml", "."),
        ("/etc//providers//weather.toml", "/etc//providers"),
        ("./weather.toml", "."),
        ("/srv/providers/weather.toml/", "/srv/providers"),
        ("//weather.toml", "/"),
        ("/srv/prövider é/weather.toml", "/srv/prövider é"),
    ])
    func aManifestsDirectoryIsTakenFromItsPathText(path: String, directory: String) {
        #expect(ProviderManifest(path: path, exec: ["/bin/true"], widgets: []).directory == directory)
        var moved = ProviderManifest(path: "/elsewhere/other.toml", exec: ["/bin/true"], widgets: [])
        moved.path = path
        #expect(moved.directory == directory)
    }

    @Test func specRunsTheManifestsExecInItsDirectoryWithTheRequestOnStdin() {
        let manifest = ProviderManifest(
            path: "/usr/share/widget-scheduler/providers/weather.toml", exec: ["/usr/lib/weather", "--metric"],
            timeout: 12, memoryMax: 32 << 20, widgets: [WidgetKindManifest(kind: "weather")]
        )
        let invocation = ProviderInvocation(manifest: manifest, request: Self.request, extraEnvironment: ["TZ": "UTC"])
        let spec = invocation.processSpec
        #expect(spec.argv == ["/usr/lib/weather", "--metric"])
        #expect(spec.workingDirectory == "/usr/share/widget-scheduler/providers")
        #expect(spec.stdin == Self.request.encoded() + [UInt8(ascii: "\n")])
        #expect(spec.timeout == 12)
        #expect(spec.memoryMax == 32 << 20)
        #expect(spec.environment == ProcessSpec.minimalEnvironment.merging(["TZ": "UTC"]) { $1 })
    }

    @Test func validAnswerIsDecodedAndTheProviderSawTheRequest() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            #!/bin/sh
            request=$(cat)
            case "$request" in *'"location":"Paris"'*) place=Paris ;; *) place=unknown ;; esac
            echo "serving $place" >&2
            printf '{"entries":[{"date":"2026-01-05T09:00:00Z","content":"%s"},' "$place"
            printf '{"date":"2026-01-05T08:00:00Z","content":"first"}],"policy":"never"}'
            """
        let result = try invoke(script, in: directory)
        let timeline = try #require(result.timeline)
        #expect(timeline.entries.map(\.content) == ["\"first\"", "\"Paris\""])
        #expect(timeline.policy == .never)
        #expect(result.stderrTail == "serving Paris\n")
    }

    @Test func garbageOnStdoutIsInvalidWithTheDecodersMessage() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let answer = #"{"entries": [{"date": "tomorrow", "content": 1}], "policy": "never"}"#
        let result = try invoke("#!/bin/sh\necho '\(answer)'\n", in: directory)
        #expect(result.failure?.reason == .invalid)
        #expect(result.failure?.detail == "entry 0: \"date\" is not an RFC 3339 date: \"tomorrow\"")
        let binary = try invoke("#!/bin/sh\nhead -c 300 /dev/urandom\n", in: directory)
        #expect(binary.failure?.reason == .invalid)
    }

    @Test func tooManyEntriesIsOutputTooLarge() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            #!/usr/bin/env python3
            import json
            entries = [{"date": "2026-01-05T%02d:%02d:%02dZ" % (i // 3600, i // 60 % 60, i % 60), "content": i}
                       for i in range(1001)]
            print(json.dumps({"entries": entries, "policy": "atEnd"}))
            """
        let result = try invoke(script, in: directory)
        #expect(result.failure?.reason == .outputTooLarge)
    }

    @Test func processFailuresKeepTheirReasonAndStderr() throws {
        let directory = try RunnerHarness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try invoke("#!/bin/sh\necho 'no API key' >&2\nexit 3\n", in: directory)
        let expected = ProviderRunFailure(reason: .exit, detail: "exited with status 3", stderrTail: "no API key\n")
        #expect(result.failure == expected)
    }
}
